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
        let steps = Array(zip(history.versions, history.versions.dropFirst()))
        return Parallel.map(steps) { MigrationPlanner.plan(from: $0.0, to: $0.1) }
    }

    /// Every output file of a model, given its migration plans. The files are rendered
    /// concurrently (each renderer is a pure function of the model); their order is fixed.
    public static func files(for history: SchemaHistory, plans: [MigrationPlan]) -> [GeneratedFile] {
        guard let latest = history.latest else { return [] }
        let model = history.model
        let swiftFolder = OutputLayout.swiftFolder(model: model)
        // The largest file renders its entities concurrently by itself.
        let repositories = GeneratedFile(
            path: "\(swiftFolder)/\(model)Repositories.swift", contents: SwiftRepositoryRenderer(schema: latest).render())
        var jobs: [@Sendable () -> GeneratedFile] = [
            { repositories },
            { GeneratedFile(path: "\(swiftFolder)/\(model)Models.swift", contents: SwiftModelRenderer(schema: latest).render()) },
            { GeneratedFile(path: "\(swiftFolder)/\(model)Database.swift", contents: SwiftDatabaseRenderer(schema: latest).render()) },
        ]
        let swiftJobs = jobs.count
        jobs += sqlJobs(for: history, latest: latest, plans: plans)
        let rendered = Parallel.map(jobs)
        let sql = Array(rendered.dropFirst(swiftJobs))
        // The embedded migrations are the SQLite migration files themselves: one source of truth.
        let migrations = MigrationSources.sqlite(model: model, in: sql)
        let swift = Dictionary(uniqueKeysWithValues: rendered.prefix(swiftJobs).map { ($0.path, $0.contents) })
            .merging([
                "\(swiftFolder)/\(model)Migrations.swift": SwiftMigrationsRenderer(schema: latest, migrations: migrations).render()
            ]) { old, _ in old }
        var files: [GeneratedFile] = []
        for name in OutputLayout.swiftFiles(model: model) {
            let path = "\(swiftFolder)/\(name)"
            files.append(GeneratedFile(path: path, contents: swift[path] ?? ""))
        }
        return files + sql
    }

    /// The jobs rendering the SQL of every dialect: `schema.sql` (the latest version),
    /// `migrations/v1.sql`, and a migration file per plan, in this order for each dialect.
    private static func sqlJobs(for history: SchemaHistory, latest: Schema, plans: [MigrationPlan]) -> [@Sendable () -> GeneratedFile] {
        var jobs: [@Sendable () -> GeneratedFile] = []
        for dialect in SQLDialect.allCases {
            let folder = OutputLayout.sqlFolder(model: history.model, dialect: dialect.folderName)
            jobs.append {
                GeneratedFile(path: "\(folder)/\(OutputLayout.schemaSQL)", contents: SQLSchemaRenderer.schemaFile(for: latest, dialect: dialect))
            }
            if let first = history.version(1) {
                jobs.append {
                    GeneratedFile(
                        path: "\(folder)/\(OutputLayout.migrationSQL(version: 1))",
                        contents: SQLSchemaRenderer.initialMigrationFile(for: first, dialect: dialect))
                }
            }
            for plan in plans {
                jobs.append {
                    GeneratedFile(
                        path: "\(folder)/\(OutputLayout.migrationSQL(version: plan.to.version))",
                        contents: MigrationSQLRenderer.file(for: plan, dialect: dialect))
                }
            }
        }
        return jobs
    }
}
