import StrataStorage

/// One version's migration of a model: the SQLite SQL that takes the database from version
/// `version - 1` (empty for version 1) to `version`, and the checksum recorded in the ledger.
///
/// Generated code embeds one per version (`<Model>Migrations.all`); the `strata migrate` command
/// builds the same values from the generator's output, so both apply identical SQL.
public struct StrataMigration: Hashable, Sendable {
    /// The version this migration leads to (1 for the first).
    public var version: Int
    /// The SQL, one or more statements without transaction control: the migrator wraps it in a
    /// transaction of its own.
    public var sql: String
    /// The checksum recorded in the ledger when the migration is applied (hexadecimal SHA-256,
    /// as the generator computes it). A database whose recorded checksum differs is refused.
    public var checksum: String
    /// The checksum Strata 0.5 and earlier recorded for this version, when its SQL differed only
    /// by the Date format (a Date default in seconds since 1970): accepted for the versions a
    /// database applied before its Dates were converted (the table `strata_storage`).
    public var legacyChecksum: String?
    /// The columns that store Dates at this version: what the migrator converts in a database
    /// written by Strata 0.5 or earlier that is at this version.
    public var dateColumns: [SQLiteDateColumn]

    /// Creates a migration.
    public init(
        version: Int, sql: String, checksum: String, legacyChecksum: String? = nil, dateColumns: [SQLiteDateColumn] = []
    ) {
        self.version = version
        self.sql = sql
        self.checksum = checksum
        self.legacyChecksum = legacyChecksum
        self.dateColumns = dateColumns
    }

    /// A migration whose Date columns are given as ``SQLiteDateColumn/list(_:)`` writes them
    /// (`"table" ("column", "column")`, a line per table): how generated code lists them.
    public init(version: Int, sql: String, checksum: String, legacyChecksum: String? = nil, dateColumns list: String) {
        self.init(
            version: version, sql: sql, checksum: checksum, legacyChecksum: legacyChecksum,
            dateColumns: SQLiteDateColumn.columns(inList: list))
    }

    /// Creates a migration whose checksum is computed from `sql` as the generator computes it
    /// (`MigrationChecksum.of`: comments, blank lines and trailing white space do not count; CRLF
    /// and CR read as LF), e.g. for SQL read from a generated `migrations/vN.sql` file, whatever
    /// line endings its checkout gave it.
    public init(version: Int, sql: String) {
        self.init(version: version, sql: sql, checksum: MigrationChecksum.of(sql))
    }
}

/// A migration recorded in a database's ledger.
public struct AppliedStrataMigration: Hashable, Sendable {
    /// The model the database belongs to.
    public var model: String
    /// The version that was applied.
    public var version: Int
    /// The checksum of the SQL that was applied.
    public var checksum: String
    /// When it was applied, in seconds since 1970.
    public var appliedAt: Double

    /// Creates a ledger entry.
    public init(model: String, version: Int, checksum: String, appliedAt: Double) {
        self.model = model
        self.version = version
        self.checksum = checksum
        self.appliedAt = appliedAt
    }
}
