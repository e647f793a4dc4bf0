import StrataChecksum
import StrataStorage

/// The migration of one version as the generator writes it (`<Model>/sqlite/migrations/vN.sql`,
/// `<Model>/postgres/migrations/vN.sql`), with the checksum the migration ledger records.
public struct MigrationSource: Hashable, Sendable {
    /// The version the migration leads to.
    public var version: Int
    /// The SQL, exactly as in the generated file.
    public var sql: String
    /// ``MigrationSources/checksum(_:)`` of `sql`.
    public var checksum: String
    /// The checksum of the SQL Strata 0.5 and earlier generated for this version, when it differs
    /// (SQLite: a Date default, rendered then in seconds since 1970; PostgreSQL: every statement in
    /// the version's transaction): databases migrated by those versions recorded it, and the
    /// runtime accepts it for the versions they applied.
    public var legacyChecksum: String?
    /// The columns that store Dates at this version, which the runtime converts in a database
    /// written by Strata 0.5 or earlier that is at this version.
    public var dateColumns: [SQLiteDateColumn]
    /// The oldest version whose code can run against a database at this version, when below it
    /// (``MigrationCompatibility/compatibleFrom(_:)``): recorded in the ledger.
    public var compatibleFrom: Int?
    /// Why code of the version before cannot run against this version
    /// (``MigrationCompatibility/reason``): recorded in the ledger.
    public var incompatibility: String?
    /// A rolling version's contract (PostgreSQL, `migrations/vN.contract.sql`), exactly as in the
    /// generated file; nil for another version.
    public var contract: String?
    /// Why code of the version before cannot run against this version once its contract ran.
    public var contractIncompatibility: String?

    /// Creates a migration source, computing its checksum.
    public init(version: Int, sql: String, legacyChecksum: String? = nil, dateColumns: [SQLiteDateColumn] = []) {
        self.init(
            version: version, sql: sql, checksum: MigrationSources.checksum(sql), legacyChecksum: legacyChecksum,
            dateColumns: dateColumns)
    }

    /// Creates a migration source whose checksum of `sql` is already computed.
    init(version: Int, sql: String, checksum: String, legacyChecksum: String?, dateColumns: [SQLiteDateColumn]) {
        self.version = version
        self.sql = sql
        self.checksum = checksum
        self.legacyChecksum = legacyChecksum
        self.dateColumns = dateColumns
    }

    /// The source with the compatibility of its version among `plans` (the history's migrations).
    /// With `expanded` (PostgreSQL), a rolling version's compatibility is its expand's.
    func withCompatibility(from allowed: [Int: Int], plans: [MigrationPlan], expanded: Bool) -> MigrationSource {
        var source = self
        if let oldest = allowed[version], oldest < version { source.compatibleFrom = oldest }
        let compatibility = plans.first { $0.to.version == version }.map { MigrationCompatibility($0, expanded: expanded) }
        source.incompatibility = compatibility?.reason
        if source.contract != nil { source.contractIncompatibility = compatibility?.contractReason }
        return source
    }
}

/// Where generated Swift (`<Model>Migrations.swift`) and the `strata migrate` command get the
/// migrations they apply: the generator's own migration files, so both apply the same SQL and
/// record the same checksums.
public enum MigrationSources {
    /// The SQLite migrations of `history`, oldest first, as `Generator.files(for:)` writes them.
    public static func sqlite(for history: SchemaHistory) -> [MigrationSource] {
        of(.sqlite, for: history)
    }

    /// The PostgreSQL migrations of `history`, oldest first, as `Generator.files(for:)` writes them.
    public static func postgres(for history: SchemaHistory) -> [MigrationSource] {
        of(.postgres, for: history)
    }

    /// One dialect's migrations of `history`, oldest first, as `Generator.files(for:)` writes them
    /// (only they are rendered: no Swift, no other SQL).
    static func of(_ dialect: SQLDialect, for history: SchemaHistory) -> [MigrationSource] {
        let plans = Generator.migrationPlans(for: history)
        return of(
            dialect, history: history, plans: plans,
            in: Generator.migrationFiles(for: history, plans: plans, dialect: dialect))
    }

