// Shared by the CLI (through StrataCore) and the plugins, which cannot import library targets:
// the one definition of where generated files go.

/// Where Strata writes each output of a model, relative to the output folder (`Generated/`).
public enum OutputLayout {
    /// The Swift files of a model for the databases named (`sqlite`, `postgres`; every one when
    /// nil). Their names depend on the model name, the databases and whether the model folder
    /// holds query files (`queries/*.sql`) only, so that the build plugin can declare them
    /// without reading the schema; every one is always written. Query files add the shared row
    /// types (`<Model>QueryRows.swift`) and each database's queries (`<Model>Queries.swift`,
    /// `<Model>PostgresQueries.swift`).
    public static func swiftFiles(model: String, databases: [String]? = nil, hasQueries: Bool = false) -> [String] {
        let wanted = databases ?? sqlDialects
        var files = ["\(model)Models.swift", "\(model)Records.swift"]
        if hasQueries { files.append("\(model)QueryRows.swift") }
        if wanted.contains("sqlite") {
            files += ["\(model)Repositories.swift", "\(model)Database.swift", "\(model)Migrations.swift"]
            if hasQueries { files.append("\(model)Queries.swift") }
        }
        if wanted.contains("postgres") {
            files += [
                "\(model)PostgresRepositories.swift", "\(model)PostgresDatabase.swift", "\(model)PostgresMigrations.swift",
            ]
            if hasQueries { files.append("\(model)PostgresQueries.swift") }
        }
        return files
    }

    /// The folder of a model's named queries (`*.sql`), relative to its model folder.
    public static let queriesFolder = "queries"

    /// The folder of a model's Swift files, relative to the output folder.
    public static func swiftFolder(model: String) -> String { "\(model)/Swift" }
}

extension OutputLayout {
    /// The SQL dialects of the output, by folder name, in output order.
    public static let sqlDialects = ["sqlite", "postgres"]

    /// The folder of a model's SQL for one dialect, relative to the output folder (`MyTODO/sqlite`).
    public static func sqlFolder(model: String, dialect: String) -> String { "\(model)/\(dialect)" }

    /// The latest version created from empty, relative to a SQL folder.
    public static let schemaSQL = "schema.sql"

    /// The migration into `version` (from version - 1, or from empty for version 1), relative to a SQL folder.
    public static func migrationSQL(version: Int) -> String { "migrations/v\(version).sql" }

    /// The contract of a rolling version (PostgreSQL), run after code of the version before is
    /// gone, relative to a SQL folder.
    public static func contractSQL(version: Int) -> String { "migrations/v\(version).contract.sql" }
}
