import StrataChecksum
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
    /// The oldest version of the model whose generated code keeps working against a database at
    /// this version (recorded in the ledger's `compatible_from`): below `version` when this
    /// version and the ones before it down to that version only add or relax (see "Rolling
    /// deploys" in Docs/Migrations.md); nil for this version only.
    public var compatibleFrom: Int?
    /// Why code of the version before cannot run against a database at this version (e.g.
    /// `renames Post.title to headline`), recorded in the ledger's `incompatibility` so that older
    /// code refusing the database can say why; nil when it can, or when unknown.
    public var incompatibility: String?
    /// The contract of a rolling version (PostgreSQL, `migrations/vN.contract.sql`): statements
    /// run in one transaction once no instance runs code of the version before (`strata migrate
    /// --contract`, or before the next version), which drop what only that code needed. After
    /// it the ledger records ``contractIncompatibility``. Nil for a version applied whole.
    public var contract: String?
    /// Why code of the version before cannot run against this version once its ``contract`` ran.
    public var contractIncompatibility: String?

    /// The oldest code version the ledger records for this migration: ``compatibleFrom``, or the
    /// version itself.
    public var recordedCompatibleFrom: Int { min(compatibleFrom ?? version, version) }

    /// Creates a migration.
    public init(
        version: Int, sql: String, checksum: String, legacyChecksum: String? = nil, dateColumns: [SQLiteDateColumn] = [],
        compatibleFrom: Int? = nil, incompatibility: String? = nil, contract: String? = nil,
        contractIncompatibility: String? = nil
    ) {
        self.contract = contract
        self.contractIncompatibility = contractIncompatibility
        self.version = version
        self.sql = sql
        self.checksum = checksum
        self.legacyChecksum = legacyChecksum
        self.dateColumns = dateColumns
        self.compatibleFrom = compatibleFrom
        self.incompatibility = incompatibility
    }

    /// A migration whose Date columns are given as ``SQLiteDateColumn/list(_:)`` writes them
    /// (`"table" ("column", "column")`, a line per table): how generated code lists them.
    public init(
        version: Int, sql: String, checksum: String, legacyChecksum: String? = nil, dateColumns list: String,
        compatibleFrom: Int? = nil, incompatibility: String? = nil, contract: String? = nil,
        contractIncompatibility: String? = nil
    ) {
        self.init(
            version: version, sql: sql, checksum: checksum, legacyChecksum: legacyChecksum,
            dateColumns: SQLiteDateColumn.columns(inList: list), compatibleFrom: compatibleFrom,
            incompatibility: incompatibility, contract: contract, contractIncompatibility: contractIncompatibility)
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
    /// The oldest code version that can run against a database at this version
    /// (``StrataMigration/compatibleFrom``); nil for a row written before Strata recorded it,
    /// which only code knowing this version accepts.
    public var compatibleFrom: Int?
    /// Why code of the version before cannot run against this version, when recorded.
    public var incompatibility: String?

    /// Creates a ledger entry.
    public init(
        model: String, version: Int, checksum: String, appliedAt: Double, compatibleFrom: Int? = nil,
        incompatibility: String? = nil
    ) {
        self.model = model
        self.version = version
        self.checksum = checksum
        self.appliedAt = appliedAt
        self.compatibleFrom = compatibleFrom
        self.incompatibility = incompatibility
    }
}
