/// A file Strata generates, with its path relative to the output folder.
public struct GeneratedFile: Hashable, Sendable {
    /// The path relative to the output folder, with `/` separators: `MyTODO/Swift/MyTODOModels.swift`.
    public var path: String
    /// The exact contents.
    public var contents: String

    /// Creates a file.
    public init(path: String, contents: String) {
        self.path = path
        self.contents = contents
    }
}

/// Runs every renderer over a validated model history.
public enum Generator {
    /// Every output file of a model, in a deterministic order.
    public static func files(for history: SchemaHistory) -> [GeneratedFile] {
        files(for: history, plans: migrationPlans(for: history))
    }

    /// The migration plans of a model: from v1 to v2, v2 to v3, …
    public static func migrationPlans(for history: SchemaHistory) -> [MigrationPlan] {
        zip(history.versions, history.versions.dropFirst()).map { MigrationPlanner.plan(from: $0, to: $1) }
    }

    /// Every output file of a model, given its migration plans.
    public static func files(for history: SchemaHistory, plans: [MigrationPlan]) -> [GeneratedFile] {
        guard let latest = history.latest else { return [] }
        let swiftFolder = OutputLayout.swiftFolder(model: history.model)
        var files: [GeneratedFile] = []
        let sql = sqlFiles(for: history, latest: latest, plans: plans)
        // The embedded migrations are the SQLite migration files themselves: one source of truth.
        let migrations = MigrationSources.sqlite(model: history.model, in: sql)
        let swift: [String: String] = [
            "\(history.model)Models.swift": SwiftModelRenderer(schema: latest).render(),
            "\(history.model)Repositories.swift": SwiftRepositoryRenderer(schema: latest).render(),
            "\(history.model)Database.swift": SwiftDatabaseRenderer(schema: latest).render(),
            "\(history.model)Migrations.swift": SwiftMigrationsRenderer(schema: latest, migrations: migrations).render(),
        ]
        for name in OutputLayout.swiftFiles(model: history.model) {
            files.append(GeneratedFile(path: "\(swiftFolder)/\(name)", contents: swift[name] ?? ""))
        }
        files += sql
        return files
    }

    /// The SQL of every dialect: `schema.sql` (the latest version) and `migrations/v1.sql`.
    private static func sqlFiles(for history: SchemaHistory, latest: Schema, plans: [MigrationPlan]) -> [GeneratedFile] {
        var files: [GeneratedFile] = []
        for dialect in SQLDialect.allCases {
            let folder = OutputLayout.sqlFolder(model: history.model, dialect: dialect.folderName)
            files.append(
                GeneratedFile(
                    path: "\(folder)/\(OutputLayout.schemaSQL)",
                    contents: SQLSchemaRenderer.schemaFile(for: latest, dialect: dialect)))
            if let first = history.version(1) {
                files.append(
                    GeneratedFile(
                        path: "\(folder)/\(OutputLayout.migrationSQL(version: 1))",
                        contents: SQLSchemaRenderer.initialMigrationFile(for: first, dialect: dialect)))
            }
            for plan in plans {
                files.append(
                    GeneratedFile(
                        path: "\(folder)/\(OutputLayout.migrationSQL(version: plan.to.version))",
                        contents: MigrationSQLRenderer.file(for: plan, dialect: dialect)))
            }
        }
        return files
    }
}
