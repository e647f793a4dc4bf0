import GRDB
import StrataRuntime

extension SQLiteStore {
    /// The records matching `filter`, each with the `Partner` record its `reference` property holds
    /// the key of, in one query: `db.posts.fetchAll(joining: Writer.self, on: \.writer,
    /// where: { post, writer in writer.name == "Ada" }, orderBy: { post, _ in [post.title.ascending] })`.
    @inlinable
    public func fetchAll<Partner: SQLiteRecord>(
        joining partner: Partner.Type, on reference: KeyPath<Record, Partner.Key> & Sendable,
        where filter: StrataJoinFilter<Record, Partner>? = nil, orderBy order: StrataJoinOrder<Record, Partner>? = nil,
        limit: Int? = nil, offset: Int? = nil
    ) throws -> [StrataJoined<Record, Partner>] {
        try rows(.joined(Record.self, joining: partner, on: reference, where: filter, orderBy: order, limit: limit, offset: offset))
    }

    /// The records matching `filter`, each with the `Partner` record its optional `reference`
    /// property holds the key of, or nil (a record without one is kept: a left join).
    @inlinable
    public func fetchAll<Partner: SQLiteRecord>(
        joining partner: Partner.Type, on reference: KeyPath<Record, Partner.Key?> & Sendable,
        where filter: StrataJoinFilter<Record, Partner>? = nil, orderBy order: StrataJoinOrder<Record, Partner>? = nil,
        limit: Int? = nil, offset: Int? = nil
    ) throws -> [StrataJoined<Record, Partner?>] {
        try rows(.leftJoined(Record.self, joining: partner, on: reference, where: filter, orderBy: order, limit: limit, offset: offset))
    }

    /// The records matching `filter`, sorted by `order`, each with the number of `Other` records
    /// (among those matching `counted`) whose `reference` property holds its key: writers with
    /// their number of posts, `db.writers.fetchAll(counting: Post.self, via: \.writer)`.
    @inlinable
    public func fetchAll<Other: StrataRecord, Reference: StrataReferenceValue>(
        counting other: Other.Type, via reference: KeyPath<Other, Reference> & Sendable,
        where counted: StrataFilter<Other>? = nil, filter: StrataFilter<Record>? = nil, orderBy order: StrataSort<Record>? = nil
    ) throws -> [StrataCounted<Record>] where Reference.ReferencedKey == Record.Key {
        try rows(.counting(Record.self, other, via: reference, where: counted, filter: filter, orderBy: order))
    }
}

extension SQLiteRepository {
    /// ``SQLiteStore/fetchAll(joining:on:where:orderBy:limit:offset:)``, now and after every
    /// change to either table that affects it.
    public func observeAll<Partner: SQLiteRecord & Equatable>(
        joining partner: Partner.Type, on reference: KeyPath<Record, Partner.Key> & Sendable,
        where filter: StrataJoinFilter<Record, Partner>? = nil, orderBy order: StrataJoinOrder<Record, Partner>? = nil,
        limit: Int? = nil, offset: Int? = nil
    ) -> AsyncValueObservation<[StrataJoined<Record, Partner>]> where Record: Equatable {
        observe(.joined(Record.self, joining: partner, on: reference, where: filter, orderBy: order, limit: limit, offset: offset))
    }

    /// ``SQLiteStore/fetchAll(counting:via:where:filter:orderBy:)``, now and after every
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
