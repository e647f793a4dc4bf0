import PostgresNIO
import StrataRuntime

extension PostgresStore {
    /// The records matching `filter`, each with the `Partner` record its `reference` property holds
    /// the key of, in one query (see the SQLite store's `fetchAll(joining:on:where:orderBy:limit:offset:)`).
    @inlinable
    public func fetchAll<Partner: PostgresRecord>(
        joining partner: Partner.Type,
        on reference: KeyPath<Record, Partner.Key> & Sendable,
        where filter: StrataJoinFilter<Record, Partner>? = nil,
        orderBy order: StrataJoinOrder<Record, Partner>? = nil,
        limit: Int? = nil,
        offset: Int? = nil
    ) async throws -> [StrataJoined<Record, Partner>] {
        let query = StrataJoinQuery(
            Record.self, joining: partner, on: reference, optional: false, where: filter, orderBy: order, limit: limit,
            offset: offset)
        return try await read { connection in
            try await connection.strataRows(query.statement) { row in
                var cells = StrataPostgresRow(row)
                return StrataJoined(record: try Record(row: &cells), partner: try Partner(row: &cells))
            }
        }
    }

    /// The records matching `filter`, each with the `Partner` record its optional `reference`
    /// property holds the key of, or nil (a left join).
    @inlinable
    public func fetchAll<Partner: PostgresRecord>(
        joining partner: Partner.Type,
        on reference: KeyPath<Record, Partner.Key?> & Sendable,
        where filter: StrataJoinFilter<Record, Partner>? = nil,
        orderBy order: StrataJoinOrder<Record, Partner>? = nil,
        limit: Int? = nil,
        offset: Int? = nil
    ) async throws -> [StrataJoined<Record, Partner?>] {
        let query = StrataJoinQuery(
            Record.self, joining: partner, on: reference, optional: true, where: filter, orderBy: order, limit: limit,
            offset: offset)
        return try await read { connection in
            try await connection.strataRows(query.statement) { row in
                var cells = StrataPostgresRow(row)
                let record = try Record(row: &cells)
                guard try cells.next(as: Bool.self) else { return StrataJoined(record: record, partner: nil) }
                return StrataJoined(record: record, partner: try Partner(row: &cells))
            }
        }
    }

    /// The records matching `filter`, sorted by `order`, each with the number of `Other` records
    /// (among those matching `counted`) whose `reference` property holds its key.
    @inlinable
    public func fetchAll<Other: StrataRecord, Reference: StrataReferenceValue>(
        counting other: Other.Type,
        via reference: KeyPath<Other, Reference> & Sendable,
        where counted: ((Other.Columns) -> StrataPredicate<Other>)? = nil,
        filter: ((Record.Columns) -> StrataPredicate<Record>)? = nil,
        orderBy order: ((Record.Columns) -> [StrataOrdering<Record>])? = nil
    ) async throws -> [StrataCounted<Record>] where Reference.ReferencedKey == Record.Key {
        let query = StrataSQL.select(
            Record.self, counting: other, via: reference, where: counted, filter: filter, orderBy: order)
        return try await read { connection in
            try await connection.strataRows(query) { row in
                var cells = StrataPostgresRow(row)
                return StrataCounted(record: try Record(row: &cells), count: try cells.next(as: Int.self))
            }
        }
    }
}
