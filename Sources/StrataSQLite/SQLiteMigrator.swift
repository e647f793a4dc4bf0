import GRDB
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
/// - A database written by Strata 0.5 or earlier (a ledger, no row in ``StrataStorageFormat``)
///   first has its Dates converted from seconds since 1970 to seconds since 2001, in one
///   transaction of its own that also records the conversion, so it never runs twice (see
///   ``pendingDateConversion(_:)``); the checksums those versions recorded (``StrataMigration/legacyChecksum``)
///   are accepted for the versions applied before the conversion.
///
/// Generated `<Model>Database` types and the `strata migrate` command both use this type.
public struct SQLiteMigrator: Sendable {
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
        try validatedLedger(db).last?.version ?? 0
    }

    /// The version the database behind `reader` is at.
    public func currentVersion(in reader: some DatabaseReader) throws -> Int {
        try reader.read { db in try currentVersion(db) }
    }

    /// The migrations that `migrate(_:to:)` would apply, in order (empty when up to date).
    /// Throws a ``StrataMigrationError`` for a database that would be refused.
    public func pending(_ db: Database, to target: Int? = nil) throws -> [StrataMigration] {
        let entries = try MigrationLedger.entries(db)
        return try plan.pending(entries, to: target, legacyVersions: legacyVersions(db, entries: entries))
    }

    /// The migrations pending in the database behind `reader`.
    public func pending(in reader: some DatabaseReader, to target: Int? = nil) throws -> [StrataMigration] {
        try reader.read { db in try pending(db, to: target) }
    }

    /// Applies every pending migration up to `target` (default: the latest version), each in its
    /// own transaction, and returns the ones applied.
    /// `progress` is told before and after each version, and before each of its statements, as
    /// it goes. An error it throws stops the migration: the version being applied is rolled back,
    /// the versions before it stay applied, and the error is rethrown (how `strata migrate` stops
    /// on Ctrl-C; `writer.interrupt()` stops a statement that runs long).
    @discardableResult
    public func migrate(
        _ writer: some DatabaseWriter, to target: Int? = nil, progress: (StrataMigrationProgress) throws -> Void = { _ in }
    ) throws -> [StrataMigration] {
        try writer.writeWithoutTransaction { db in try migrate(db, to: target, progress: progress) }
    }

    /// The conversion of the Dates of a database written by Strata 0.5 or earlier, which
    /// `migrate` runs before any pending migration; nil when the database needs none (it is new,
    /// or already stores Dates in ``SQLiteDateFormat/current``).
    public func pendingDateConversion(_ db: Database) throws -> StrataDateConversion? {
        let ledger = try validatedLedger(db)
        guard let version = ledger.last?.version else { return nil }
        if let marker = try StrataStorageFormat.marker(model: model, db), marker.dateFormat == .current { return nil }
        guard version <= latestVersion else {
            // Ahead of this code (a rolling deploy) with Dates still in Strata 0.5's format: only
            // the newer code knows that version's Date columns.
            throw StrataMigrationError.databaseIsNewer(
                model: model, databaseVersion: version, latestKnownVersion: latestVersion,
                firstIncompatibleVersion: latestVersion + 1, reason: "stores its Dates in Strata 0.5's format")
        }
        return StrataDateConversion(version: version, columns: migrations[version - 1].dateColumns)
    }

    /// The Date conversion pending in the database behind `reader`.
    public func pendingDateConversion(in reader: some DatabaseReader) throws -> StrataDateConversion? {
        try reader.read { db in try pendingDateConversion(db) }
    }

    /// Applies every pending migration on a connection that is not inside a transaction;
    /// `progress` is told as it goes, and may stop it, as in the `DatabaseWriter` variant.
    @discardableResult
    public func migrate(
        _ db: Database, to target: Int? = nil, progress: (StrataMigrationProgress) throws -> Void = { _ in }
    ) throws -> [StrataMigration] {
        let pending = try pending(db, to: target)
        if try pendingDateConversion(db) != nil {
            let start = ContinuousClock.now
            if let conversion = try convertDates(db) {
                try progress(.didConvertDates(conversion, duration: ContinuousClock.now - start))
            }
        }
        var applied: [StrataMigration] = []
        for (offset, migration) in pending.enumerated() {
            try progress(.willApply(migration, position: offset + 1, count: pending.count))
            let start = ContinuousClock.now
            if try apply(migration, db, progress: progress) {
                applied.append(migration)
                try progress(.didApply(migration, duration: ContinuousClock.now - start))
            }
        }
        return applied
    }

    // MARK: Steps

    /// Runs one migration in an immediate transaction. Returns false when another connection
    /// applied it in the meantime.
    private func apply(
        _ migration: StrataMigration, _ db: Database, progress: (StrataMigrationProgress) throws -> Void
    ) throws -> Bool {
        try inImmediateTransactionWithoutForeignKeys(db, version: migration.version) {
            // Another process may have migrated between our check and this write lock.
            let ledger = try MigrationLedger.entries(db)
            guard
                try plan.needsApplying(migration, ledger: ledger, legacyVersions: legacyVersions(db, entries: ledger))
            else { return false }
            try MigrationLedger.create(db)
            // A new database stores Dates in the current format from its first version on.
            if ledger.isEmpty { try StrataStorageFormat.record(model: model, sinceVersion: 0, db) }
            // A table rebuild breaks the views and drops the triggers that name the table: they
            // are set aside and put back once the version's statements have run.
            let dependents = try SQLiteDependentObjects.setAside(db)
            // Statement by statement (what `execute(sql:)` does), telling `progress` about each.
            let statements = try db.allStatements(sql: migration.sql)
            while let statement = try statements.next() {
                try progress(.willRun(migration, statement: statement.sql))
                try statement.execute()
            }
            try dependents.restore(db, model: model, version: migration.version)
            try MigrationLedger.record(migration, model: model, db)
            return true
        }
    }

    /// Converts the Dates of a database written by Strata 0.5 or earlier and records it, in one
    /// immediate transaction. Returns nil when there was nothing to convert (another connection
    /// converted it in the meantime).
    private func convertDates(_ db: Database) throws -> StrataDateConversion? {
        var converted: StrataDateConversion?
        _ = try inImmediateTransactionWithoutForeignKeys(db, version: nil) {
            // Checked again under the write lock: a conversion runs once.
            guard let conversion = try pendingDateConversion(db) else { return false }
            try conversion.run(db)
            try StrataStorageFormat.record(model: model, sinceVersion: conversion.version, db)
            converted = conversion
            return true
        }
        return converted
    }

    /// Runs `body` in an immediate transaction with foreign keys off (SQLite's table rebuild needs
    /// it; an updated key column too), checking them before it commits; rolls back when `body`
    /// returns false or throws. `version` names the migration a violation is reported for.
    private func inImmediateTransactionWithoutForeignKeys(
        _ db: Database, version: Int?, _ body: () throws -> Bool
    ) throws -> Bool {
        let foreignKeysWereOn = try Bool.fetchOne(db, sql: "PRAGMA foreign_keys") ?? false
        if foreignKeysWereOn { try db.execute(sql: "PRAGMA foreign_keys = OFF") }
        defer {
            if foreignKeysWereOn { try? db.execute(sql: "PRAGMA foreign_keys = ON") }
        }
        var changed = false
        try db.inTransaction(.immediate) {
            guard try body() else { return .rollback }
            if let violation = try Row.fetchOne(db, sql: "PRAGMA foreign_key_check") {
                let table: String = violation[0] ?? "?"
                let current = try validatedLedger(db).last?.version ?? 0
                throw StrataMigrationError.foreignKeyViolation(model: model, version: version ?? current, table: table)
            }
            changed = true
            return .commit
        }
        return changed
    }

    /// The ledger entries of the model, after every check that refuses a database
    /// (``StrataMigrationPlan/validatedLedger(_:legacyVersions:)``).
    private func validatedLedger(_ db: Database) throws -> [AppliedStrataMigration] {
        let entries = try MigrationLedger.entries(db)
        return try plan.validatedLedger(entries, legacyVersions: legacyVersions(db, entries: entries))
    }

    /// The versions applied before the Dates took the current format, which recorded the
    /// checksums of that time: every version without a marker, those up to the conversion with one.
    private func legacyVersions(_ db: Database, entries: [AppliedStrataMigration]) throws -> Int {
        let marker = try StrataStorageFormat.marker(model: model, db)
        return marker.map { $0.dateFormat == .current ? $0.sinceVersion : entries.count } ?? entries.count
    }
}
