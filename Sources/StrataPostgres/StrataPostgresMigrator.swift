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
/// not control transactions itself, nor hold statements PostgreSQL refuses inside one
/// (`CREATE INDEX CONCURRENTLY`). Generated `<Model>PostgresDatabase` types (which migrate on
/// open) and the `strata migrate --postgres` command use this type.
public struct StrataPostgresMigrator: Sendable {
    /// The ledger checks and pending selection, shared with the SQLite migrator.
    public let plan: StrataMigrationPlan
    private let logger: Logger

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
    ///   - progress: told before and after each version, and before each of its statements.
    /// - Throws: ``StrataMigrationError`` for a refused database (nothing written),
    ///   ``StrataPostgresMigrationFailure`` for a version that failed (earlier versions of the run
    ///   stay applied), or PostgresNIO's error when the connection fails outside a version.
    @discardableResult
    public func migrate(
        _ connection: PostgresConnection, to target: Int? = nil, waiting: @Sendable () -> Void = {},
        progress: (StrataMigrationProgress) -> Void = { _ in }
    ) async throws -> [StrataMigration] {
        try await PostgresMigrationLock.acquire(model: model, connection, logger: logger, waiting: waiting)
        let result: Result<[StrataMigration], any Error>
        do {
            result = .success(try await migrateLocked(connection, to: target, progress: progress))
        } catch {
            result = .failure(error)
        }
        // Ending the session releases the lock too; a failed unlock on a lost connection changes nothing.
        try? await PostgresMigrationLock.release(model: model, connection, logger: logger)
        return try result.get()
    }

    private func migrateLocked(
        _ connection: PostgresConnection, to target: Int?, progress: (StrataMigrationProgress) -> Void
    ) async throws -> [StrataMigration] {
        let pending = try await pending(connection, to: target)
        var applied: [StrataMigration] = []
        for (offset, migration) in pending.enumerated() {
            progress(.willApply(migration, position: offset + 1, count: pending.count))
            let start = ContinuousClock.now
            if try await apply(migration, connection, progress: progress) {
                applied.append(migration)
                progress(.didApply(migration, duration: ContinuousClock.now - start))
            }
        }
        return applied
    }

    /// Runs one migration in a transaction with its ledger row. Returns false when the ledger
    /// already records it.
    private func apply(
        _ migration: StrataMigration, _ connection: PostgresConnection, progress: (StrataMigrationProgress) -> Void
    ) async throws -> Bool {
        try await run("BEGIN", connection)
        var current: String?
        do {
            let statements = try SQLScriptSplitter.statements(migration.sql, dialect: .postgres)
            guard
                try plan.needsApplying(
                    migration, ledger: await PostgresMigrationLedger.entries(connection, logger: logger))
            else {
                try await run("COMMIT", connection)
                return false
            }
            try await PostgresMigrationLedger.create(connection, logger: logger)
            for statement in statements {
                current = statement
                progress(.willRun(migration, statement: statement))
                try await run(statement, connection)
            }
            current = nil
            try await PostgresMigrationLedger.record(migration, model: model, connection, logger: logger)
            try await run("COMMIT", connection)
            return true
        } catch {
            let rolledBack = (try? await run("ROLLBACK", connection)) != nil
            if error is StrataMigrationError, rolledBack { throw error }
            throw StrataPostgresMigrationFailure(
                model: model, version: migration.version, statement: current, message: PostgresServerMessage(error),
                rolledBack: rolledBack)
        }
    }

    private func run(_ sql: String, _ connection: PostgresConnection) async throws {
        _ = try await connection.query(PostgresQuery(unsafeSQL: sql), logger: logger).collect()
    }
}
