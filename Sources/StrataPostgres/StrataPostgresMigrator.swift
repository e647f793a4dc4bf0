import Logging
import PostgresNIO
import StrataRuntime
import StrataStorage

/// Applies a model's PostgreSQL migrations to a database through the ledger
/// (``PostgresMigrationLedger``, the table `strata_migrations`), as ``StrataMigrator`` does on
/// SQLite and with the same checks (``StrataMigrationPlan``):
///
/// - A database that is newer than the model, belongs to another model, recorded a version with
///   a different checksum or has a gap in its ledger is refused with a ``StrataMigrationError``
///   before anything is written.
/// - Each pending version runs in its own transaction (`BEGIN` … `COMMIT`) together with its
///   ledger row; a failing statement rolls the version back (``StrataPostgresMigrationFailure``).
///   Re-running applies nothing.
/// - A session-level advisory lock on the model (``PostgresMigrationLock``) is held across the
///   whole run: two migrators started together apply each version once, the second one waiting.
///
/// The migrations' SQL is PostgreSQL's (`Generated/<Model>/postgres/migrations/vN.sql`); it must
/// not control transactions itself. Its leading `CREATE INDEX CONCURRENTLY` statements (indexes
/// marked `concurrently: true`) run before the version's transaction, outside it, and are dropped
/// again when the version fails; no other statement PostgreSQL refuses in a transaction may appear. Generated `<Model>PostgresDatabase` types (which migrate on
/// open) and the `strata migrate --postgres` command use this type.
public struct StrataPostgresMigrator: Sendable {
    /// The ledger checks and pending selection, shared with the SQLite migrator.
    public let plan: StrataMigrationPlan
    let logger: Logger

    /// The model the migrations belong to (recorded in the ledger).
    public var model: String { plan.model }
    /// The migrations, ordered by version.
    public var migrations: [StrataMigration] { plan.migrations }
    /// The latest version of the model.
    public var latestVersion: Int { plan.latestVersion }

    /// Creates a migrator for `model`; `migrations` (PostgreSQL SQL) may be given in any order.
    /// `logger` receives PostgresNIO's logging of the migrator's queries (none by default).
    public init(model: String, migrations: [StrataMigration], logger: Logger? = nil) {
        plan = StrataMigrationPlan(model: model, migrations: migrations)
        self.logger =
            logger
            ?? {
                var quiet = Logger(label: "strata.postgres.migrator")
                quiet.logLevel = .critical
                return quiet
            }()
    }

    /// The version the database is at (0 for a database the model was never applied to), after
    /// checking its ledger against the migrations. Reads only.
    public func currentVersion(_ connection: PostgresConnection) async throws -> Int {
        try plan.currentVersion(await PostgresMigrationLedger.entries(connection, logger: logger))
    }

    /// The migrations that ``migrate(_:to:waiting:progress:)`` would apply, in order (empty when up
    /// to date). Throws a ``StrataMigrationError`` for a database that would be refused. Reads only.
    public func pending(_ connection: PostgresConnection, to target: Int? = nil) async throws -> [StrataMigration] {
        try plan.pending(await PostgresMigrationLedger.entries(connection, logger: logger), to: target)
    }

    /// Applies every pending migration up to `target` (default: the latest version), each in its
    /// own transaction, and returns the ones applied. The connection must not be inside a
    /// transaction.
    ///
    /// - Parameters:
    ///   - waiting: called once when another session holds the model's migration lock, before
    ///     this one waits for it.
    ///   - progress: told before and after each version, and before each of its statements. An
    ///     error it throws stops the migration: the version being applied is rolled back (its
    ///     concurrent index builds dropped), the versions before it stay applied, and the error is
    ///     rethrown as it is (how `strata migrate` stops on Ctrl-C, after the running statement).
    /// - Throws: ``StrataMigrationError`` for a refused database (nothing written),
    ///   ``StrataPostgresMigrationFailure`` for a version that failed (earlier versions of the run
    ///   stay applied), or PostgresNIO's error when the connection fails outside a version.
    @discardableResult
    public func migrate(
        _ connection: PostgresConnection, to target: Int? = nil, waiting: @Sendable () -> Void = {},
        progress: (StrataMigrationProgress) throws -> Void = { _ in }
    ) async throws -> [StrataMigration] {
        try await locked(connection, waiting: waiting) {
            try await migrateLocked(connection, to: target, progress: progress)
        }
    }

    /// Runs `body` holding the model's migration lock (``PostgresMigrationLock``), released after
    /// it whatever happens.
    func locked<Value>(
        _ connection: PostgresConnection, waiting: @Sendable () -> Void, _ body: () async throws -> Value
    ) async throws -> Value {
        try await PostgresMigrationLock.acquire(model: model, connection, logger: logger, waiting: waiting)
        let result: Result<Value, any Error>
        do {
            result = .success(try await body())
        } catch {
            result = .failure(error)
        }
        // Ending the session releases the lock too; a failed unlock on a lost connection changes nothing.
        try? await PostgresMigrationLock.release(model: model, connection, logger: logger)
        return try result.get()
    }

