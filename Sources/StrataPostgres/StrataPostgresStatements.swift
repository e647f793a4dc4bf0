import PostgresNIO
import StrataRuntime

// The table statements of a record type as prepared statements: each is prepared once per
// connection and then only bound and executed. PostgresNIO keeps them by name; the name is the
// kind and a hash of the table's SQL (PostgreSQL cuts names at 63 bytes, so a type's full name
// would not do). Every one returns the rows it read or changed, as records.

/// One of a table's statements on PostgreSQL.
@usableFromInline
protocol StrataPostgresStatementKind: Sendable {
    /// The kind, in the prepared statement's name.
    static var name: String { get }
    /// The statement, among the table's.
    static func sql(_ statements: StrataTableStatements, selection: String) -> String
}

/// `INSERT … RETURNING …` of one record.
@usableFromInline
enum StrataPostgresInsertKind: StrataPostgresStatementKind {
    @usableFromInline static var name: String { "insert" }
    @usableFromInline static func sql(_ statements: StrataTableStatements, selection: String) -> String {
        statements.insert
    }
}

/// `INSERT … ON CONFLICT (key) DO UPDATE … RETURNING …` of one record.
@usableFromInline
enum StrataPostgresUpsertKind: StrataPostgresStatementKind {
    @usableFromInline static var name: String { "upsert" }
    @usableFromInline static func sql(_ statements: StrataTableStatements, selection: String) -> String {
        statements.upsert
    }
}

/// `UPDATE … SET every column WHERE key RETURNING …` (a statement that reads nothing when every
/// column is part of the key).
@usableFromInline
enum StrataPostgresUpdateKind: StrataPostgresStatementKind {
    @usableFromInline static var name: String { "update" }
    @usableFromInline static func sql(_ statements: StrataTableStatements, selection: String) -> String {
        statements.update.map { "\($0) RETURNING \(selection)" } ?? "SELECT \(selection) WHERE FALSE"
    }
}

/// `SELECT … WHERE key`.
@usableFromInline
enum StrataPostgresFindKind: StrataPostgresStatementKind {
    @usableFromInline static var name: String { "find" }
    @usableFromInline static func sql(_ statements: StrataTableStatements, selection: String) -> String {
        statements.find
    }
}

/// `DELETE … WHERE key RETURNING …`.
@usableFromInline
enum StrataPostgresDeleteKind: StrataPostgresStatementKind {
    @usableFromInline static var name: String { "delete" }
    @usableFromInline static func sql(_ statements: StrataTableStatements, selection: String) -> String {
        "\(statements.delete) RETURNING \(selection)"
    }
}

/// A table statement bound to a whole record, in field order (insert, upsert, update).
@usableFromInline
struct StrataPostgresRecordStatement<Record: StrataPostgresRecord, Kind: StrataPostgresStatementKind>:
    PostgresPreparedStatement
{
    @usableFromInline typealias Row = Record
    @usableFromInline static var name: String { "strata_\(Kind.name)_" + Record.strataTable.postgres.id }
    @usableFromInline static var sql: String {
        Kind.sql(Record.strataTable.postgres, selection: Record.strataTable.selection)
    }
    @usableFromInline let record: Record

    @inlinable init(_ record: Record, _ kind: Kind.Type) { self.record = record }

    @inlinable func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings(capacity: Record.strataTable.columns.count)
        try record.bind(to: &bindings)
        return bindings
    }

    @inlinable func decodeRow(_ row: PostgresRow) throws -> Record { try Record.decoded(row) }
}

/// A table statement bound to a primary key, in key order (find, delete).
@usableFromInline
struct StrataPostgresKeyStatement<Record: StrataPostgresRecord, Kind: StrataPostgresStatementKind>:
    PostgresPreparedStatement
{
    @usableFromInline typealias Row = Record
    @usableFromInline static var name: String { "strata_\(Kind.name)_" + Record.strataTable.postgres.id }
    @usableFromInline static var sql: String {
        Kind.sql(Record.strataTable.postgres, selection: Record.strataTable.selection)
    }
    @usableFromInline let key: Record.Key

    @inlinable init(_ key: Record.Key, _ kind: Kind.Type) { self.key = key }

    @inlinable func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings(capacity: Record.strataTable.primaryKey.count)
        try Record.bind(key: key, to: &bindings)
        return bindings
    }

    @inlinable func decodeRow(_ row: PostgresRow) throws -> Record { try Record.decoded(row) }
}

extension StrataPostgresRecord {
    /// The record of a row that selects the table's columns.
    @inlinable
    static func decoded(_ row: PostgresRow) throws -> Self {
        var cells = StrataPostgresRow(row)
        return try Self(row: &cells)
    }
}
