import GRDB
import GRDBSQLite
import StrataRuntime

extension SQLiteStore {
    /// The records matching `filter`, each with the `Partner` record its `reference` property holds
    /// the key of, in one query: `db.posts.fetchAll(joining: Writer.self, on: \.writer,
    /// where: { post, writer in writer.name == "Ada" }, orderBy: { post, _ in [post.title.ascending] })`.
    @inlinable
    public func fetchAll<Partner: SQLiteRecord>(
        joining partner: Partner.Type,
        on reference: KeyPath<Record, Partner.Key> & Sendable,
        where filter: StrataJoinFilter<Record, Partner>? = nil,
        orderBy order: StrataJoinOrder<Record, Partner>? = nil,
        limit: Int? = nil,
        offset: Int? = nil
    ) throws -> [StrataJoined<Record, Partner>] {
        let query = StrataJoinQuery(
            Record.self, joining: partner, on: reference, optional: false, where: filter, orderBy: order, limit: limit,
            offset: offset)
        return try read { db in try StrataSQLiteJoin.rows(db, query) }
    }

    /// The records matching `filter`, each with the `Partner` record its optional `reference`
    /// property holds the key of, or nil (a record without one is kept: a left join).
    @inlinable
    public func fetchAll<Partner: SQLiteRecord>(
        joining partner: Partner.Type,
        on reference: KeyPath<Record, Partner.Key?> & Sendable,
        where filter: StrataJoinFilter<Record, Partner>? = nil,
        orderBy order: StrataJoinOrder<Record, Partner>? = nil,
        limit: Int? = nil,
        offset: Int? = nil
    ) throws -> [StrataJoined<Record, Partner?>] {
        let query = StrataJoinQuery(
            Record.self, joining: partner, on: reference, optional: true, where: filter, orderBy: order, limit: limit,
            offset: offset)
        return try read { db in try StrataSQLiteJoin.optionalRows(db, query) }
    }

    /// The records matching `filter`, sorted by `order`, each with the number of `Other` records
    /// (among those matching `counted`) whose `reference` property holds its key: writers with
    /// their number of posts, `db.writers.fetchAll(counting: Post.self, via: \.writer)`.
    @inlinable
    public func fetchAll<Other: StrataRecord, Reference: StrataReferenceValue>(
        counting other: Other.Type,
        via reference: KeyPath<Other, Reference> & Sendable,
        where counted: ((Other.Columns) -> StrataPredicate<Other>)? = nil,
        filter: ((Record.Columns) -> StrataPredicate<Record>)? = nil,
        orderBy order: ((Record.Columns) -> [StrataOrdering<Record>])? = nil
    ) throws -> [StrataCounted<Record>] where Reference.ReferencedKey == Record.Key {
        let query = StrataSQL.select(
            Record.self, counting: other, via: reference, where: counted, filter: filter, orderBy: order)
        return try read { db in try StrataSQLiteJoin.counted(db, query) }
    }
}

extension SQLiteRepository {
    /// ``SQLiteStore/fetchAll(joining:on:where:orderBy:limit:offset:)``, now and after every
    /// change to either table that affects it.
    public func observeAll<Partner: SQLiteRecord & Equatable>(
        joining partner: Partner.Type,
        on reference: KeyPath<Record, Partner.Key> & Sendable,
        where filter: StrataJoinFilter<Record, Partner>? = nil,
        orderBy order: StrataJoinOrder<Record, Partner>? = nil,
        limit: Int? = nil,
        offset: Int? = nil
    ) -> AsyncValueObservation<[StrataJoined<Record, Partner>]> where Record: Equatable {
        let query = StrataJoinQuery(
            Record.self, joining: partner, on: reference, optional: false, where: filter, orderBy: order, limit: limit,
            offset: offset)
        return StrataObservation.values(in: writer) { db in try StrataSQLiteJoin.rows(db, query) }
    }
}

extension SQLiteRepository {
    /// ``SQLiteStore/fetchAll(counting:via:where:filter:orderBy:)``, now and after every
    /// change to either table that affects it.
    public func observeAll<Other: StrataRecord, Reference: StrataReferenceValue>(
        counting other: Other.Type,
        via reference: KeyPath<Other, Reference> & Sendable,
        where counted: ((Other.Columns) -> StrataPredicate<Other>)? = nil,
        filter: ((Record.Columns) -> StrataPredicate<Record>)? = nil,
        orderBy order: ((Record.Columns) -> [StrataOrdering<Record>])? = nil
    ) -> AsyncValueObservation<[StrataCounted<Record>]> where Reference.ReferencedKey == Record.Key, Record: Equatable {
        let query = StrataSQL.select(
            Record.self, counting: other, via: reference, where: counted, filter: filter, orderBy: order)
        return StrataObservation.values(in: writer) { db in try StrataSQLiteJoin.counted(db, query) }
    }
}

/// Reads the rows of joins on SQLite.
public enum StrataSQLiteJoin {
    /// The records of a counting query, each with its count (the column after the record's).
    @inlinable
    public static func counted<Record: SQLiteRecord>(_ db: Database, _ query: StrataSQL) throws -> [StrataCounted<Record>] {
        let count = Int32(Record.strataTable.columns.count)
        return try StrataStatement(db, query).fetchAll { statement in
            StrataCounted(record: try Record(row: StrataSQLiteRow(statement)), count: try Int.read(statement, at: count))
        }
    }

    /// The pairs of an inner join.
    @inlinable
    public static func rows<Record: SQLiteRecord, Partner: SQLiteRecord>(
        _ db: Database, _ query: StrataJoinQuery
    ) throws -> [StrataJoined<Record, Partner>] {
        let offset = Int32(query.partnerOffset)
        return try StrataStatement(db, query.statement).fetchAll { statement in
            StrataJoined(
                record: try Record(row: StrataSQLiteRow(statement)),
                partner: try Partner(row: StrataSQLiteRow(statement, offset: offset)))
        }
    }

    /// The pairs of a left join: no partner when the column before its columns is false.
    @inlinable
    public static func optionalRows<Record: SQLiteRecord, Partner: SQLiteRecord>(
        _ db: Database, _ query: StrataJoinQuery
    ) throws -> [StrataJoined<Record, Partner?>] {
        let offset = Int32(query.partnerOffset)
        return try StrataStatement(db, query.statement).fetchAll { statement in
            let record = try Record(row: StrataSQLiteRow(statement))
            guard try Bool.read(statement, at: offset - 1) else { return StrataJoined(record: record, partner: nil) }
            return StrataJoined(record: record, partner: try Partner(row: StrataSQLiteRow(statement, offset: offset)))
        }
    }
}
