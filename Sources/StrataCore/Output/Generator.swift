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

    /// Every output file of a model, given its migration plans, in a deterministic order: the
    /// Swift files as `OutputLayout` lists them, then the SQL of each dialect.
    public static func files(for history: SchemaHistory, plans: [MigrationPlan]) -> [GeneratedFile] {
        var files: [GeneratedFile] = []
        render(for: history, plans: plans) { files.append($0) }
        return inListingOrder(files, model: history.model, path: \.path)
    }

    /// `items` (a model's files, in rendering order) in the order ``files(for:plans:)`` lists them.
    static func inListingOrder<Item>(_ items: [Item], model: String, path: (Item) -> String) -> [Item] {
        let swiftFolder = OutputLayout.swiftFolder(model: model)
        let swiftPaths = OutputLayout.swiftFiles(model: model).map { "\(swiftFolder)/\($0)" }
        func rank(_ item: Item) -> Int { swiftPaths.firstIndex(of: path(item)) ?? swiftPaths.count }
        return items.enumerated().sorted { (rank($0.element), $0.offset) < (rank($1.element), $1.offset) }.map(
            \.element)
    }

    /// Renders every output file of a model and hands each to `body` as soon as it is rendered:
    /// the renderers run concurrently (each is a pure function of the model), a few files at a
    /// time, so that a caller that writes each file as it comes holds a few files and not the
    /// whole output. The SQL comes first (in a fixed order); the Swift files of the second round
    /// embed the SQLite migrations and assemble the repositories from one part per entity.
    public static func render(
        for history: SchemaHistory, plans: [MigrationPlan], into body: (GeneratedFile) throws -> Void
    ) rethrows {
        guard let latest = history.latest else { return }
        let model = history.model
        let swiftFolder = OutputLayout.swiftFolder(model: model)
        @Sendable func swiftFile(_ name: String, _ contents: String) -> GeneratedFile {
            GeneratedFile(path: "\(swiftFolder)/\(model)\(name).swift", contents: contents)
        }
        let smallSwift: [@Sendable () -> GeneratedFile] = [
            { swiftFile("Models", SwiftModelRenderer(schema: latest).render()) },
            { swiftFile("Database", SwiftDatabaseRenderer(schema: latest).render()) },
        ]
        // The SQLite migrations are kept for the migrations file, which embeds them.
        let sqliteMigrations =
            OutputLayout.sqlFolder(model: model, dialect: SQLDialect.sqlite.folderName) + "/migrations/"
        var kept: [GeneratedFile] = []
        try Parallel.forEach(smallSwift + sqlJobs(for: history, latest: latest, plans: plans)) { file in
            if file.path.hasPrefix(sqliteMigrations) { kept.append(file) }
            try body(file)
        }
        let migrations = MigrationSources.sqlite(model: model, in: kept)
        kept = []
        let repositories = SwiftRepositoryRenderer(schema: latest)
        let migrationsJob: @Sendable () -> RenderedPart = {
            .file(SwiftMigrationsRenderer(schema: latest, migrations: migrations).render())
        }
        let sectionJobs = repositories.sectionJobs().map { job -> @Sendable () -> RenderedPart in { .section(job()) } }
        let parts = Parallel.map([migrationsJob] + sectionJobs)
        var sections: [SwiftWriter] = []
        sections.reserveCapacity(parts.count)
        var migrationsSwift = ""
        for part in consume parts {
            switch part {
            case .file(let contents): migrationsSwift = contents
            case .section(let section): sections.append(section)
            }
        }
        try body(swiftFile("Migrations", migrationsSwift))
        migrationsSwift = ""
        try body(swiftFile("Repositories", repositories.assemble(consume sections)))
    }

    /// A part rendered in the second round: a whole file or an entity's part of the repositories.
    private enum RenderedPart: Sendable {
        case file(String)
        case section(SwiftWriter)
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
