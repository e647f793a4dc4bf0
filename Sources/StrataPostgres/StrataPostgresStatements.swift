import Foundation
import PostgresNIO
import StrataRuntime

// The table statements of a record type as prepared statements: each is prepared once per
// connection and then only bound and executed. PostgresNIO keeps them by name; the name is the
// kind and a hash of the table's SQL (PostgreSQL cuts names at 63 bytes, so a type's full name
// would not do).

/// One of a table's statements on PostgreSQL, as a type (a prepared statement's SQL is static).
@usableFromInline
protocol StrataPostgresStatementKind: Sendable {
    /// The statement among the table's.
    static var kind: StrataTableStatementKind { get }
}

@usableFromInline enum StrataPostgresInsertKind: StrataPostgresStatementKind {
    @usableFromInline static var kind: StrataTableStatementKind { .insert }
}
@usableFromInline enum StrataPostgresUpsertKind: StrataPostgresStatementKind {
    @usableFromInline static var kind: StrataTableStatementKind { .upsert }
}
@usableFromInline enum StrataPostgresUpdateKind: StrataPostgresStatementKind {
    @usableFromInline static var kind: StrataTableStatementKind { .update }
}
@usableFromInline enum StrataPostgresFindKind: StrataPostgresStatementKind {
    @usableFromInline static var kind: StrataTableStatementKind { .find }
}
@usableFromInline enum StrataPostgresDeleteKind: StrataPostgresStatementKind {
    @usableFromInline static var kind: StrataTableStatementKind { .delete }
}

extension StrataRecord {
    /// The table's statements on PostgreSQL.
    @inlinable
    static var strataPostgres: StrataTableStatements { strataTable.statements(PostgresDialect.self) }
}

/// A table statement with what its command binds, returning the records it reads.
@usableFromInline
struct StrataPostgresPrepared<Record: StrataRecord, Kind: StrataPostgresStatementKind>: PostgresPreparedStatement {
    @usableFromInline typealias Row = Record
    @usableFromInline static var name: String { "strata_\(Kind.kind.rawValue)_" + Record.strataPostgres.id }
    @usableFromInline static var sql: String { Kind.kind.sql(in: Record.strataPostgres) ?? "" }
    @usableFromInline let binding: StrataCommand<Record>.Binding

    @inlinable init(_ binding: StrataCommand<Record>.Binding, _ kind: Kind.Type) { self.binding = binding }

    @inlinable func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings(capacity: Record.strataTable.columns.count)
        try bindings.bind(binding)
        return bindings
    }

    @inlinable func decodeRow(_ row: PostgresRow) throws -> Record { try Record.decoded(row) }
}

/// A table statement with what its command binds, returning a row per row it changed
/// (`RETURNING 1`), or none (an insert).
@usableFromInline
struct StrataPostgresPreparedChange<Record: StrataRecord, Kind: StrataPostgresStatementKind>:
    PostgresPreparedStatement
{
    @usableFromInline typealias Row = Void
    @usableFromInline static var name: String { "strata_\(Kind.kind.rawValue)_changes_" + Record.strataPostgres.id }
    @usableFromInline static var sql: String {
        let sql = Kind.kind.sql(in: Record.strataPostgres) ?? ""
        return Kind.kind == .insert || Kind.kind == .upsert ? sql : sql + " RETURNING 1"
    }
    @usableFromInline let binding: StrataCommand<Record>.Binding

    @inlinable init(_ binding: StrataCommand<Record>.Binding, _ kind: Kind.Type) { self.binding = binding }

    @inlinable func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings(capacity: Record.strataTable.columns.count)
        try bindings.bind(binding)
        return bindings
    }

    @inlinable func decodeRow(_ row: PostgresRow) throws {}
}

extension StrataRecord {
    /// The record of a row that selects the table's columns.
    @inlinable
    static func decoded(_ row: PostgresRow) throws -> Self { try StrataPostgresRow.decode(Self.self, row) }
}

/// `INSERT … VALUES (…), (…), …` of ``rows`` records whose key is not assigned by the database, in
/// one statement: how `insert(contentsOf:)` saves round trips. Its SQL is made once per record
/// type (``StrataPostgresBatchSQL``).
@usableFromInline
struct StrataPostgresInsertBatch<Record: StrataRecord>: PostgresPreparedStatement {
    @usableFromInline typealias Row = Void
    /// Records per statement: 1,000, or fewer when their parameters would pass PostgreSQL's 65,535.
    @inlinable static var rows: Int { StrataPostgresTableSQL.batchRows(columns: Record.strataTable.columns.count) }
    @usableFromInline static var name: String { "strata_insert\(rows)_" + Record.strataPostgres.id }
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
    func insert<Record: StrataRecord>(_ type: Record.Type, rows: Int) -> String {
        lock.lock()
        defer { lock.unlock() }
        if let sql = inserts[ObjectIdentifier(type)] { return sql }
        let sql = Record.strataTable.insert(rows: rows).sql(PostgresDialect.self)
        inserts[ObjectIdentifier(type)] = sql
        return sql
    }
}

/// The SQL the PostgreSQL runtime prepares for a table, statement by statement: what `strata
/// verify --compat` prepares against a newer database, for tables known only by their metadata
/// (``StrataTable/init(name:columns:primaryKey:assignsKey:)``).
@usableFromInline package enum StrataPostgresTableSQL {
    /// Records per batch insert: 1,000, or fewer when their parameters would pass PostgreSQL's 65,535.
    @inlinable
    package static func batchRows(columns: Int) -> Int { Swift.max(1, Swift.min(1000, 65535 / Swift.max(1, columns))) }

    /// Each prepared statement of `table` by kind (`insert`, `upsert`, `update`, `find`,
    /// `delete`, `insert<n>`), as the record stores prepare them.
    package static func statements<Record>(of table: StrataTable<Record>) -> [(kind: String, sql: String)] {
        let statements = table.statements(PostgresDialect.self)
        let rows = batchRows(columns: table.columns.count)
        return StrataTableStatementKind.allCases.compactMap { kind in kind.sql(in: statements).map { (kind.rawValue, $0) } }
            + [("insert\(rows)", table.insert(rows: rows).sql(PostgresDialect.self))]
    }
}
