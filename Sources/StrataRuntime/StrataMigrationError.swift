/// Why a database cannot be migrated. Every case is detected before anything is written.
public enum StrataMigrationError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The migrations given to the migrator are not exactly versions 1, 2, … without gaps.
    case invalidMigrationList(model: String, versions: [Int])
    /// The database was migrated by a newer version of the model than the code knows, and
    /// `firstIncompatibleVersion` (one of the versions the code does not know) is not compatible
    /// with the code: its ledger row's `compatible_from` is above `latestKnownVersion`, or was
    /// not recorded. `reason` is the row's `incompatibility`, when recorded.
    case databaseIsNewer(
        model: String, databaseVersion: Int, latestKnownVersion: Int, firstIncompatibleVersion: Int, reason: String?)
    /// A version the database recorded was applied with different SQL: the model's history was
    /// edited after that version shipped.
    case checksumMismatch(model: String, version: Int, recorded: String, expected: String)
    /// The database's ledger belongs to another model.
    case otherModel(expected: String, found: String)
    /// The requested target version is not one of the model's versions.
    case unknownTargetVersion(model: String, target: Int, latestKnownVersion: Int)
    /// The requested target is older than the database: migrations only go forward.
    case cannotDowngrade(model: String, databaseVersion: Int, target: Int)
    /// The ledger lacks a version below the highest it records.
    case ledgerHasGap(model: String, missing: Int)
    /// Migrating left rows that break a foreign key; the version was rolled back.
    case foreignKeyViolation(model: String, version: Int, table: String)
    /// A value of the ledger table is not what Strata writes there (another type, NULL, out of
    /// range): the ledger was written by something else or damaged. `row` is the row's rowid.
    case unreadableLedger(row: Int64, column: String, found: String)
    /// The ledger table cannot be read as Strata's (a column missing, another table by its name).
    case unreadableLedgerTable(reason: String)
    /// A value of the storage format table (`strata_storage`) is not what Strata writes there.
    case unreadableStorageFormat(row: Int64, column: String, found: String)
    /// The storage format table cannot be read as Strata's.
    case unreadableStorageFormatTable(reason: String)
    /// The database stores Dates in a format this runtime does not know (a newer Strata's).
    case unknownDateFormat(model: String, found: Int64)
    /// A baseline was asked of a database whose ledger already records `recorded` migrations:
    /// only a database without a ledger (or with an empty one) can be baselined.
    case ledgerNotEmpty(model: String, recorded: Int)
    /// A baseline was asked at `version`, but the database's schema is not that version's:
    /// `differences` lists each difference as `strata verify` words it.
    case schemaDiffers(model: String, version: Int, differences: [String])
    /// A view or trigger of the database (one Strata did not make: an adopted database's) could
    /// not be put back after migrating to `version` changed the tables it names; the version
    /// was rolled back.
    /// `object` says which: `view "item_names"`.
    case dependentObjectLost(model: String, version: Int, object: String, reason: String)

    public var description: String {
        switch self {
        case .invalidMigrationList(let model, let versions):
            return "the migrations of \(model) must be versions 1...N without gaps, got \(versions)"
        case .databaseIsNewer(let model, let databaseVersion, let latest, let first, let reason):
            let why =
                reason.map { "v\(first) is not compatible with the code of v\(first - 1): it \($0)" }
                ?? "v\(first) does not say that the code of v\(latest) can run against it"
            return "the database is at \(model) v\(databaseVersion), newer than the latest version this code knows "
                + "(v\(latest)), and \(why); it was left untouched"
        case .checksumMismatch(let model, let version, let recorded, let expected):
            return "\(model) v\(version) was applied to the database with checksum \(recorded), but its migration "
                + "now has checksum \(expected): the version was edited after it shipped; add a new version instead. "
                + "The database was left untouched"
        case .otherModel(let expected, let found):
            return "the database belongs to model \(found), not \(expected); it was left untouched"
        case .unknownTargetVersion(let model, let target, let latest):
            return "\(model) has no version \(target) (versions are 1...\(latest))"
        case .cannotDowngrade(let model, let databaseVersion, let target):
            return "the database is at \(model) v\(databaseVersion); migrating to v\(target) would go backwards"
        case .ledgerHasGap(let model, let missing):
            return "the migration ledger of \(model) lacks v\(missing) below later versions; it was left untouched"
        case .unreadableLedger(let row, let column, let found):
            return "the table strata_migrations holds \(found) in column \(column) of row \(row), where Strata writes "
                + (column == "applied_at" ? "a number of seconds" : ["version", "compatible_from"].contains(column) ? "a version number" : "text")
                + "; the ledger was changed by something else. The database was left untouched"
        case .unreadableLedgerTable(let reason):
            return "the table strata_migrations is not Strata's migration ledger (\(reason)); the database was left untouched"
        case .unreadableStorageFormat(let row, let column, let found):
            return "the table strata_storage holds \(found) in column \(column) of row \(row), where Strata writes "
                + "a small non-negative integer; the table was changed by something else. The database was left untouched"
        case .unreadableStorageFormatTable(let reason):
            return "the table strata_storage is not Strata's storage format table (\(reason)); the database was left untouched"
        case .unknownDateFormat(let model, let found):
            return "the database stores the Dates of \(model) in format \(found), which this Strata does not know "
                + "(written by a newer Strata?); it was left untouched"
        case .ledgerNotEmpty(let model, let recorded):
            return "cannot baseline \(model): the database's ledger (strata_migrations) already records \(recorded) "
                + "migration\(recorded == 1 ? "" : "s"); a baseline adopts only a database without one. "
                + "The database was left untouched"
        case .schemaDiffers(let model, let version, let differences):
            return "cannot baseline \(model) at v\(version): the database's schema differs from v\(version)'s in "
                + "\(differences.count) way\(differences.count == 1 ? "" : "s"); nothing was recorded and the database "
                + "was left untouched\n" + differences.map { "  schema difference: \($0)" }.joined(separator: "\n")
        case .dependentObjectLost(let model, let version, let object, let reason):
            return "migrating to \(model) v\(version) would lose the \(object) of the database: it no longer "
                + "works on the migrated tables (\(reason)); v\(version) was rolled back and the database is unchanged. "
                + "Drop or rewrite it in the version's 'migration.before' SQL"
        case .foreignKeyViolation(let model, let version, let table):
            return "migrating to \(model) v\(version) left rows of \(table) that break a foreign key; "
                + "v\(version) was rolled back"
        }
    }
}
