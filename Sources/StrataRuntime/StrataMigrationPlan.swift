/// The decisions every Strata migrator takes from a database's ledger, whatever the database:
/// which ledgers are refused, which version the database is at, and which migrations are
/// pending. No database access here: the SQLite migrator (``SQLiteMigrator``) and the PostgreSQL
/// one read their ledger as ``AppliedStrataMigration`` values and ask this type, so both refuse
/// exactly the same databases.
public struct StrataMigrationPlan: Sendable {
    /// The model the migrations belong to (recorded in the ledger).
    public let model: String
    /// The migrations, ordered by version.
    public let migrations: [StrataMigration]
    /// True when any applied version may have recorded its migration's
    /// ``StrataMigration/legacyChecksum`` instead of its checksum (PostgreSQL: the SQL of Strata
    /// 0.5, which ran every statement in the version's transaction).
    public let acceptsLegacyChecksums: Bool

    /// Creates a plan for `model`; `migrations` may be given in any order.
    public init(model: String, migrations: [StrataMigration], acceptsLegacyChecksums: Bool = false) {
        self.model = model
        self.migrations = migrations.sorted { $0.version < $1.version }
        self.acceptsLegacyChecksums = acceptsLegacyChecksums
    }

    /// The latest version of the model.
    public var latestVersion: Int { migrations.last?.version ?? 0 }

    /// The ledger entries, after every check that refuses a database: the migration list is
    /// 1...N, every entry belongs to this model, there is no gap, every recorded checksum of a
    /// version the model knows is the migration's, and a database ahead of the model (versions
    /// beyond ``latestVersion``) is ``acceptsAhead(_:)``. `entries` must be ordered by version.
    ///
    /// The versions up to `legacyVersions` may instead have recorded the migration's
    /// ``StrataMigration/legacyChecksum`` (a SQLite database whose Dates Strata 0.5 or earlier
    /// wrote, applied before their conversion); in a plan that ``acceptsLegacyChecksums``, every
    /// version may.
    public func validatedLedger(_ entries: [AppliedStrataMigration], legacyVersions: Int = 0) throws
        -> [AppliedStrataMigration]
    {
        try checkMigrationList()
        if let foreign = entries.first(where: { $0.model != model }) {
            throw StrataMigrationError.otherModel(expected: model, found: foreign.model)
        }
        if let newest = entries.last, newest.version > latestVersion,
            let refused = entries.first(where: { $0.version > latestVersion && !isCompatible($0) })
        {
            throw StrataMigrationError.databaseIsNewer(
                model: model,
                databaseVersion: newest.version,
                latestKnownVersion: latestVersion,
                firstIncompatibleVersion: refused.version,
                reason: refused.incompatibility
            )
        }
        for (offset, entry) in entries.enumerated() {
            guard entry.version == offset + 1 else {
                throw StrataMigrationError.ledgerHasGap(model: model, missing: offset + 1)
            }
            // A version ahead of the model (accepted above) has no migration here to compare with.
            guard migrations.indices.contains(entry.version - 1) else { continue }
            let migration = migrations[entry.version - 1]
            let expected = (entry.version <= legacyVersions ? migration.legacyChecksum : nil) ?? migration.checksum
            if expected != entry.checksum && !(acceptsLegacyChecksums && entry.checksum == migration.legacyChecksum) {
                throw StrataMigrationError.checksumMismatch(
                    model: model,
                    version: entry.version,
                    recorded: entry.checksum,
                    expected: expected
                )
            }
        }
        return entries
    }

    /// True when the code of this model's ``latestVersion`` can run against a database at
    /// `entry`'s version: its ledger row says so (`compatible_from` at or below the latest
    /// version). A database at D > latest is accepted when every version latest+1...D is.
    public func isCompatible(_ entry: AppliedStrataMigration) -> Bool {
        entry.version <= latestVersion || (entry.compatibleFrom.map { $0 <= latestVersion } ?? false)
    }

    /// True when the database with this ledger is at a version newer than the model's latest
    /// (accepted by ``validatedLedger(_:legacyVersions:)``: every version beyond is compatible).
    public func isAhead(_ entries: [AppliedStrataMigration]) -> Bool {
        (entries.last?.version ?? 0) > latestVersion
    }

    /// The version a database with this ledger is at (0 when the model was never applied).
    public func currentVersion(_ entries: [AppliedStrataMigration], legacyVersions: Int = 0) throws -> Int {
        try validatedLedger(entries, legacyVersions: legacyVersions).last?.version ?? 0
    }

    /// The migrations to apply to a database with this ledger to reach `target` (default: the
    /// latest version), in order; empty when it is there, or when it is ahead of the model with
    /// every version beyond compatible with it (never a downgrade). Throws a ``StrataMigrationError`` for a
    /// database that would be refused or a target it cannot reach.
    public func pending(_ entries: [AppliedStrataMigration], to target: Int? = nil, legacyVersions: Int = 0) throws
        -> [StrataMigration]
    {
        let current = try currentVersion(entries, legacyVersions: legacyVersions)
        let goal = try resolvedTarget(target)
        // Ahead of the model and compatible with it (a rolling deploy): nothing to apply.
        if target == nil && current > latestVersion { return [] }
        if goal < current {
            throw StrataMigrationError.cannotDowngrade(model: model, databaseVersion: current, target: goal)
        }
        return migrations.filter { $0.version > current && $0.version <= goal }
    }

    /// Whether `migration` is still to be applied, decided again inside its transaction from the
    /// ledger read there (another process may have migrated since the pending list was made):
    /// false when the ledger already records it. Throws when the ledger is refused or does not
    /// end right below the migration.
    public func needsApplying(
        _ migration: StrataMigration, ledger entries: [AppliedStrataMigration], legacyVersions: Int = 0
    ) throws -> Bool {
        let ledger = try validatedLedger(entries, legacyVersions: legacyVersions)
        if ledger.contains(where: { $0.version == migration.version }) { return false }
        if let last = ledger.last?.version, last != migration.version - 1 {
            throw StrataMigrationError.ledgerHasGap(model: model, missing: last + 1)
        }
        return true
    }

    /// The migrations a baseline at `version` records as applied without running them: versions
    /// 1...`version`, with the checksums ``pending(_:to:legacyVersions:)`` would have them
    /// recorded with. Throws ``StrataMigrationError/ledgerNotEmpty(model:recorded:)`` when the
    /// ledger records anything, ``StrataMigrationError/unknownTargetVersion(model:target:latestKnownVersion:)``
    /// when `version` is not one of the model's.
    public func baseline(_ entries: [AppliedStrataMigration], at version: Int) throws -> [StrataMigration] {
        try checkMigrationList()
        if !entries.isEmpty { throw StrataMigrationError.ledgerNotEmpty(model: model, recorded: entries.count) }
        let goal = try resolvedTarget(version)
        return migrations.filter { $0.version <= goal }
    }

    /// The version `target` names (the latest when nil), checked to be one of the model's.
    public func resolvedTarget(_ target: Int?) throws -> Int {
        guard let target else { return latestVersion }
        guard (1...max(1, latestVersion)).contains(target), latestVersion > 0 else {
            throw StrataMigrationError.unknownTargetVersion(
                model: model, target: target, latestKnownVersion: latestVersion)
        }
        return target
    }

    private func checkMigrationList() throws {
        let versions = migrations.map(\.version)
        if versions != Array(1...max(1, versions.count)) && !versions.isEmpty {
            throw StrataMigrationError.invalidMigrationList(model: model, versions: versions)
        }
    }
}
