import PostgresNIO
import StrataRuntime

// The table statements of a record type as prepared statements: each is prepared once per
// connection and then only bound and executed. PostgresNIO keeps them by name; the name is the
// kind and a hash of the table's SQL (PostgreSQL cuts names at 63 bytes, so a type's full name
// would not do).

/// `INSERT … RETURNING …` of one record.
@usableFromInline
struct StrataPostgresInsert<Record: StrataPostgresRecord>: PostgresPreparedStatement {
    @usableFromInline static var name: String { "strata_insert_" + Record.strataTable.postgres.id }
    @usableFromInline typealias Row = Record
    @usableFromInline static var sql: String { Record.strataTable.postgres.insert }
    @usableFromInline let record: Record

    @inlinable init(_ record: Record) { self.record = record }

    @inlinable func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings(capacity: Record.strataTable.columns.count)
        try record.bind(to: &bindings)
        return bindings
    }

    @inlinable func decodeRow(_ row: PostgresRow) throws -> Record { try Record.decoded(row) }
}

/// `INSERT … ON CONFLICT (key) DO UPDATE … RETURNING …` of one record.
@usableFromInline
struct StrataPostgresUpsert<Record: StrataPostgresRecord>: PostgresPreparedStatement {
    @usableFromInline static var name: String { "strata_upsert_" + Record.strataTable.postgres.id }
    @usableFromInline typealias Row = Record
    @usableFromInline static var sql: String { Record.strataTable.postgres.upsert }
    @usableFromInline let record: Record

    @inlinable init(_ record: Record) { self.record = record }

    @inlinable func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings(capacity: Record.strataTable.columns.count)
        try record.bind(to: &bindings)
        return bindings
    }

    @inlinable func decodeRow(_ row: PostgresRow) throws -> Record { try Record.decoded(row) }
}

/// `UPDATE … SET every column WHERE key RETURNING 1`.
@usableFromInline
struct StrataPostgresUpdate<Record: StrataPostgresRecord>: PostgresPreparedStatement {
    @usableFromInline static var name: String { "strata_update_" + Record.strataTable.postgres.id }
    @usableFromInline typealias Row = Void
    @usableFromInline static var sql: String { (Record.strataTable.postgres.update ?? "SELECT 1 WHERE FALSE") + " RETURNING 1" }
    @usableFromInline let record: Record

    @inlinable init(_ record: Record) { self.record = record }

    @inlinable func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings(capacity: Record.strataTable.columns.count)
        try record.bind(to: &bindings)
        return bindings
    }

    @inlinable func decodeRow(_ row: PostgresRow) throws {}
}

/// `SELECT … WHERE key`.
@usableFromInline
struct StrataPostgresFind<Record: StrataPostgresRecord>: PostgresPreparedStatement {
    @usableFromInline static var name: String { "strata_find_" + Record.strataTable.postgres.id }
    @usableFromInline typealias Row = Record
    @usableFromInline static var sql: String { Record.strataTable.postgres.find }
    @usableFromInline let key: Record.Key

    @inlinable init(_ key: Record.Key) { self.key = key }

    @inlinable func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings(capacity: Record.strataTable.primaryKey.count)
        try Record.bind(key: key, to: &bindings)
        return bindings
    }

    @inlinable func decodeRow(_ row: PostgresRow) throws -> Record { try Record.decoded(row) }
}

/// `DELETE … WHERE key RETURNING 1`.
@usableFromInline
struct StrataPostgresDelete<Record: StrataPostgresRecord>: PostgresPreparedStatement {
    @usableFromInline static var name: String { "strata_delete_" + Record.strataTable.postgres.id }
    @usableFromInline typealias Row = Void
    @usableFromInline static var sql: String { Record.strataTable.postgres.delete + " RETURNING 1" }
    @usableFromInline let key: Record.Key

    @inlinable init(_ key: Record.Key) { self.key = key }

    @inlinable func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings(capacity: Record.strataTable.primaryKey.count)
        try Record.bind(key: key, to: &bindings)
        return bindings
    }

    @inlinable func decodeRow(_ row: PostgresRow) throws {}
}

extension StrataPostgresRecord {
    /// The record of a row that selects the table's columns.
    @inlinable
    static func decoded(_ row: PostgresRow) throws -> Self {
        var cells = StrataPostgresRow(row)
        return try Self(row: &cells)
    }
}
