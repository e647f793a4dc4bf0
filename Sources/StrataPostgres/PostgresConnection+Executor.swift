import Logging
import PostgresNIO
import StrataRuntime

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
    /// The result of `plan`, run on the connection: the one place that prepares, binds and
    /// executes the runtime's plans (``StrataPlan``) on PostgreSQL.
    @inlinable
    public func strataRun<Record: StrataRecord, Output>(_ plan: StrataPlan<Record, Output>) async throws
        -> Output
    {
        switch plan {
        case .result(let output):
            return output
        case .records(let command, let output):
            switch command.statement {
            case .table(.find):
                return output(try await strataRows(StrataPostgresPrepared(command.binding, StrataPostgresFindKind.self)))
            case .table(let kind):
                throw StrataCommandError.noStatement(kind)
            case .query(let query):
                return output(try await strataRows(PostgresQuery(strata: query, binding: command.binding)))
            }
        case .changes(let command, let output):
            switch command.statement {
            case .table(.update):
                return output(try await strataRows(StrataPostgresPreparedChange(command.binding, StrataPostgresUpdateKind.self)).count)
            case .table(.delete):
                return output(try await strataRows(StrataPostgresPreparedChange(command.binding, StrataPostgresDeleteKind.self)).count)
            case .table(let kind):
                throw StrataCommandError.noStatement(kind)
            case .query(let query):
                // One row with the count, not a row per changed row.
                let counted: StrataSQL = "WITH changed AS (\(query) RETURNING 1) SELECT COUNT(*) FROM changed"
                return output(Int(try await strataInteger(PostgresQuery(strata: counted, binding: command.binding))))
            }
        case .integer(let command, let output):
            guard case .query(let query) = command.statement else { throw StrataCommandError.noStatement(.find) }
            return output(try await strataInteger(PostgresQuery(strata: query, binding: command.binding)))
        case .store(let command, let output):
            guard case .record(let record) = command.binding, case .table(let kind) = command.statement else {
                throw StrataCommandError.noRecord
            }
            return output(try await strataStore(record, upsert: kind == .upsert))
        }
    }

    /// The integer of a statement that returns one row of one column.
    @inlinable
    func strataInteger(_ query: PostgresQuery) async throws -> Int64 {
        for try await row in try await self.query(query, logger: StrataPostgresLog.logger) {
            var cells = StrataPostgresRow(row)
            return try cells.read(Int64.self)
        }
        throw StrataDecodingError.missingColumn(position: 0)
    }

    /// The rows of `query`, each read as its shape says (joins, counts, aggregates).
    @inlinable
    public func strataRows<Shape: StrataRowShape>(_ query: StrataRowQuery<Shape>) async throws -> [Shape.Row] {
        var rows: [Shape.Row] = []
        for try await row in try await self.query(try PostgresQuery(strata: query.sql), logger: StrataPostgresLog.logger) {
            var cells = StrataPostgresRow(row)
            rows.append(try query.shape.read(from: &cells))
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

    /// Runs an insert or upsert of `record` and returns the record as stored. A record whose key
    /// the database assigns runs unprepared (its key parameter is typed by the bound value: the
    /// key's integer type, or NULL for "assign one") and reads the stored row back; the others are
    /// stored as they are (``StrataRecord/strataStored``).
    @inlinable
    func strataStore<Record: StrataRecord>(_ record: Record, upsert: Bool) async throws -> Record {
        guard Record.strataTable.assignsKey else {
            if upsert {
                try await strataRun(StrataPostgresPreparedChange(.record(record), StrataPostgresUpsertKind.self))
            } else {
                try await strataRun(StrataPostgresPreparedChange(.record(record), StrataPostgresInsertKind.self))
            }
            return record.strataStored
        }
        var bindings = PostgresBindings(capacity: Record.strataTable.columns.count)
        try record.bind(to: &bindings)
        let sql = upsert ? Record.strataPostgres.upsert : Record.strataPostgres.insert
        let rows: [Record] = try await strataRows(PostgresQuery(unsafeSQL: sql, binds: bindings))
        guard let stored = rows.first else { throw StrataDecodingError.missingColumn(position: 0) }
        return stored
    }

    /// Inserts records in order, all or none, and returns them as stored: a batch statement per
    /// thousand records, or one statement per record when the database assigns their key (so
    /// that each gets its own back). Several statements run in a savepoint, or a transaction of
    /// their own on a connection outside one.
    @inlinable
    public func strataInsert<Record: StrataRecord>(_ records: [Record]) async throws -> [Record] {
        let batch = StrataPostgresInsertBatch<Record>.rows
        let statements = Record.strataTable.assignsKey ? records.count : (records.count + batch - 1) / batch
        guard statements <= 1 else {
            return try await PostgresTransaction.atomically(on: self) { connection in
                try await connection.strataInsertStatements(records)
            }
        }
        return try await strataInsertStatements(records)
    }

    /// The statements of ``strataInsert(_:)``.
    @inlinable
    func strataInsertStatements<Record: StrataRecord>(_ records: [Record]) async throws -> [Record] {
        guard !Record.strataTable.assignsKey else {
            var stored: [Record] = []
            stored.reserveCapacity(records.count)
            for record in records { stored.append(try await strataStore(record, upsert: false)) }
            return stored
        }
        let batch = StrataPostgresInsertBatch<Record>.rows
        var start = records.startIndex
        while records.endIndex - start >= batch {
            try await strataRun(try StrataPostgresInsertBatch(records[start..<start + batch]))
            start += batch
        }
        if start < records.endIndex {
            let rest = records[start...]
            let statement = try StrataPostgresInsertBatch(rest)
            let sql = Record.strataTable.insert(rows: rest.count).sql(PostgresDialect.self)
            for try await _ in try await query(PostgresQuery(unsafeSQL: sql, binds: statement.bindings), logger: StrataPostgresLog.logger) {}
        }
        return records.map(\.strataStored)
    }

    /// Runs a prepared statement that returns no rows.
    @inlinable
    func strataRun<Statement: PostgresPreparedStatement>(_ statement: Statement) async throws {
        for try await _ in try await execute(statement, logger: StrataPostgresLog.logger) {}
    }

    /// The records of an unprepared statement that selects a table's columns.
    @inlinable
    func strataRows<Record: StrataRecord>(_ query: PostgresQuery) async throws -> [Record] {
        var rows: [Record] = []
        for try await row in try await self.query(query, logger: StrataPostgresLog.logger) {
            rows.append(try Record.decoded(row))
        }
        return rows
    }
}
