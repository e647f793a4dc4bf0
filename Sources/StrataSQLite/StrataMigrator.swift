import StrataRuntime

/// Applies a model's migrations to a SQLite database through the ledger (`strata_migrations`).
///
/// - Each pending version runs in its own immediate transaction, together with its ledger row;
///   re-running applies nothing.
/// - A database that is newer than the model, belongs to another model, or recorded a version
///   with a different checksum is refused with a ``StrataMigrationError`` before anything is
///   written.
/// - Foreign keys are switched off while a version runs (SQLite's table rebuild needs it) and
///   checked with `PRAGMA foreign_key_check` before it commits.
///
/// Generated `<Model>Database` types and the `strata migrate` command both use this type.
public struct StrataMigrator: Sendable {
    /// The ledger checks and pending selection, shared with the PostgreSQL migrator.
    public let plan: StrataMigrationPlan

    /// The model the migrations belong to (recorded in the ledger).
    public var model: String { plan.model }
    /// The migrations, ordered by version.
    public var migrations: [StrataMigration] { plan.migrations }

    /// Creates a migrator for `model`; `migrations` may be given in any order.
    public init(model: String, migrations: [StrataMigration]) {
        plan = StrataMigrationPlan(model: model, migrations: migrations)
    }

    /// The latest version of the model.
    public var latestVersion: Int { plan.latestVersion }

    /// The version the database is at (0 for a database the model was never applied to),
    /// after checking its ledger against the migrations.
    public func currentVersion(_ db: Database) throws -> Int {
        try plan.currentVersion(MigrationLedger.entries(db))
    }

    /// The version the database behind `reader` is at.
    public func currentVersion(in reader: some DatabaseReader) throws -> Int {
        try reader.read { db in try currentVersion(db) }
    }

    /// The migrations that `migrate(_:to:)` would apply, in order (empty when up to date).
    /// Throws a ``StrataMigrationError`` for a database that would be refused.
    public func pending(_ db: Database, to target: Int? = nil) throws -> [StrataMigration] {
        try plan.pending(MigrationLedger.entries(db), to: target)
    }

    /// The migrations pending in the database behind `reader`.
    public func pending(in reader: some DatabaseReader, to target: Int? = nil) throws -> [StrataMigration] {
        try reader.read { db in try pending(db, to: target) }
    }

    /// Applies every pending migration up to `target` (default: the latest version), each in its
    /// own transaction, and returns the ones applied.
    /// `progress` is told before and after each version, as it goes.
    @discardableResult
    public func migrate(
        _ writer: some DatabaseWriter, to target: Int? = nil, progress: (StrataMigrationProgress) -> Void = { _ in }
    ) throws -> [StrataMigration] {
        try writer.writeWithoutTransaction { db in try migrate(db, to: target, progress: progress) }
    }

    /// Applies every pending migration on a connection that is not inside a transaction;
    /// `progress` is told before and after each version, as it goes.
    @discardableResult
    public func migrate(
        _ db: Database, to target: Int? = nil, progress: (StrataMigrationProgress) -> Void = { _ in }
    ) throws -> [StrataMigration] {
        let pending = try pending(db, to: target)
        var applied: [StrataMigration] = []
        for (offset, migration) in pending.enumerated() {
            progress(.willApply(migration, position: offset + 1, count: pending.count))
            let start = ContinuousClock.now
            if try apply(migration, db, progress: progress) {
                applied.append(migration)
                progress(.didApply(migration, duration: ContinuousClock.now - start))
            }
        }
        return applied
    }

    // MARK: Steps

    /// Runs one migration in an immediate transaction. Returns false when another connection
    /// applied it in the meantime.
    private func apply(
        _ migration: StrataMigration, _ db: Database, progress: (StrataMigrationProgress) -> Void
    ) throws -> Bool {
        let foreignKeysWereOn = try Bool.fetchOne(db, sql: "PRAGMA foreign_keys") ?? false
        if foreignKeysWereOn { try db.execute(sql: "PRAGMA foreign_keys = OFF") }
        defer {
            if foreignKeysWereOn { try? db.execute(sql: "PRAGMA foreign_keys = ON") }
        }
        var didApply = false
        try db.inTransaction(.immediate) {
            // Another process may have migrated between our check and this write lock.
            guard try plan.needsApplying(migration, ledger: MigrationLedger.entries(db)) else { return .commit }
            try MigrationLedger.create(db)
            // Statement by statement (what `execute(sql:)` does), telling `progress` about each.
            let statements = try db.allStatements(sql: migration.sql)
            while let statement = try statements.next() {
                progress(.willRun(migration, statement: statement.sql))
                try statement.execute()
            }
            if let violation = try Row.fetchOne(db, sql: "PRAGMA foreign_key_check") {
                let table: String = violation[0] ?? "?"
                throw StrataMigrationError.foreignKeyViolation(model: model, version: migration.version, table: table)
            }
            try MigrationLedger.record(migration, model: model, db)
            didApply = true
            return .commit
        }
        return didApply
    }
}
