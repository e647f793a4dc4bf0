import Foundation
import GRDB
import StrataCLI
import StrataCore
import StrataIntrospection
import StrataPostgres
import StrataRuntime
import StrataSQLite

/// `strata migrate --baseline N`: adopting a database made without Strata.
extension Migrate {
    /// A SQLite file that does not exist: a baseline adopts an existing database, it creates none.
    struct NoDatabaseToBaseline: Error, CustomStringConvertible {
        var description: String { "no such database file; --baseline adopts an existing database" }
    }

    /// Records versions 1...`version` of the SQLite file `database` (checked against version
    /// `version`'s schema), then migrates it to `--to`; a dry run checks and reports only.
    func baselineSQLite(
        _ migrator: SQLiteMigrator, history: SchemaHistory, at version: Int, database: String,
        into outcome: inout Outcome
    ) throws {
        guard FileManager.default.fileExists(atPath: database) else { throw NoDatabaseToBaseline() }
        let check = { (db: Database) throws in
            // A version outside the model was refused before the check runs.
            guard let schema = history.version(version) else { return }
            try BaselineSchemaCheck(schema: schema, dialect: .sqlite).require(db)
        }
        if dryRun {
            var configuration = Configuration()
            configuration.readonly = true
            let queue = try DatabaseQueue(path: database, configuration: configuration)
            outcome.recorded = try queue.read { db in
                let recorded = try migrator.baselineMigrations(db, at: version)
                try check(db)
                return recorded
            }
            outcome.from = version
            outcome.pending = try Self.pending(after: version, to: to, migrator.plan)
            outcome.to = outcome.pending.last?.version ?? version
        } else {
            let queue = try Self.openForMigration(database)
            outcome.recorded = try migrator.baseline(queue, at: version, checkSchema: check)
            outcome.from = version
            outcome.applied = try migrator.migrate(queue, to: to, progress: Self.reportProgress(model: history.model))
            outcome.to = outcome.applied.last?.version ?? version
        }
    }

    /// Records versions 1...`version` of the PostgreSQL database of `session` (checked against
    /// version `version`'s schema), then migrates it to `--to`, holding the model's migration lock
    /// across both; a dry run checks and reports only.
    func baselinePostgres(
        _ migrator: PostgresMigrator, history: SchemaHistory, at version: Int, session: PostgresSession,
        name: String, into outcome: inout Outcome
    ) async throws {
        let check = { () async throws in
            // A version outside the model was refused before the check runs.
            guard let schema = history.version(version) else { return }
            try await BaselineSchemaCheck(schema: schema, dialect: .postgres).require(session)
        }
        if dryRun {
            outcome.recorded = try await migrator.baselineMigrations(session.connection, at: version)
            try await check()
            outcome.from = version
            outcome.pending = try Self.pending(after: version, to: to, migrator.plan)
            outcome.to = outcome.pending.last?.version ?? version
        } else {
            (outcome.recorded, outcome.applied) = try await migrator.baseline(
                session.connection, at: version, to: to, checkSchema: check,
                waiting: Self.waitingNotice(name: name, model: history.model),
                progress: Self.reportProgress(model: history.model))
            outcome.from = version
            outcome.to = outcome.applied.last?.version ?? version
        }
    }

    /// The migrations after a baseline at `version`, up to `target` (default: the latest).
    static func pending(after version: Int, to target: Int?, _ plan: StrataMigrationPlan) throws -> [StrataMigration] {
        let goal = try plan.resolvedTarget(target)
        return plan.migrations.filter { $0.version > version && $0.version <= goal }
    }

    /// The line telling what a baseline recorded (or would record); nil without one.
    func baselineLine(_ outcome: Outcome, model: String, database: String) -> String? {
        guard let first = outcome.recorded.first, let last = outcome.recorded.last else { return nil }
        let one = first.version == last.version
        let versions =
            (one ? "v\(last.version)" : "v\(first.version)…v\(last.version)") + " as applied without running "
            + (one ? "its SQL" : "their SQL")
        return dryRun
            ? "\(database): the schema is \(model) v\(last.version)'s; --baseline would record \(versions)."
            : "\(database): recorded \(model) \(versions) (baseline)."
    }
}

extension Migrate.Outcome {
    /// Records a refusal: its message, and the schema differences when that is the reason.
    mutating func refuse(_ error: StrataMigrationError, database: String) {
        self.error = "\(database): \(error.description)"
        if case .schemaDiffers(_, _, let differences) = error { schemaDifferences = differences }
    }
}
