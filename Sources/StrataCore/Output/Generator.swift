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
        @Sendable func swiftFile(_ name: String, _ contents: String) -> GeneratedFile {
            GeneratedFile(path: "\(swiftFolder)/\(model)\(name).swift", contents: contents)
        }
        // First the SQL and the small Swift files.
        let smallSwift: [@Sendable () -> GeneratedFile] = [
            { swiftFile("Models", SwiftModelRenderer(schema: latest).render()) },
            { swiftFile("Database", SwiftDatabaseRenderer(schema: latest).render()) },
        ]
        let rendered = Parallel.map(smallSwift + sqlJobs(for: history, latest: latest, plans: plans))
        let sql = Array(rendered.dropFirst(smallSwift.count))
        // Then the embedded migrations (the SQLite migration files themselves: one source of
        // truth) next to the repository file's parts, one per entity.
        let migrations = MigrationSources.sqlite(for: history, plans: plans, in: sql)
        let repositories = SwiftRepositoryRenderer(schema: latest)
        let migrationsJob: @Sendable () -> RenderedPart = {
            .file(SwiftMigrationsRenderer(schema: latest, migrations: migrations).render())
        }
        let sectionJobs = repositories.sectionJobs().map { job -> @Sendable () -> RenderedPart in { .section(job()) } }
        let parts = Parallel.map([migrationsJob] + sectionJobs)
        var sections: [SwiftWriter] = []
        var migrationsSwift = ""
        for part in parts {
            switch part {
            case .file(let contents): migrationsSwift = contents
            case .section(let section): sections.append(section)
            }
        }
        let swift =
            rendered.prefix(smallSwift.count) + [
                swiftFile("Repositories", repositories.assemble(sections)), swiftFile("Migrations", migrationsSwift),
            ]
        let files = OutputLayout.swiftFiles(model: model).map { name in
            swift.first { $0.path == "\(swiftFolder)/\(name)" }
                ?? GeneratedFile(path: "\(swiftFolder)/\(name)", contents: "")
        }
        return files + sql
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