    /// Applies the pending migrations up to `target`; the caller holds the lock.
    func migrateLocked(
        _ connection: PostgresConnection, to target: Int?, progress: (StrataMigrationProgress) throws -> Void
    ) async throws -> [StrataMigration] {
        let pending = try await pending(connection, to: target)
        var applied: [StrataMigration] = []
        for (offset, migration) in pending.enumerated() {
            try progress(.willApply(migration, position: offset + 1, count: pending.count))
            let start = ContinuousClock.now
            if try await apply(migration, connection, progress: progress) {
                applied.append(migration)
                try progress(.didApply(migration, duration: ContinuousClock.now - start))
            }
        }
        return applied
    }

    /// Runs one migration: its leading concurrent index builds (``ConcurrentIndexBuild``) outside
    /// a transaction, then the rest in a transaction with its ledger row. Returns false when the
    /// ledger already records it. A failure drops the indexes this run built, so that the
    /// database is left at the previous version.
    private func apply(
        _ migration: StrataMigration, _ connection: PostgresConnection, progress: (StrataMigrationProgress) throws -> Void
    ) async throws -> Bool {
        /// An error `progress` threw, rethrown as it is once the version is rolled back.
        struct Stopped: Error {
            var error: any Error
        }
        func tell(_ statement: String) throws {
            do { try progress(.willRun(migration, statement: statement)) } catch { throw Stopped(error: error) }
        }
        let statements: [String]
        do {
            statements = try SQLScriptSplitter.statements(migration.sql, dialect: .postgres)
        } catch {
            throw StrataPostgresMigrationFailure(
                model: model, version: migration.version, statement: nil, message: PostgresServerMessage(error),
                rolledBack: true)
        }
        let (builds, rest) = ConcurrentIndexBuild.split(statements)
        var built: [ConcurrentIndexBuild] = []
        for build in builds {
            do {
                // An index of that name built beforehand (by hand, ahead of the deploy) is kept as it is.
                if try await indexExists(build.indexName, connection) { continue }
                try tell(build.statement)
                built.append(build)
                try await run(build.statement, connection)
            } catch {
                // A failed concurrent build leaves an invalid index behind: drop it with the others.
                let cleaned = await drop(built, connection)
                if let stopped = error as? Stopped, cleaned { throw stopped.error }
                throw StrataPostgresMigrationFailure(
                    model: model, version: migration.version, statement: build.statement,
                    message: PostgresServerMessage(error), rolledBack: cleaned)
            }
        }
        try await run("BEGIN", connection)
        var current: String?
        do {
            guard
                try plan.needsApplying(
                    migration, ledger: await PostgresMigrationLedger.entries(connection, logger: logger))
            else {
                try await run("COMMIT", connection)
                return false
            }
            try await PostgresMigrationLedger.create(connection, logger: logger)
            for statement in rest {
                current = statement
                try tell(statement)
                try await run(statement, connection)
            }
            current = nil
            try await PostgresMigrationLedger.record(migration, model: model, connection, logger: logger)
            try await run("COMMIT", connection)
            return true
        } catch {
            let rolledBack = (try? await run("ROLLBACK", connection)) != nil
            let cleaned = await drop(built, connection)
            if error is StrataMigrationError, rolledBack, cleaned { throw error }
            if let stopped = error as? Stopped, rolledBack, cleaned { throw stopped.error }
            throw StrataPostgresMigrationFailure(
                model: model, version: migration.version, statement: current, message: PostgresServerMessage(error),
                rolledBack: rolledBack && cleaned)
        }
    }

    private func indexExists(_ name: String, _ connection: PostgresConnection) async throws -> Bool {
        let rows = try await connection.strataRows("SELECT to_regclass(\(quoted(name))) IS NOT NULL", logger: logger)
        return try rows.first?.decode(Bool.self) == true
    }

    /// Drops indexes built concurrently by this run; true when all of them are gone.
    private func drop(_ builds: [ConcurrentIndexBuild], _ connection: PostgresConnection) async -> Bool {
        var dropped = true
        for build in builds.reversed() {
            do {
                try await run("DROP INDEX CONCURRENTLY IF EXISTS \(quoted(build.indexName))", connection)
            } catch {
                dropped = false
            }
        }
        return dropped
    }

    private func quoted(_ name: String) -> String { "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }

    func run(_ sql: String, _ connection: PostgresConnection) async throws {
        try await connection.strataExecute(sql, logger: logger)
    }
}
