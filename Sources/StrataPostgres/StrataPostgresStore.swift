import Logging
import PostgresNIO
import StrataRuntime

/// Records of one type in a PostgreSQL database: the operations every entity has, written once,
/// for ``StrataPostgresAccess`` (on one connection, inside the caller's transaction) and
/// ``StrataPostgresRepository`` (on a `PostgresClient`, each call its own connection or transaction).
///
/// The same operations as SQLite's `StrataRecordStore`, async, with the same typed filters and
/// sorts. Table statements are prepared once per connection; inserts, upserts and updates return
/// the record as the database stored it (`RETURNING`), so what they return is what a fetch reads.
/// Generated code adds what differs per entity in an extension `where Record == Entity`.
public protocol StrataPostgresStore<Record>: Sendable {
    /// The record type.
    associatedtype Record: StrataPostgresRecord

    /// Runs `body` on a connection that can read.
    func read<T: Sendable>(_ body: @Sendable (PostgresConnection) async throws -> T) async throws -> T
    /// Runs `body` on a connection that can write: as a whole, or not at all.
    func write<T: Sendable>(_ body: @Sendable (PostgresConnection) async throws -> T) async throws -> T
}

/// The logger of Strata's statements: errors only (statements fail with thrown errors).
public enum StrataPostgresLog {
    /// The logger passed to PostgresNIO.
    public static let logger: Logger = {
        var logger = Logger(label: "strata.postgres")
        logger.logLevel = .error
        return logger
    }()
}

extension PostgresConnection {
    /// The rows of a runtime-built statement, each read as `Row`.
    @inlinable
    func strataRows<Row>(_ query: StrataSQL, _ read: (PostgresRow) throws -> Row) async throws -> [Row] {
        var rows: [Row] = []
        for try await row in try await self.query(try PostgresQuery(strata: query), logger: StrataPostgresLog.logger) {
            rows.append(try read(row))
        }
        return rows
    }

    /// The rows of a prepared statement.
    @inlinable
    func strataRows<Statement: PostgresPreparedStatement>(_ statement: Statement) async throws -> [Statement.Row] {
        var rows: [Statement.Row] = []
        for try await row in try await execute(statement, logger: StrataPostgresLog.logger) {
            rows.append(row)
        }
        return rows
    }

    /// The one value of a statement that returns one row of one column.
    @inlinable
    func strataValue<Value: StrataPostgresValue>(_ query: StrataSQL, as type: Value.Type) async throws -> Value {
        let rows = try await strataRows(query) { row in
            var cells = StrataPostgresRow(row)
            return try cells.next(as: Value.self)
        }
        guard let value = rows.first else { throw StrataDecodingError.missingColumn(position: 0) }
        return value
    }

    /// Runs an insert or upsert of `record` and returns the stored row. A record whose key the
    /// database assigns runs unprepared: its key parameter is typed by the bound value (the key's
    /// integer type, or NULL for "assign one").
    @inlinable
    func strataStore<Record: StrataPostgresRecord>(_ record: Record, upsert: Bool) async throws -> Record {
        let table = Record.strataTable
        let rows: [Record]
        if table.assignsKey {
            var bindings = PostgresBindings(capacity: table.columns.count)
            try record.bind(to: &bindings)
            let sql = upsert ? table.postgres.upsert : table.postgres.insert
            rows = try await strataRows(PostgresQuery(unsafeSQL: sql, binds: bindings))
        } else if upsert {
            rows = try await strataRows(StrataPostgresRecordStatement(record, StrataPostgresUpsertKind.self))
        } else {
            rows = try await strataRows(StrataPostgresRecordStatement(record, StrataPostgresInsertKind.self))
        }
        guard let stored = rows.first else { throw StrataDecodingError.missingColumn(position: 0) }
        return stored
    }

    /// The records of an unprepared statement that selects a table's columns.
    @inlinable
    func strataRows<Record: StrataPostgresRecord>(_ query: PostgresQuery) async throws -> [Record] {
        var rows: [Record] = []
        for try await row in try await self.query(query, logger: StrataPostgresLog.logger) {
            rows.append(try Record.decoded(row))
        }
        return rows
    }
}
