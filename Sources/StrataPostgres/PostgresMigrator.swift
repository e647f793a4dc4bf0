import Logging
import PostgresNIO
import StrataRuntime
import StrataSQLText
import StrataStorage

/// Applies a model's PostgreSQL migrations to a database through the ledger
/// (``PostgresMigrationLedger``, the table `strata_migrations`), as ``SQLiteMigrator`` does on
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
/// - Every statement waits for a table's lock at most the budget's lock timeout
///   (``PostgresLockBudget``, 300 ms by default), so that the application's queries never queue
///   behind a migration for longer. A version whose statement timed out is rolled back and tried
///   again after a growing, jittered pause, naming the sessions that held the locks
///   (``StrataMigrationProgress/waitingForLock(_:_:)``), until it has waited the budget's total.
/// - A concurrent index build that an earlier run left INVALID (a killed process, a lost
///   connection) is dropped and built again, never taken for a built index.
///
/// The migrations' SQL is PostgreSQL's (`Generated/<Model>/postgres/migrations/vN.sql`); it must
/// not control transactions itself. Its leading steps (``PostgresLeadingStep``: concurrent index
/// builds, constraints added `NOT VALID` and their validation) run before the version's
/// transaction, each on its own; what they made is removed again when the version fails, and a
/// rerun after a killed one takes what they made as done. No other statement PostgreSQL refuses
/// in a transaction may appear. Generated `<Model>PostgresDatabase` types (which migrate on
/// open) and the `strata migrate --postgres` command use this type.
public struct PostgresMigrator: Sendable {
    /// The ledger checks and pending selection, shared with the SQLite migrator.
    public let plan: StrataMigrationPlan
    /// How long statements may wait for locks, and how long a version keeps retrying.
    public let lockBudget: PostgresLockBudget
    /// How many rows one batch of a backfill updates (each batch is committed on its own).
    public let batchSize: Int
    let logger: Logger

    /// The model the migrations belong to (recorded in the ledger).
    public var model: String { plan.model }
    /// The migrations, ordered by version.
    public var migrations: [StrataMigration] { plan.migrations }
    /// The latest version of the model.
    public var latestVersion: Int { plan.latestVersion }

    /// Creates a migrator for `model`; `migrations` (PostgreSQL SQL) may be given in any order.
    /// `lockBudget` bounds the waits for locks and how long a statement may hold them;
    /// `batchSize` (1,000 by default) is the rows of one backfill batch; `logger` receives
    /// PostgresNIO's logging of the migrator's queries (none by default).
    public init(
        model: String, migrations: [StrataMigration], lockBudget: PostgresLockBudget = .default,
        batchSize: Int = 1_000, logger: Logger? = nil
    ) {
        self.batchSize = max(batchSize, 1)
        // Any version may have recorded the checksum of Strata 0.5's SQL (every statement in the transaction).
        plan = StrataMigrationPlan(model: model, migrations: migrations, acceptsLegacyChecksums: true)
        self.lockBudget = lockBudget
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
        try plan.currentVersion(
            await PostgresMigrationLedger.entries(connection, logger: logger))
    }

