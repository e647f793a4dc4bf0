import GRDB
import StrataRuntime

extension SQLiteRepository {
    /// ``StrataStore/fetchAll(joining:on:where:orderBy:limit:offset:)``, now and after every
    /// change to either table that affects it.
    public func observeAll<Partner: SQLiteRecord & Equatable>(
        joining partner: Partner.Type, on reference: KeyPath<Record, Partner.Key> & Sendable,
        where filter: StrataJoinFilter<Record, Partner>? = nil, orderBy order: StrataJoinOrder<Record, Partner>? = nil,
        limit: Int? = nil, offset: Int? = nil
    ) -> AsyncValueObservation<[StrataJoined<Record, Partner>]> where Record: Equatable {
        observe(.joined(Record.self, joining: partner, on: reference, where: filter, orderBy: order, limit: limit, offset: offset))
    }

    /// ``StrataStore/fetchAll(counting:via:where:filter:orderBy:)``, now and after every
    /// change to either table that affects it.
    public func observeAll<Other: StrataRecord, Reference: StrataReferenceValue>(
        counting other: Other.Type, via reference: KeyPath<Other, Reference> & Sendable,
        where counted: StrataFilter<Other>? = nil, filter: StrataFilter<Record>? = nil, orderBy order: StrataSort<Record>? = nil
    ) -> AsyncValueObservation<[StrataCounted<Record>]> where Reference.ReferencedKey == Record.Key, Record: Equatable {
        observe(.counting(Record.self, other, via: reference, where: counted, filter: filter, orderBy: order))
    }

    /// The rows of `query`, now and after every change that affects them.
    func observe<Shape>(_ query: StrataRowQuery<Shape>) -> AsyncValueObservation<[Shape.Row]> where Shape.Row: Equatable {
        StrataObservation.values(in: writer) { db in try SQLiteExecutor.rows(query, in: db) }
    }
}

extension SQLiteStore where Record.Key: Hashable & StrataColumnValue {
    /// The records matching `filter`, sorted by `order`, skipping `offset`, at most `limit`, each
    /// with the records that reference it, in one read and two kinds of statement (never one per
    /// record): `db.customers.fetchAll(including: .all(Order.self, via: \.customer))`.
    @inlinable
    public func fetchAll<Child>(
        where filter: StrataFilter<Record>? = nil, orderBy order: StrataSort<Record>? = nil, limit: Int? = nil,
        offset: Int? = nil, including included: StrataIncludedChildren<Record, Child>
    ) throws -> [StrataWithChildren<Record, Child>] {
        try read { db in
            let records = try SQLiteExecutor.run(.fetchAll(where: filter, orderBy: order, limit: limit, offset: offset), in: db)
            var children = StrataChildrenByParent<Record.Key, Child>(parents: records.count)
            for query in included.queries(for: records) {
                try SQLiteExecutor.group(query, into: &children, in: db)
            }
            return included.attach(children, to: records)
        }
    }
}
