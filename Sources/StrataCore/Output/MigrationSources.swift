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

    /// Creates a migration source, computing its checksum.
    public init(version: Int, sql: String) {
        self.version = version
        self.sql = sql
        self.checksum = MigrationSources.checksum(sql)
    }
}

/// Where generated Swift (`<Model>Migrations.swift`) and the `strata migrate` command get the
/// migrations they apply: the generator's own migration files, so both apply the same SQL and
/// record the same checksums.
public enum MigrationSources {
    /// The SQLite migrations of `history`, oldest first, as `Generator.files(for:)` writes them.
    public static func sqlite(for history: SchemaHistory) -> [MigrationSource] {
        sqlite(model: history.model, in: Generator.files(for: history))
    }

    /// The SQLite migrations of `model` among generated files (paths relative to the output
    /// folder), oldest first, stopping at the first missing version.
    public static func sqlite(model: String, in files: [GeneratedFile]) -> [MigrationSource] {
        of(.sqlite, model: model, in: files)
    }

    /// The PostgreSQL migrations of `history`, oldest first, as `Generator.files(for:)` writes them.
    public static func postgres(for history: SchemaHistory) -> [MigrationSource] {
        of(.postgres, model: history.model, in: Generator.files(for: history))
    }

    /// One dialect's migrations of `model` among generated files (paths relative to the output
    /// folder), oldest first, stopping at the first missing version.
    public static func of(_ dialect: SQLDialect, model: String, in files: [GeneratedFile]) -> [MigrationSource] {
        let folder = OutputLayout.sqlFolder(model: model, dialect: dialect.folderName)
        var byPath: [String: String] = [:]
        for file in files { byPath[file.path] = file.contents }
        var sources: [MigrationSource] = []
        var version = 1
        while let sql = byPath["\(folder)/\(OutputLayout.migrationSQL(version: version))"] {
            sources.append(MigrationSource(version: version, sql: sql))
            version += 1
        }
        return sources
    }

    /// The ledger checksum of a migration: ``MigrationChecksum/of(_:)`` (in StrataStorage, so
    /// that the runtime computes the same one).
    public static func checksum(_ sql: String) -> String { MigrationChecksum.of(sql) }
}
