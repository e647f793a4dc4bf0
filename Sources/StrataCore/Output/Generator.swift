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
    /// Every output file of a model, in a deterministic order: the SQL of every dialect, and the
    /// Swift of the databases in `databases` (every one by default).
    public static func files(for history: SchemaHistory, databases: [SQLDialect] = SQLDialect.allCases) -> [GeneratedFile] {
        files(for: history, plans: migrationPlans(for: history), databases: databases)
    }

    /// The migration plans of a model: from v1 to v2, v2 to v3, …
    public static func migrationPlans(for history: SchemaHistory) -> [MigrationPlan] {
        let steps = Array(zip(history.versions, history.versions.dropFirst()))
        return Parallel.map(steps) { MigrationPlanner.plan(from: $0.0, to: $0.1) }
    }

    /// Every output file of a model, given its migration plans, in a deterministic order: the
    /// Swift files as `OutputLayout` lists them, then the SQL of every dialect.
    public static func files(
        for history: SchemaHistory, plans: [MigrationPlan], databases: [SQLDialect] = SQLDialect.allCases
    ) -> [GeneratedFile] {
        var files: [GeneratedFile] = []
        render(for: history, plans: plans, databases: databases) { files.append($0) }
        return inListingOrder(files, model: history.model, path: \.path)
    }

    /// `items` (a model's files, in rendering order) in the order ``files(for:plans:databases:)``
    /// lists them.
    static func inListingOrder<Item>(_ items: [Item], model: String, path: (Item) -> String) -> [Item] {
        let swiftFolder = OutputLayout.swiftFolder(model: model)
        let swiftPaths = OutputLayout.swiftFiles(model: model, hasQueries: true).map { "\(swiftFolder)/\($0)" }
        func rank(_ item: Item) -> Int { swiftPaths.firstIndex(of: path(item)) ?? swiftPaths.count }
        return items.enumerated().sorted { (rank($0.element), $0.offset) < (rank($1.element), $1.offset) }.map(
            \.element)
    }

    /// Renders every output file of a model and hands each to `body` as soon as it is rendered:
    /// the renderers run concurrently (each is a pure function of the model), a few files at a
    /// time, so that a caller that writes each file as it comes holds a few files and not the
    /// whole output. First the SQL and the Swift files that need no SQL, then each database's
    /// embedded migrations (its migration files themselves: one source of truth) and repositories.
    public static func render(
        for history: SchemaHistory, plans: [MigrationPlan], databases: [SQLDialect] = SQLDialect.allCases,
        into body: (GeneratedFile) throws -> Void
    ) rethrows {
        guard let latest = history.latest else { return }
        let model = history.model
        let swiftFolder = OutputLayout.swiftFolder(model: model)
        @Sendable func swiftFile(_ name: String, _ contents: String) -> GeneratedFile {
            GeneratedFile(path: "\(swiftFolder)/\(model)\(name).swift", contents: contents)
        }
        let wanted = SQLDialect.allCases.filter(databases.contains)
        var smallSwift: [@Sendable () -> GeneratedFile] = [
            { swiftFile("Models", SwiftModelRenderer(schema: latest).render()) },
            { swiftFile("Records", SwiftRecordsRenderer(schema: latest).render()) },
        ]
        for dialect in wanted {
            let runtime = dialect.rules.swift
            smallSwift.append {
                swiftFile(
                    runtime.typePrefix + "Database",
                    runtime.isAsync
                        ? SwiftPostgresDatabaseRenderer(schema: latest, runtime: runtime).render()
                        : SwiftDatabaseRenderer(schema: latest, coreDataMapping: history.coreDataMapping).render())
            }
        }
        // The migration files are kept for the migrations Swift, which embeds them.
        var kept: [GeneratedFile] = []
        try Parallel.forEach(smallSwift + sqlJobs(for: history, latest: latest, plans: plans)) { file in
            if file.path.contains("/migrations/") { kept.append(file) }
            try body(file)
        }
        var jobs: [@Sendable () -> GeneratedFile] = []
        for dialect in wanted {
            let runtime = dialect.rules.swift
            let migrations = MigrationSources.of(dialect, history: history, plans: plans, in: kept)
            jobs.append {
                swiftFile(
                    runtime.typePrefix + "Migrations",
                    SwiftMigrationsRenderer(schema: latest, dialect: dialect, migrations: migrations).render())
            }
            jobs.append {
                swiftFile(
                    runtime.typePrefix + "Repositories", SwiftRepositoryRenderer(schema: latest, runtime: runtime).render())
            }
        }
        if history.hasQueryFiles {
            let queries = history.queries
            jobs.append { swiftFile("QueryRows", SwiftQueryRowsRenderer(schema: latest, queries: queries).render()) }
            for dialect in wanted {
                jobs.append {
                    swiftFile(
                        dialect.rules.swift.typePrefix + "Queries",
                        SwiftQueriesRenderer(schema: latest, queries: queries, dialect: dialect).render())
                }
            }
        }
        kept = []
        try Parallel.forEach(jobs, body)
    }

    /// The jobs rendering the SQL of every dialect: `schema.sql` (the latest version),
    /// `migrations/v1.sql`, and a migration file per plan, in this order for each dialect.
    private static func sqlJobs(for history: SchemaHistory, latest: Schema, plans: [MigrationPlan])
        -> [@Sendable () -> GeneratedFile]
    {
        var jobs: [@Sendable () -> GeneratedFile] = []
        for dialect in SQLDialect.allCases {
            let folder = OutputLayout.sqlFolder(model: history.model, dialect: dialect.folderName)
            jobs.append {
                GeneratedFile(
                    path: "\(folder)/\(OutputLayout.schemaSQL)",
                    contents: SQLSchemaRenderer.schemaFile(for: latest, dialect: dialect))
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
