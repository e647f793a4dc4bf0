import Foundation
import GRDB
import StrataCore
import StrataPostgres
import StrataRuntime
import StrataSQLite

/// What `strata verify --compat` found for one model on one database: which statements of the
/// code of version N-1 (``CompatibilityStatements``) the database at version N refuses to prepare.
public struct CompatibilityReport: Sendable {
    /// A statement the database refused, with its message.
    public struct Failure: Sendable {
        public var statement: CompatibilityStatement
        public var message: String
    }

    public var model: String
    public var dialect: SQLDialect
    /// N-1: the version whose code was prepared.
    public var codeVersion: Int
    /// N: the version the database was migrated to.
    public var databaseVersion: Int
    /// What the generator decided of N (``MigrationCompatibility``).
    public var compatibility: MigrationCompatibility
    /// How many statements were prepared.
    public var prepared = 0
    public var failures: [Failure] = []

    /// True when every statement prepared.
    public var passed: Bool { failures.isEmpty }

    /// The report in words, a line per failing statement.
    public var lines: [String] {
        var lines = [
            "\(model) on \(dialect.displayName): code of v\(codeVersion) against a database at v\(databaseVersion): "
                + "\(prepared) statements prepared, "
                + (failures.isEmpty ? "all run" : "\(failures.count) fail")
        ]
        lines.append("  generator: " + compatibility.line)
        for failure in failures {
            let what = [failure.statement.entity, failure.statement.kind].compactMap { $0 }.joined(separator: " ")
            lines.append("  fails: \(what): \(failure.message)")
            let sql = failure.statement.sql.replacingOccurrences(of: "\n", with: " ")
            // A batch insert is a parameter per column of a thousand rows: its start says enough.
            lines.append("    " + (sql.count <= 300 ? sql : sql.prefix(300) + "… (\(sql.count) characters)"))
        }
        return lines
    }
}

/// `strata verify --compat`: migrates an empty database to a model's latest version N with the
/// migrators `strata migrate` uses, then prepares (never runs) every statement that the code
/// generated for N-1 issues, and lists those the database refuses. SQLite prepares in memory
/// (`sqlite3_prepare` through GRDB); PostgreSQL in a scratch database on the server (`PREPARE`).
///
/// Preparing proves that the tables, columns and parameters the statements name are there;
/// it does not prove what only rows show (a value N-1 cannot read, a constraint N-1's writes
/// break), which the generator's classification covers.
public enum CompatibilityCheck {
    /// The versions compared: the latest (N) and the one before, with their schemas; nil for a
    /// model with one version.
    static func versions(_ history: SchemaHistory) -> (code: Schema, database: Schema, plan: MigrationPlan)? {
        guard let latest = history.latest, latest.version >= 2, let previous = history.version(latest.version - 1),
            let plan = Generator.migrationPlans(for: history).first(where: { $0.to.version == latest.version })
        else { return nil }
        return (previous, latest, plan)
    }

    /// The check on an in-memory SQLite database; nil for a model with one version.
    public static func sqlite(_ history: SchemaHistory) throws -> CompatibilityReport? {
        guard let (code, database, plan) = versions(history) else { return nil }
        var report = CompatibilityReport(
            model: history.model, dialect: .sqlite, codeVersion: code.version, databaseVersion: database.version,
            compatibility: MigrationCompatibility(plan))
        let queue = try DatabaseQueue()
        try SQLiteMigrator(
            model: history.model, migrations: MigrationSources.sqlite(for: history).map(StrataMigration.init)
        ).migrate(queue)
        let statements = CompatibilityStatements.of(code, queries: history.queries, dialect: .sqlite)
        try queue.read { db in
            for statement in statements {
                report.prepared += 1
                do {
                    _ = try db.makeStatement(sql: statement.sql)
                } catch let error as DatabaseError {
                    report.failures.append(.init(statement: statement, message: error.message ?? "\(error)"))
                }
            }
        }
        return report
    }

    /// The check in a scratch database on the PostgreSQL server of `url` (created and dropped);
    /// nil for a model with one version.
    public static func postgres(_ history: SchemaHistory, url: String) async throws -> CompatibilityReport? {
        guard let (code, database, plan) = versions(history) else { return nil }
        var report = CompatibilityReport(
            model: history.model, dialect: .postgres, codeVersion: code.version, databaseVersion: database.version,
            compatibility: MigrationCompatibility(plan, expanded: true))
        let statements = CompatibilityStatements.of(code, queries: history.queries, dialect: .postgres)
        return try await PostgresScratch.withDatabases(["compat"], url: url) { sessions in
            let session = sessions[0]
            try await PostgresMigrator(
                model: history.model, migrations: MigrationSources.postgres(for: history).map(StrataMigration.init)
            ).migrate(session.connection)
            let target = PostgresVerificationDatabase(session: session)
            for (index, statement) in statements.enumerated() {
                report.prepared += 1
                if let message = await MigrationVerifier.preparingFails(
                    statement.sql, as: "strata_compat_\(index + 1)", on: target)
                {
                    report.failures.append(.init(statement: statement, message: message))
                }
            }
            return report
        }
    }
}