    /// One dialect's migrations of `history` among its generated files (paths relative to the
    /// output folder), oldest first, stopping at the first missing version. SQLite's carry their
    /// legacy checksum and Date columns (PostgreSQL stores Dates natively: nothing to convert).
    public static func of(
        _ dialect: SQLDialect, history: SchemaHistory, plans: [MigrationPlan], in files: [GeneratedFile]
    ) -> [MigrationSource] {
        let folder = OutputLayout.sqlFolder(model: history.model, dialect: dialect.folderName)
        var byPath: [String: String] = [:]
        for file in files { byPath[file.path] = file.contents }
        var sources: [MigrationSource] = []
        let allowed = MigrationCompatibility.compatibleFrom(plans, expanded: dialect == .postgres)
        var version = 1
        while let sql = byPath["\(folder)/\(OutputLayout.migrationSQL(version: version))"] {
            guard dialect == .sqlite else {
                // Databases migrated by Strata 0.6.0 or earlier recorded the checksum of every
                // statement in the transaction (``MigrationSQLRenderer/postgresFileBeforeLockSafety(for:)``).
                let current = checksum(sql)
                let earlier = plans.first { $0.to.version == version }
                    .flatMap(MigrationSQLRenderer.postgresFileBeforeLockSafety(for:)).map(checksum)
                var source = MigrationSource(
                    version: version, sql: sql, checksum: current, legacyChecksum: earlier == current ? nil : earlier,
                    dateColumns: [])
                source.contract = byPath["\(folder)/\(OutputLayout.contractSQL(version: version))"]
                sources.append(source)
                version += 1
                continue
            }
            let schema = history.version(version)
            let plan = plans.first { $0.to.version == version }
            let current = checksum(sql)
            let legacy = legacySQL(version: version, schema: schema, plan: plan).map(checksum)
            sources.append(
                MigrationSource(
                    version: version, sql: sql, checksum: current, legacyChecksum: legacy == current ? nil : legacy,
                    dateColumns: schema.map(dateColumns) ?? []))
            version += 1
        }
        return sources.map { $0.withCompatibility(from: allowed, plans: plans, expanded: dialect == .postgres) }
    }

    /// The columns of `schema` that store Dates, in entity and field order.
    public static func dateColumns(of schema: Schema) -> [SQLiteDateColumn] {
        schema.entities.flatMap { entity in
            // A Date stored as ISO 8601 text (`format:`) is no REAL to convert.
            entity.fields.filter { schema.columnEncoding(of: $0) == .date && $0.dateText == nil }.map {
                SQLiteDateColumn(table: entity.table, column: $0.column)
            }
        }
    }

    /// The SQLite migration into `version` as Strata 0.5 rendered it (Date literals in seconds since
    /// 1970), or nil when no Date default can appear in it (the text is then the current one).
    static func legacySQL(version: Int, schema: Schema?, plan: MigrationPlan?) -> String? {
        let schemas = [plan?.from, schema].compactMap { $0 }
        guard schemas.contains(where: hasDateDefault) else { return nil }
        // Its comments (the header) do not count in the checksum: the configuration's command is any.
        let legacy = GeneratorConfiguration.commandLine.with(sqliteDateFormat: .secondsSince1970)
        if let plan { return MigrationSQLRenderer.file(for: plan, dialect: .sqlite, configuration: legacy) }
        return schema.map { SQLSchemaRenderer.initialMigrationFile(for: $0, dialect: .sqlite, configuration: legacy) }
    }

    /// True when a field of `schema` that stores Dates has a default.
    private static func hasDateDefault(_ schema: Schema) -> Bool {
        schema.entities.contains { entity in
            entity.fields.contains { $0.defaultValue != nil && schema.columnEncoding(of: $0) == .date }
        }
    }

    /// The ledger checksum of a migration: ``MigrationChecksum/of(_:)`` (in StrataStorage, so
    /// that the runtime computes the same one).
    public static func checksum(_ sql: String) -> String { MigrationChecksum.of(sql) }
}