    /// The migrations that ``migrate(_:to:waiting:progress:)`` would apply, in order (empty when up
    /// to date). Throws a ``StrataMigrationError`` for a database that would be refused. Reads only.
    public func pending(_ connection: PostgresConnection, to target: Int? = nil) async throws -> [StrataMigration] {
        try plan.pending(
            await PostgresMigrationLedger.entries(connection, logger: logger), to: target)
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
    /// it whatever happens, with the session's `lock_timeout` set to the budget's meanwhile (the
    /// wait for the migration lock itself is bounded by the session's own `lock_timeout`).
    func locked<Value>(
        _ connection: PostgresConnection, waiting: @Sendable () -> Void, _ body: () async throws -> Value
    ) async throws -> Value {
        try await PostgresMigrationLock.acquire(model: model, connection, logger: logger, waiting: waiting)
        let result: Result<Value, any Error>
        var previous: String?
        do {
            previous = try await connection.strataRows("SELECT current_setting('lock_timeout')", logger: logger)
                .first?.decode(String.self)
            try await run("SET lock_timeout = \(lockBudget.setting)", connection)
            result = .success(try await body())
        } catch {
            result = .failure(error)
        }
        if let previous {
            try? await connection.strataExecute(
                "SET lock_timeout = '" + previous.replacingOccurrences(of: "'", with: "''") + "'", logger: logger)
        }
        // Ending the session releases the lock too; a failed unlock on a lost connection changes nothing.
        try? await PostgresMigrationLock.release(model: model, connection, logger: logger)
        return try result.get()
    }

    /// The rolling versions the database has applied and not contracted (their
    /// ``StrataMigration/contract`` pending), oldest first. Reads only.
    public func pendingContracts(_ connection: PostgresConnection) async throws -> [StrataMigration] {
        let entries = try await PostgresMigrationLedger.entries(connection, logger: logger)
        _ = try plan.currentVersion(entries)
        return migrations.filter { PostgresMigrationLedger.contractPending($0, model: model, in: entries) }
    }

    /// Runs the contract of every rolling version the database has applied and not contracted
    /// (``StrataMigration/contract``), oldest first, each in a transaction of its own with its
    /// ledger row updated, within the lock budget as a version is. Returns the versions
    /// contracted (none when there is nothing to contract). Applies no pending version: call
    /// ``migrate(_:to:waiting:progress:)`` first.
    ///
    /// Run it once no instance runs code of the version before a rolling version: that code no
    /// longer opens the database afterwards.
    @discardableResult
    public func contract(
        _ connection: PostgresConnection, waiting: @Sendable () -> Void = {},
        progress: (StrataMigrationProgress) throws -> Void = { _ in }
    ) async throws -> [StrataMigration] {
        try await locked(connection, waiting: waiting) {
            _ = try await currentVersion(connection)
            var contracted: [StrataMigration] = []
            for migration in migrations where migration.contract != nil {
                if try await contractWithinBudget(migration, connection, progress: progress) { contracted.append(migration) }
            }
            return contracted
        }
    }

    /// Runs the contract of `migration` when the ledger says it is pending; true when it ran.
    private func contractWithinBudget(
        _ migration: StrataMigration, _ connection: PostgresConnection, progress: (StrataMigrationProgress) throws -> Void
    ) async throws -> Bool {
        let entries = try await PostgresMigrationLedger.entries(connection, logger: logger)
        guard PostgresMigrationLedger.contractPending(migration, model: model, in: entries) else { return false }
        try progress(.willContract(migration))
        let start = ContinuousClock.now
        let done = try await withinBudget(migration, connection, progress: progress) { _ in
            try await applyContract(migration, connection, progress: progress)
        }
        if done { try progress(.didContract(migration, duration: ContinuousClock.now - start)) }
        return done
    }

    /// Applies the pending migrations up to `target`; the caller holds the lock. A rolling
    /// version not contracted yet is contracted before the version after it.
    func migrateLocked(
        _ connection: PostgresConnection, to target: Int?, progress: (StrataMigrationProgress) throws -> Void
    ) async throws -> [StrataMigration] {
        let pending = try await pending(connection, to: target)
        var applied: [StrataMigration] = []
        for (offset, migration) in pending.enumerated() {
            if let previous = migrations.first(where: { $0.version == migration.version - 1 }), previous.contract != nil {
                _ = try await contractWithinBudget(previous, connection, progress: progress)
            }
            try progress(.willApply(migration, position: offset + 1, count: pending.count))
            let start = ContinuousClock.now
            if try await applyWithinBudget(migration, connection, progress: progress) {
                applied.append(migration)
                try progress(.didApply(migration, duration: ContinuousClock.now - start))
            }
        }
        return applied
    }

    /// A statement that waited the whole lock timeout: its version was rolled back, and what its
    /// leading steps made is kept for the next attempt.
    struct LockTimedOut: Error {
        var statement: String
        var message: PostgresServerMessage
    }

    /// Runs ``apply(_:_:made:progress:)`` again while a statement times out waiting for a lock,
    /// pausing between attempts, until the version has waited the budget's total; then undoes
    /// its leading steps and throws a ``StrataPostgresMigrationFailure`` naming the wait.
    private func applyWithinBudget(
        _ migration: StrataMigration, _ connection: PostgresConnection, progress: (StrataMigrationProgress) throws -> Void
    ) async throws -> Bool {
        try await withinBudget(migration, connection, progress: progress) { made in
            try await apply(migration, connection, made: &made, progress: progress)
        }
    }

    /// Runs `body` (a version, or a contract, of `migration`) again while a statement times
    /// out waiting for a lock (``LockTimedOut``), as ``applyWithinBudget(_:_:progress:)`` says.
    private func withinBudget(
        _ migration: StrataMigration, _ connection: PostgresConnection, progress: (StrataMigrationProgress) throws -> Void,
        body: (inout [Made]) async throws -> Bool
    ) async throws -> Bool {
        var made: [Made] = []
        var waited = Duration.zero
        var attempt = 0
        // Set for an attempt after one that only autovacuum held up (see below).
        var outwaitAutovacuum: Duration?
        while true {
            let timeout: LockTimedOut
            do {
                if let outwaitAutovacuum {
                    try await run("SET lock_timeout = '\(PostgresLockBudget.milliseconds(outwaitAutovacuum))ms'", connection)
                }
                let result = try await body(&made)
                if outwaitAutovacuum != nil { try await run("SET lock_timeout = \(lockBudget.setting)", connection) }
                return result
            } catch let error as LockTimedOut {
                if outwaitAutovacuum != nil { try await run("SET lock_timeout = \(lockBudget.setting)", connection) }
                timeout = error
            }
            attempt += 1
            waited += outwaitAutovacuum ?? lockBudget.lockTimeout
            let pause = lockBudget.pause(afterAttempt: attempt, random: Double.random(in: 0...1))
            let holders = await PostgresLockHolders.holding(tablesOf: timeout.statement, connection, logger: logger)
            // Autovacuum never ends its pass for a lock request that gives up first: PostgreSQL
            // cancels it only once the request has waited `deadlock_timeout` (1 s by default),
            // longer than the lock timeout. The migrator cancels the pass itself when its role may
            // (a superuser, or a member of the role autovacuum runs as); else the next attempt
            // waits that long, during which the application's writes queue behind it.
            outwaitAutovacuum = nil
            var wait = StrataLockWait(
                attempt: attempt, retryIn: pause, waited: waited, holders: holders, statement: timeout.statement)
            if !holders.isEmpty, holders.allSatisfy(\.isCancellableAutovacuum), lockBudget.lockTimeout > .zero {
                if await cancel(holders.map(\.pid), connection) {
                    wait.autovacuum = .cancelled
                } else {
                    let deadlock = await deadlockTimeout(connection)
                    if deadlock >= lockBudget.lockTimeout {
                        outwaitAutovacuum = deadlock + .milliseconds(500)
                        wait.autovacuum = outwaitAutovacuum.map(StrataLockWait.AutovacuumAction.outwaited)
                    }
                }
            }
            do {
                guard lockBudget.lockTimeout > .zero, waited + pause <= lockBudget.totalWait else {
                    throw StrataPostgresMigrationFailure(
                        model: model, version: migration.version, statement: timeout.statement,
                        message: timeout.message, rolledBack: true, lockWait: wait)
                }
                try progress(.waitingForLock(migration, wait))
                try await Task.sleep(for: pause)
            } catch var failure as StrataPostgresMigrationFailure {
                let undone = await undo(made, of: migration.version, connection)
                failure.rolledBack = !undone.connectionLost
                failure.leftBehind = undone.left.compactMap(\.description)
                throw failure
            } catch {
                _ = await undo(made, of: migration.version, connection)
                throw error
            }
            waited += pause
        }
    }

    /// Runs one migration (``PostgresMigrationScript``): the steps before its transaction, each
    /// on its own (skipping those a stopped run recorded, or left, as done), then the version's
    /// transaction with its ledger row. Returns false when the ledger already records it. A
    /// failure undoes what the steps made (`made`), so that the database is left at the previous
    /// version, except a lock timeout (``LockTimedOut``), after which it is kept for the next attempt.
    private func apply(
        _ migration: StrataMigration, _ connection: PostgresConnection, made: inout [Made],
        progress: (StrataMigrationProgress) throws -> Void
    ) async throws -> Bool {
        /// An error `progress` threw, rethrown as it is once the version is rolled back.
        struct Stopped: Error {
            var error: any Error
        }
        func tell(_ statement: String) throws {
            do { try progress(.willRun(migration, statement: statement)) } catch { throw Stopped(error: error) }
        }
        let script: PostgresMigrationScript
        var recorded: [Int: PostgresMigrationProgress.Recorded] = [:]
        let multiStep: Bool
        do {
            script = try PostgresMigrationScript(SQLScriptSplitter.statements(migration.sql, dialect: .postgres))
            multiStep = script.steps.contains { if case .own = $0 { false } else { true } }
            if multiStep {
                recorded = try await PostgresMigrationProgress.recorded(
                    model: model, version: migration.version, checksum: migration.checksum, connection, logger: logger)
            }
        } catch {
            let undone = await undo(made, of: migration.version, connection)
            throw StrataPostgresMigrationFailure(
                model: model, version: migration.version, statement: nil, message: PostgresServerMessage(error),
                rolledBack: !undone.connectionLost, leftBehind: undone.left.compactMap(\.description))
        }
        /// The failure of `statement` (nil: of the step as a whole), after undoing what was made;
        /// a lock timeout is thrown as ``LockTimedOut`` instead, keeping it.
        func failure(_ error: any Error, in statement: String?, rolledBack: Bool = true) async -> any Error {
            let message = PostgresServerMessage(error)
            if rolledBack, let statement, message.sqlState == Self.lockNotAvailable {
                return LockTimedOut(statement: statement, message: message)
            }
            let undone = await undo(made, of: migration.version, connection)
            if let stopped = error as? Stopped, rolledBack, undone.complete { return stopped.error }
            if error is StrataMigrationError, rolledBack, undone.complete { return error }
            var failure = StrataPostgresMigrationFailure(
                model: model, version: migration.version, statement: statement, message: message,
                rolledBack: rolledBack && !undone.connectionLost, leftBehind: undone.left.compactMap(\.description))
            if message.sqlState == Self.queryCanceled { failure.holdLimit = lockBudget.holdLimit }
            return failure
        }
        /// Autovacuum on a table a step locks would make it wait a whole lock timeout, with the
        /// application queued behind it (autovacuum yields only after `deadlock_timeout`):
        /// cancelled beforehand when this role may, and said so. A backfill of many rows is what
        /// starts it, so it is looked for before every step.
        func cancelAutovacuum(on sql: String) async throws {
            let vacuums = await autovacuum(on: sql, connection)
            guard !vacuums.isEmpty, await cancel(vacuums.map(\.pid), connection) else { return }
            do { try progress(.cancelledAutovacuum(migration, vacuums)) } catch { throw Stopped(error: error) }
        }
        for (number, step) in script.numbered {
            switch step {
            case .own(let step):
                do {
                    try await cancelAutovacuum(on: step.statement)
                    switch step.kind {
                    case .buildIndex(let name):
                        switch try await indexState(name, connection) {
                        case .valid:
                            // Built beforehand (by hand ahead of the deploy, or by an earlier attempt or run).
                            continue
                        case .invalid:
                            // Left by a build that was interrupted: PostgreSQL never uses it.
                            let drop = "DROP INDEX CONCURRENTLY IF EXISTS \(quoted(name))"
                            try tell(drop)
                            try await run(drop, connection)
                        case .absent:
                            break
                        }
                    case .addConstraint(let table, let name):
                        if try await constraintExists(name, on: table, connection) { continue }
                    case .validateConstraint:
                        break
                    }
                    try tell(step.statement)
                    if step.undo != nil, !made.contains(.own(step)) { made.append(.own(step)) }
                    try await run(step.statement, connection)
                } catch {
                    // A failed concurrent build leaves an invalid index behind: dropped with the rest.
                    throw await failure(error, in: step.statement)
                }
            case .transaction(let statements):
                let undo = statements.compactMap(PostgresMigrationScript.undo(of:)).reversed()
                let step = Made.transaction(number: number, undo: Array(undo))
                if recorded[number]?.done == true {
                    if !made.contains(step) { made.append(step) }
                    continue
                }
                var current: String?
                do {
                    try await cancelAutovacuum(on: statements.joined(separator: ";\n"))
                    try await run("BEGIN", connection)
                    if let limit = lockBudget.holdLimitStatement { try await run(limit, connection) }
                    for statement in statements {
                        current = statement
                        try tell(statement)
                        try await run(statement, connection)
                    }
                    current = nil
                    try await PostgresMigrationProgress.record(
                        model: model, version: migration.version, checksum: migration.checksum, step: number,
                        .init(done: true), connection, logger: logger)
                    try await run("COMMIT", connection)
                    if !made.contains(step) { made.append(step) }
                } catch {
                    let rolledBack = (try? await run("ROLLBACK", connection)) != nil
                    throw await failure(error, in: current, rolledBack: rolledBack)
                }
            case .backfill(let backfill):
                let done = recorded[number]
                if done?.done == true { continue }
                do {
                    try await fill(
                        backfill, step: number, of: migration, after: done?.resumeAfter, connection, tell: tell,
                        progress: progress)
                } catch let error as BatchFailed {
                    throw await failure(error.error, in: error.statement, rolledBack: error.rolledBack)
                } catch {
                    throw await failure(error, in: backfill.statement)
                }
            }
        }
        do {
            try await cancelAutovacuum(on: script.transaction.joined(separator: ";\n"))
        } catch {
            throw await failure(error, in: nil)
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
            if let limit = lockBudget.holdLimitStatement { try await run(limit, connection) }
            try await PostgresMigrationLedger.create(connection, logger: logger)
            for statement in script.transaction {
                current = statement
                try tell(statement)
                try await run(statement, connection)
            }
            current = nil
            try await PostgresMigrationLedger.record(migration, model: model, connection, logger: logger)
            if multiStep {
                try await PostgresMigrationProgress.clear(model: model, version: migration.version, connection, logger: logger)
            }
            try await run("COMMIT", connection)
            return true
        } catch {
            let rolledBack = (try? await run("ROLLBACK", connection)) != nil
            throw await failure(error, in: current, rolledBack: rolledBack)
        }
    }

    /// Runs the contract of `migration` in one transaction with its ledger row updated; false
    /// when the ledger already records it contracted. A lock timeout is thrown as
    /// ``LockTimedOut`` (tried again), any other failure as a ``StrataPostgresMigrationFailure``
    /// with the contract rolled back (the database stays expanded), an error `progress` threw as it is.
    private func applyContract(
        _ migration: StrataMigration, _ connection: PostgresConnection, progress: (StrataMigrationProgress) throws -> Void
    ) async throws -> Bool {
        struct Stopped: Error { var error: any Error }
        try await run("BEGIN", connection)
        var current: String?
        do {
            let statements = try SQLScriptSplitter.statements(migration.contract ?? "", dialect: .postgres)
            let entries = try await PostgresMigrationLedger.entries(connection, logger: logger)
            guard PostgresMigrationLedger.contractPending(migration, model: model, in: entries) else {
                try await run("COMMIT", connection)
                return false
            }
            if let limit = lockBudget.holdLimitStatement { try await run(limit, connection) }
            for statement in statements {
                current = statement
                do { try progress(.willRun(migration, statement: statement)) } catch { throw Stopped(error: error) }
                try await run(statement, connection)
            }
            current = nil
            try await PostgresMigrationLedger.recordContract(migration, model: model, connection, logger: logger)
            try await run("COMMIT", connection)
            return true
        } catch {
            let rolledBack = (try? await run("ROLLBACK", connection)) != nil
            if let stopped = error as? Stopped, rolledBack { throw stopped.error }
            let message = PostgresServerMessage(error)
            if rolledBack, let current, message.sqlState == Self.lockNotAvailable {
                throw LockTimedOut(statement: current, message: message)
            }
            var failure = StrataPostgresMigrationFailure(
                model: model, version: migration.version, statement: current, message: message, rolledBack: rolledBack,
                leftBehind: [])
            if message.sqlState == Self.queryCanceled { failure.holdLimit = lockBudget.holdLimit }
            throw failure
        }
    }

    /// A batch of a backfill that failed: the statement, and whether its transaction was rolled back.
    struct BatchFailed: Error {
        var error: any Error
        var statement: String
        var rolledBack: Bool
    }

    /// Runs `backfill` in batches of ``batchSize`` rows by primary key, from after the key
    /// `after` (a stopped run's last committed batch), each batch committed with the key it
    /// reached, then records the step done. A table without a primary key is filled in one
    /// transaction.
    private func fill(
        _ backfill: PostgresBackfill, step: Int, of migration: StrataMigration, after: [String]?,
        _ connection: PostgresConnection, tell: (String) throws -> Void,
        progress: (StrataMigrationProgress) throws -> Void
    ) async throws {
        let key = try await connection.strataRows(PostgresQuery(unsafeSQL: backfill.keyQuery), logger: logger).map {
            let (name, type) = try $0.decode((String, String).self)
            return PostgresBackfill.KeyColumn(name: name, type: type)
        }
        var last = after
        var rows = 0
        while true {
            let statement = key.isEmpty ? backfill.statement : backfill.batch(key: key, after: last, size: batchSize)
            try tell(statement)
            let reached: [String]?
            do {
                try await run("BEGIN", connection)
                let result = try await connection.strataRows(PostgresQuery(unsafeSQL: statement), logger: logger)
                reached = try result.first.map { row in try Array(row).map { try $0.decode(String.self) } }
                try await PostgresMigrationProgress.record(
                    model: model, version: migration.version, checksum: migration.checksum, step: step,
                    .init(done: key.isEmpty || reached == nil, resumeAfter: reached ?? last), connection, logger: logger)
                try await run("COMMIT", connection)
            } catch {
                let rolledBack = (try? await run("ROLLBACK", connection)) != nil
                throw BatchFailed(error: error, statement: backfill.statement, rolledBack: rolledBack)
            }
            guard let reached, !key.isEmpty else { return }
            rows += batchSize
            last = reached
            do {
                try progress(.filledRows(migration, table: backfill.table, rows: rows))
            } catch {
                throw BatchFailed(error: error, statement: backfill.statement, rolledBack: true)
            }
        }
    }

    /// What a step of a version made before its transaction, undone when the version fails.
    enum Made: Hashable {
        /// A statement run on its own (an index, a constraint `NOT VALID`).
        case own(PostgresLeadingStep)
        /// A transaction step (numbered as in the script) and the statements that undo it.
        case transaction(number: Int, undo: [String])

        /// What it made, for a failure's ``StrataPostgresMigrationFailure/leftBehind``.
        var description: String? {
            switch self {
            case .own(let step): step.made
            case .transaction(let number, let undo): "step \(number) (undone by: \(undo.joined(separator: "; ")))"
            }
        }
    }

    /// The autovacuum workers holding locks on the tables `sql` names, when any is running (one
    /// cheap query otherwise).
    private func autovacuum(on sql: String, _ connection: PostgresConnection) async -> [StrataLockHolder] {
        let running = try? await connection.strataRows(
            "SELECT EXISTS (SELECT 1 FROM pg_stat_activity WHERE backend_type = 'autovacuum worker') OR EXISTS (SELECT 1 FROM pg_stat_progress_vacuum)",
            logger: logger)
        guard (try? running?.first?.decode(Bool.self)) == true else { return [] }
        return await PostgresLockHolders.holding(tablesOf: sql, connection, logger: logger).filter(\.isCancellableAutovacuum)
    }

    /// Cancels the current query of each session in `pids` (`pg_cancel_backend`); false when any
    /// could not be cancelled (the role may not signal it).
    private func cancel(_ pids: [Int], _ connection: PostgresConnection) async -> Bool {
        let list = Set(pids).sorted().map(String.init).joined(separator: ", ")
        let rows = try? await connection.strataRows(
            PostgresQuery(unsafeSQL: "SELECT bool_and(pg_cancel_backend(pid)) FROM unnest(ARRAY[\(list)]::int[]) AS pid"),
            logger: logger)
        return (try? rows?.first?.decode(Bool?.self)) == true
    }

    /// The server's `deadlock_timeout` (1 s unless configured otherwise).
    private func deadlockTimeout(_ connection: PostgresConnection) async -> Duration {
        let rows = try? await connection.strataRows(
            "SELECT (extract(epoch FROM current_setting('deadlock_timeout')::interval) * 1000)::bigint", logger: logger)
        let milliseconds = (try? rows?.first?.decode(Int64.self)) ?? 1_000
        return .milliseconds(milliseconds)
    }

    /// PostgreSQL's SQLSTATE for a lock not obtained within `lock_timeout`.
    static let lockNotAvailable = "55P03"
    /// PostgreSQL's SQLSTATE for a statement cancelled (by `statement_timeout`, here).
    static let queryCanceled = "57014"

    /// Whether an index of that name exists, and whether PostgreSQL may use it.
    enum IndexState { case absent, valid, invalid }

    private func indexState(_ name: String, _ connection: PostgresConnection) async throws -> IndexState {
        let rows = try await connection.strataRows(
            "SELECT to_regclass(\(quoted(name))) IS NOT NULL, coalesce((SELECT indisvalid FROM pg_index WHERE indexrelid = to_regclass(\(quoted(name)))), true)",
            logger: logger)
        guard let (exists, valid) = try rows.first?.decode((Bool, Bool).self), exists else { return .absent }
        return valid ? .valid : .invalid
    }

    private func constraintExists(_ name: String, on table: String, _ connection: PostgresConnection) async throws
        -> Bool
    {
        let rows = try await connection.strataRows(
            "SELECT EXISTS (SELECT 1 FROM pg_constraint WHERE conname = \(name) AND conrelid = to_regclass(\(quoted(table))))",
            logger: logger)
        return try rows.first?.decode(Bool.self) == true
    }

    /// What ``undo(_:_:)`` could not remove, and whether the connection was lost meanwhile.
    struct Undone {
        var left: [Made] = []
        var connectionLost = false
        var complete: Bool { left.isEmpty }
    }

    /// Removes what the steps of this run made, last first: a statement run on its own by its
    /// undo statement, a transaction step by its undo statements in one transaction, which also
    /// forgets the version's recorded steps. What cannot be removed within the lock timeout
    /// (another session still holds the table) is left, for the next run to take as done; an
    /// INVALID index is not used by PostgreSQL (nor dumped by `pg_dump`).
    private func undo(_ steps: [Made], of version: Int, _ connection: PostgresConnection) async -> Undone {
        var undone = Undone()
        for step in steps.reversed() {
            do {
                switch step {
                case .own(let own):
                    guard let undo = own.undo else { continue }
                    try await run(undo, connection)
                case .transaction(_, let statements):
                    do {
                        try await run("BEGIN", connection)
                        for statement in statements { try await run(statement, connection) }
                        try await PostgresMigrationProgress.clear(
                            model: model, version: version, connection, logger: logger)
                        try await run("COMMIT", connection)
                    } catch {
                        _ = try? await run("ROLLBACK", connection)
                        throw error
                    }
                }
            } catch {
                undone.left.append(step)
                if PostgresServerMessage(error).isConnectionLost { undone.connectionLost = true }
            }
        }
        return undone
    }

    private func quoted(_ name: String) -> String { SQLIdentifier.quoted(name) }

    func run(_ sql: String, _ connection: PostgresConnection) async throws {
        try await connection.strataExecute(sql, logger: logger)
    }
}
