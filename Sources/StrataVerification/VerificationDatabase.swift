import Foundation
import GRDB
import StrataCore
import StrataIntrospection
import StrataSQLText
import StrataSQLite
import StrataStorage

/// What verification needs of a database: run scripts, apply a version's migration the way its
/// runner does, and read query results as text (so that values of both dialects compare exactly).
public protocol VerificationDatabase: Sendable {
    /// The dialect of the database.
    var dialect: SQLDialect { get }
    /// Runs a script of one or more statements.
    func execute(_ script: String) async throws
    /// Applies one version's migration SQL, as the migration runner does.
    func applyMigration(version: Int, sql: String) async throws
    /// The rows of a query, every value as text (nil for NULL).
    func textRows(_ sql: String) async throws -> [[String?]]
    /// Runs `script`, then `query`, and rolls both back: the rows the query sees after the script.
    func rowsAfter(_ script: String?, _ query: String) async throws -> [[String?]]
    /// The schema as the database reports it.
    func schema() async throws -> DatabaseSchema
}

extension SQLDialect {
    /// An expression as comparable text: SQLite `quote(…)` (type-exact: `10`, `'10'`, `X'0A'`),
    /// PostgreSQL `CAST(… AS TEXT)`, after converting to the column type the value is stored in.
    func comparableText(_ expression: String, storedAs encoding: ColumnEncoding) -> String {
        switch self {
        case .sqlite:
            // Storing applies the column's affinity; CAST applies the same conversion (not for BLOB, which has none).
            let type = columnType(encoding)
            return type == "BLOB" ? "quote(\(expression))" : "quote(CAST(\(expression) AS \(type)))"
        case .postgres:
            return "CAST(CAST(\(expression) AS \(columnType(encoding))) AS TEXT)"
        }
    }
}

/// A SQLite database through GRDB; migrations go through ``SQLiteMigrator``'s ledger.
/// (`@unchecked`: its one mutable property is guarded by `lock`.)
public final class SQLiteVerificationDatabase: VerificationDatabase, @unchecked Sendable {
    public let dialect = SQLDialect.sqlite
    private let queue: DatabaseQueue
    private let model: String
    private var applied: [StrataMigration] = []
    private let lock = NSLock()

    /// An in-memory database for `model`.
    public init(model: String) throws {
        var configuration = Configuration()
        configuration.foreignKeysEnabled = true
        queue = try DatabaseQueue(configuration: configuration)
        self.model = model
    }

    public func execute(_ script: String) async throws {
        try await queue.write { db in try db.execute(sql: script) }
    }

    public func applyMigration(version: Int, sql: String) async throws {
        let migration = StrataMigration(version: version, sql: sql, checksum: MigrationSources.checksum(sql))
        let all = lock.withLock {
            applied.append(migration)
            return applied
        }
        try SQLiteMigrator(model: model, migrations: all).migrate(queue, to: version)
    }

    public func textRows(_ sql: String) async throws -> [[String?]] {
        try await queue.read { db in try Self.rows(db, sql) }
    }

    public func rowsAfter(_ script: String?, _ query: String) async throws -> [[String?]] {
        try await queue.writeWithoutTransaction { db in
            var result: [[String?]] = []
            try db.inTransaction {
                if let script { try db.execute(sql: script) }
                result = try Self.rows(db, query)
                return .rollback
            }
            return result
        }
    }

    public func schema() async throws -> DatabaseSchema {
        try await queue.read { db in try SQLiteIntrospector.schema(of: db) }
            .removingTables([MigrationLedger.tableName, StrataStorageFormat.tableName, "sqlite_sequence"])
    }

    private static func rows(_ db: Database, _ sql: String) throws -> [[String?]] {
        try Row.fetchAll(db, sql: sql).map { row in
            (0..<row.count).map { index in
                let value: DatabaseValue = row[index]
                switch value.storage {
                case .null: return nil
                case .int64(let number): return String(number)
                case .double(let number): return String(number)
                case .string(let text): return text
                case .blob(let data): return "X'" + data.map { String(format: "%02X", $0) }.joined() + "'"
                }
            }
        }
    }
}

/// A PostgreSQL database; each migration runs in one transaction.
public final class PostgresVerificationDatabase: VerificationDatabase {
    public let dialect = SQLDialect.postgres
    /// The session, owned by the caller.
    public let session: PostgresSession

    /// A database behind an open session.
    public init(session: PostgresSession) { self.session = session }

    public func execute(_ script: String) async throws { try await session.executeScript(script) }

    /// Runs the migration's leading steps (``PostgresLeadingStep``) first, each on its own, then
    /// the rest in one transaction, as `strata migrate` does.
    public func applyMigration(version: Int, sql: String) async throws {
        let (leading, rest) = PostgresLeadingStep.split(try SQLScriptSplitter.statements(sql, dialect: .postgres))
        for step in leading { try await session.execute(step.statement) }
        try await session.executeStatements(rest, inTransaction: true)
    }

    public func textRows(_ sql: String) async throws -> [[String?]] { try await session.textRows(sql: sql) }

    public func rowsAfter(_ script: String?, _ query: String) async throws -> [[String?]] {
        try await session.execute("BEGIN")
        do {
            if let script { try await session.executeScript(script) }
            let rows = try await session.textRows(sql: query)
            try await session.execute("ROLLBACK")
            return rows
        } catch {
            try? await session.execute("ROLLBACK")
            throw error
        }
    }

    public func schema() async throws -> DatabaseSchema { try await PostgresIntrospector.schema(of: session) }
}
