import Foundation
import PostgresNIO
import StrataRuntime

// The table statements of a record type as prepared statements: each is prepared once per
// connection and then only bound and executed. PostgresNIO keeps them by name; the name is the
// kind and a hash of the table's SQL (PostgreSQL cuts names at 63 bytes, so a type's full name
// would not do). Every one returns the rows it read or changed, as records, but for the inserts
// and upserts of records whose key is not assigned by the database: they are stored as they are.

/// One of a table's statements on PostgreSQL.
@usableFromInline
protocol StrataPostgresStatementKind: Sendable {
    /// The kind, in the prepared statement's name.
    static var name: String { get }
    /// The statement, among the table's.
    static func sql(_ statements: StrataTableStatements, selection: String) -> String
}

/// `INSERT …` of one record whose key is not assigned by the database (nothing returned).
@usableFromInline
enum StrataPostgresInsertKind: StrataPostgresStatementKind {
    @usableFromInline static var name: String { "insert" }
    @usableFromInline static func sql(_ statements: StrataTableStatements, selection: String) -> String {
        statements.insert
    }
}

/// `INSERT … ON CONFLICT (key) DO UPDATE …` of one record whose key is not assigned by the
/// database (nothing returned).
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

/// `INSERT … VALUES (…), (…), …` of ``rows`` records whose key is not assigned by the database, in
/// one statement: how `insert(contentsOf:)` saves round trips. Its SQL is made once per record
/// type (``StrataPostgresBatchSQL``).
@usableFromInline
struct StrataPostgresInsertBatch<Record: StrataPostgresRecord>: PostgresPreparedStatement {
    @usableFromInline typealias Row = Void
    /// Records per statement: 1,000, or fewer when their parameters would pass PostgreSQL's 65,535.
    @inlinable static var rows: Int { StrataPostgresTableSQL.batchRows(columns: Record.strataTable.columns.count) }
    @usableFromInline static var name: String { "strata_insert\(rows)_" + Record.strataTable.postgres.id }
    @usableFromInline static var sql: String { StrataPostgresBatchSQL.shared.insert(Record.self, rows: rows) }
    /// The records' parameters, bound by the caller (specialised for the record type: PostgresNIO
    /// calls `makeBindings()` through the protocol, unspecialised).
    @usableFromInline let bindings: PostgresBindings

    @inlinable init(_ records: ArraySlice<Record>) throws {
        var bindings = PostgresBindings(capacity: records.count * Record.strataTable.columns.count)
        for record in records { try record.bind(to: &bindings) }
        self.bindings = bindings
    }

    @inlinable func makeBindings() throws -> PostgresBindings { bindings }

    @inlinable func decodeRow(_ row: PostgresRow) throws {}
}

/// The SQL of each record type's batch insert, made on first use and kept (it is long: a
/// parameter per column of every record).
@usableFromInline
final class StrataPostgresBatchSQL: @unchecked Sendable {
    @usableFromInline static let shared = StrataPostgresBatchSQL()
    private let lock = NSLock()
    private var inserts: [ObjectIdentifier: String] = [:]

    /// The insert of `rows` records of `type` (always the same `rows` for a type).
    @usableFromInline
    func insert<Record: StrataPostgresRecord>(_ type: Record.Type, rows: Int) -> String {
        lock.lock()
        defer { lock.unlock() }
        if let sql = inserts[ObjectIdentifier(type)] { return sql }
        let sql = Record.strataTable.postgresInsert(rows: rows)
        inserts[ObjectIdentifier(type)] = sql
        return sql
    }
}

/// The SQL the PostgreSQL runtime prepares for a table, statement by statement, from the same
/// functions its record stores use: what `strata verify --compat` prepares against a newer
/// database, for tables known only by their metadata (``StrataTable/init(name:columns:primaryKey:assignsKey:)``).
public enum StrataPostgresTableSQL {
    /// Records per batch insert: 1,000, or fewer when their parameters would pass PostgreSQL's 65,535.
    @inlinable
    public static func batchRows(columns: Int) -> Int { Swift.max(1, Swift.min(1000, 65535 / Swift.max(1, columns))) }

    /// Each prepared statement of `table` by kind (`insert`, `upsert`, `update`, `find`,
    /// `delete`, `insert<n>`), as the record stores prepare them.
    public static func statements<Record>(of table: StrataTable<Record>) -> [(kind: String, sql: String)] {
        func entry<Kind: StrataPostgresStatementKind>(_ kind: Kind.Type) -> (kind: String, sql: String) {
            (Kind.name, Kind.sql(table.postgres, selection: table.selection))
        }
        let rows = batchRows(columns: table.columns.count)
        // A table whose columns are all its key has no update: `update(_:)` only looks the record up.
        let update = table.postgres.update == nil ? [] : [entry(StrataPostgresUpdateKind.self)]
        return [entry(StrataPostgresInsertKind.self), entry(StrataPostgresUpsertKind.self)] + update + [
            entry(StrataPostgresFindKind.self), entry(StrataPostgresDeleteKind.self),
            ("insert\(rows)", table.postgresInsert(rows: rows)),
        ]
    }

    /// The update of some columns of the row with a key, as `update(id:set:)` runs it.
    public static func update<Record>(_ table: StrataTable<Record>, setting quotedColumns: [String]) -> String {
        StrataPostgresParameters.numbered(table.updateSQL(setting: quotedColumns) + " RETURNING \(table.selection)")
    }
}
