import GRDB
import StrataRuntime

/// Runs the runtime's plans (``StrataPlan``) on a SQLite connection: the one place that
/// prepares, binds and steps their statements.
public enum SQLiteExecutor {
    /// The result of `plan`, run on `db`.
    @inlinable
    public static func run<Record: SQLiteRecord, Output>(
        _ plan: StrataPlan<Record, Output>, in db: Database
    ) throws -> Output {
        switch plan {
        case .result(let output):
            return output
        case .records(let command, let output):
            return output(try prepare(command, in: db).fetchAll { try StrataSQLiteRow.decode(Record.self, $0) })
        case .changes(let command, let output):
            try prepare(command, in: db).execute()
            return output(db.changesCount)
        case .integer(let command, let output):
            return output(try prepare(command, in: db).fetchInteger())
        case .store(let command, let output):
            guard case .record(let record) = command.binding else { throw StrataCommandError.noRecord }
            let statement = try prepare(command, in: db)
            // A key the database assigns comes back in the returned row.
            guard Record.strataTable.assignsKey else {
                try statement.execute()
                return output(record)
            }
            return output(try statement.fetchOne { try StrataSQLiteRow.decode(Record.self, $0) } ?? record)
        }
    }

    /// The rows of `query`, each read as its shape says (joins, counts, aggregates).
    @inlinable
    public static func rows<Shape: StrataRowShape>(_ query: StrataRowQuery<Shape>, in db: Database) throws -> [Shape.Row] {
        try StrataStatement(db, query.sql).fetchAll { statement in
            var row = StrataSQLiteRow(statement)
            return try query.shape.read(from: &row)
        }
    }

    /// Reads the children of records (``StrataIncludedChildren/queries(for:)``) into `children`,
    /// each grouped with its parent as its row is read: no array of the rows.
    @inlinable
    public static func group<Key, Child>(
        _ query: StrataRowQuery<StrataLinkedRow<Key, Child>>, into children: inout StrataChildrenByParent<Key, Child>,
        in db: Database
    ) throws {
        try StrataStatement(db, query.sql).forEach { statement in
            var row = StrataSQLiteRow(statement)
            let parent = try Key.read(from: &row)
            children.add(try Child(row: &row), to: parent)
        }
    }

    /// The connection's cached statement for `command`, bound.
    @inlinable
    public static func prepare<Record: SQLiteRecord>(
        _ command: StrataCommand<Record>, in db: Database
    ) throws -> StrataStatement {
        let statement: StrataStatement
        var arguments: StrataSQLiteArguments
        switch command.statement {
        case .table(let kind):
            guard let sql = kind.sql(in: Record.strataTable.statements(SQLiteDialect.self)) else {
                throw StrataCommandError.noStatement(kind)
            }
            statement = try StrataStatement(db, sql: sql)
            arguments = StrataSQLiteArguments(statement.handle)
        case .query(let query):
            statement = try StrataStatement(db, sql: query.sql(SQLiteDialect.self))
            arguments = StrataSQLiteArguments(statement.handle)
            try arguments.bind(query.arguments)
        }
        switch command.binding {
        case .none: break
        case .record(let record): try record.bind(to: &arguments)
        case .key(let key): try Record.bind(key: key, to: &arguments)
        }
        return statement
    }

    /// Inserts records in order, all or none, and returns them as stored: one statement bound
    /// again for each.
    @inlinable
    public static func insert<Record: SQLiteRecord>(_ records: some Sequence<Record>, in db: Database) throws
        -> [Record]
    {
        let table = Record.strataTable
        let statement = try StrataStatement(db, sql: table.statements(SQLiteDialect.self).insert)
        var stored = Array(records)
        guard !table.assignsKey else {
            // Each insert returns its row, with the key the database assigned.
            try db.inSavepoint {
                for index in stored.indices {
                    statement.reset()
                    var arguments = StrataSQLiteArguments(statement.handle)
                    try stored[index].bind(to: &arguments)
                    stored[index] = try statement.fetchOne { try StrataSQLiteRow.decode(Record.self, $0) } ?? stored[index]
                }
                return .commit
            }
            return stored
        }
        try stored.withUnsafeBufferPointer { buffer in
            try statement.executeEach(buffer.indices) { index, handle in
                var arguments = StrataSQLiteArguments(handle)
                try buffer[index].bind(to: &arguments)
            }
        }
        return stored
    }
}
