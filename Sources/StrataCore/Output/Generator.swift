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

/// What ``Generator/render(for:plans:databases:into:)`` hands its output to: whole files, and the
/// largest (each database's repositories) part by part, so that neither side holds them whole.
public protocol GeneratedFileSink {
    /// What taking a file can throw (`Never` for a sink that keeps files in memory).
    associatedtype Failure: Error
    /// Takes a whole file.
    mutating func take(_ file: GeneratedFile) throws(Failure)
    /// Takes the file at `path` (relative to the output folder) in parts: its text is what
    /// `parts` yields, in order.
    mutating func take(path: String, parts: inout GeneratedParts) throws(Failure)
}

/// A file's text in parts, in order, each rendered when it is asked for: a window of parts at a
/// time, concurrently, so that only the window is held.
public struct GeneratedParts: IteratorProtocol {
    private let jobs: [@Sendable () -> String]
    private let width: Int
    /// The rendered window, and the index of its next part.
    private var window: [String] = []
    private var windowNext = 0
    /// The index of the first job not rendered yet.
    private var nextJob = 0

    /// The parts `jobs` render, `width` at a time.
    init(_ jobs: [@Sendable () -> String], width: Int) {
        self.jobs = jobs
        self.width = max(1, width)
    }

    /// The next part, or nil after the last.
    public mutating func next() -> String? {
        if windowNext == window.count {
            guard nextJob < jobs.count else { return nil }
            let end = min(nextJob + width, jobs.count)
            window = Parallel.map(Array(jobs[nextJob..<end]))
            windowNext = 0
            nextJob = end
        }
        let part = window[windowNext]
        // Handed over and released: the window does not keep what was taken.
        window[windowNext] = ""
        windowNext += 1
        return part
    }
}

/// Which of a model's files a rendering produces.
public enum GeneratedOutputs: Sendable, Hashable {
    /// Every file `strata generate` writes: the SQL of every dialect, and the Swift of the
    /// databases asked for.
    case all
    /// The Swift of the databases asked for, alone: what the build plugin compiles. SQL is
    /// rendered only where that Swift embeds it (those databases' migrations), and no SQL file
    /// is produced.
    case swiftOnly
}

/// Runs every renderer over a validated model history.
public enum Generator {
    /// Every output file of a model, in a deterministic order: the SQL of every dialect, and the
    /// Swift of the databases in `databases` (every one by default); with `outputs` of
    /// ``GeneratedOutputs/swiftOnly``, that Swift alone. The Swift declarations are `access`; the
    /// files are rendered for `configuration`.
    public static func files(
        for history: SchemaHistory, databases: [SQLDialect] = SQLDialect.allCases, outputs: GeneratedOutputs = .all,
        access: AccessLevel = .public, configuration: GeneratorConfiguration = .commandLine
    ) -> [GeneratedFile] {
        files(
            for: history, plans: migrationPlans(for: history), databases: databases, outputs: outputs, access: access,
            configuration: configuration)
    }

    /// The migration plans of a model: from v1 to v2, v2 to v3, …
    public static func migrationPlans(for history: SchemaHistory) -> [MigrationPlan] {
        let steps = Array(zip(history.versions, history.versions.dropFirst()))
        return Parallel.map(steps) { MigrationPlanner.plan(from: $0.0, to: $0.1) }
    }

    /// Every output file of a model, given its migration plans, in a deterministic order: the
    /// Swift files as `OutputLayout` lists them, then the SQL of every dialect (none with
    /// ``GeneratedOutputs/swiftOnly``), rendered for `configuration`.
    public static func files(
        for history: SchemaHistory, plans: [MigrationPlan], databases: [SQLDialect] = SQLDialect.allCases,
        outputs: GeneratedOutputs = .all, access: AccessLevel = .public, configuration: GeneratorConfiguration = .commandLine
    ) -> [GeneratedFile] {
        var collected = Collected()
        render(
            for: history, plans: plans, databases: databases, outputs: outputs, access: access,
            configuration: configuration, into: &collected)
        return inListingOrder(collected.files, model: history.model, path: \.path)
    }

    /// Keeps every file whole.
    private struct Collected: GeneratedFileSink {
        var files: [GeneratedFile] = []

        mutating func take(_ file: GeneratedFile) { files.append(file) }

        mutating func take(path: String, parts: inout GeneratedParts) {
            var contents = ""
            while let part = parts.next() { contents += part }
            files.append(GeneratedFile(path: path, contents: contents))
        }
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

    /// Renders every output file of a model and hands each to `sink` as soon as it is rendered:
    /// the renderers run concurrently (each is a pure function of the model), a few files at a
    /// time, so that a sink that writes each file as it comes holds a few files and not the
    /// whole output. First the Swift files that need no SQL, then each dialect's SQL with the
    /// Swift that embeds its migrations, then each database's repositories; the large files go
    /// a file at a time in parts (``GeneratedFileSink/take(path:parts:)``), each part rendered
    /// concurrently.
    ///
    /// With `outputs` of ``GeneratedOutputs/swiftOnly`` no SQL file reaches `sink`, and only the
    /// SQL the Swift embeds is rendered: no `schema.sql`, nothing of a database not in `databases`.
    /// The renderers declare everything `public`; `access` respells it in each file or part.
    /// Every renderer is given `configuration` (the command the headers name, SQLite Date literals).
    public static func render<Sink: GeneratedFileSink>(
        for history: SchemaHistory, plans: [MigrationPlan], databases: [SQLDialect] = SQLDialect.allCases,
        outputs: GeneratedOutputs = .all, access: AccessLevel = .public,
        configuration: GeneratorConfiguration = .commandLine, into sink: inout Sink
    ) throws(Sink.Failure) {
        guard let sqlSchema = history.latest else { return }
        // The Swift sees each key as a type of its own with `typedKeys: true`; the SQL is the same.
        let latest = sqlSchema.withTypedKeys()
        let regeneration = configuration.regeneration
        let model = history.model
        let swiftFolder = OutputLayout.swiftFolder(model: model)
        @Sendable func swiftFile(_ name: String, _ contents: String) -> GeneratedFile {
            GeneratedFile(path: "\(swiftFolder)/\(model)\(name).swift", contents: access.apply(to: contents))
        }
        /// The jobs rendering the parts of a file, each part at `access`.
        func accessed(_ jobs: [@Sendable () -> String]) -> [@Sendable () -> String] {
            access == .public ? jobs : jobs.map { job -> @Sendable () -> String in { access.apply(to: job()) } }
        }
        let wanted = SQLDialect.allCases.filter(databases.contains)
        var smallSwift: [@Sendable () -> GeneratedFile] = [
            { swiftFile("Models", SwiftModelRenderer(schema: latest, regeneration: regeneration).render()) },
            { swiftFile("Records", SwiftRecordsRenderer(schema: latest, regeneration: regeneration).render()) },
        ]
        for dialect in wanted {
            let runtime = dialect.rules.swift
            smallSwift.append {
                swiftFile(
                    runtime.typePrefix + "Database",
                    runtime.isAsync
                        ? SwiftPostgresDatabaseRenderer(schema: latest, runtime: runtime, regeneration: regeneration).render()
                        : SwiftDatabaseRenderer(
                            schema: latest, coreDataMapping: history.coreDataMapping, regeneration: regeneration
                        ).render())
            }
        }
        if history.hasQueryFiles {
            let queries = history.queries
            smallSwift.append {
                swiftFile(
                    "QueryRows", SwiftQueryRowsRenderer(schema: latest, queries: queries, regeneration: regeneration).render())
            }
            for dialect in wanted {
                smallSwift.append {
                    swiftFile(
                        dialect.rules.swift.typePrefix + "Queries",
                        SwiftQueriesRenderer(schema: latest, queries: queries, dialect: dialect, regeneration: regeneration)
                            .render())
                }
            }
        }
        try Parallel.forEach(smallSwift) { (file) throws(Sink.Failure) in try sink.take(file) }
        // Then each dialect's SQL, and with it, while its migration files are at hand, the Swift
        // that embeds them (one source of truth), a part at a time: the first migration of a
        // large model holds its whole schema, and only one dialect's is held at once.
        let writesSQL = outputs == .all
        for dialect in SQLDialect.allCases where writesSQL || wanted.contains(dialect) {
            var kept: [GeneratedFile] = []
            let jobs = sqlJobs(
                for: history, latest: sqlSchema, plans: plans, dialect: dialect, schemaFile: writesSQL,
                configuration: configuration)
            try Parallel.forEach(jobs) { (file) throws(Sink.Failure) in
                if file.path.contains("/migrations/") { kept.append(file) }
                if writesSQL { try sink.take(file) }
            }
            guard wanted.contains(dialect) else { continue }
            let migrations = MigrationSources.of(dialect, history: history, plans: plans, in: kept)
            kept = []
            var parts = GeneratedParts(
                accessed(
                    SwiftMigrationsRenderer(
                        schema: latest, dialect: dialect, migrations: migrations, regeneration: regeneration
                    ).partJobs()),
                width: 8)
            try sink.take(path: swiftFile(dialect.rules.swift.typePrefix + "Migrations", "").path, parts: &parts)
        }
        // Last each database's repositories, entity by entity.
        for dialect in wanted {
            let renderer = SwiftRepositoryRenderer(schema: latest, runtime: dialect.rules.swift, regeneration: regeneration)
            let header = renderer.header() + "\n"
            let sections = renderer.sectionJobs()
            let last = sections.count - 1
            // Each entity's part whole, the file's end without trailing empty lines.
            var jobs: [@Sendable () -> String] = [{ header }]
            for (index, section) in sections.enumerated() {
                jobs.append { index == last ? section().text : section().untrimmedText }
            }
            var parts = GeneratedParts(accessed(jobs), width: 64)
            try sink.take(path: swiftFile(renderer.runtime.typePrefix + "Repositories", "").path, parts: &parts)
        }
    }

    /// The migration files of `dialect` (`migrations/v1.sql`, `v2.sql`, …), rendered exactly as
    /// ``render(for:plans:databases:outputs:access:configuration:into:)`` renders them for
    /// `configuration`, and nothing else: what `strata migrate` applies.
    static func migrationFiles(
        for history: SchemaHistory, plans: [MigrationPlan], dialect: SQLDialect,
        configuration: GeneratorConfiguration = .commandLine
    ) -> [GeneratedFile] {
        guard let latest = history.latest else { return [] }
        return Parallel.map(
            sqlJobs(
                for: history, latest: latest, plans: plans, dialect: dialect, schemaFile: false,
                configuration: configuration))
    }

    /// The jobs rendering the SQL of `dialect`: `schema.sql` (the latest version; left out
    /// without `schemaFile`), `migrations/v1.sql`, and a migration file per plan, in this order,
    /// each rendered for `configuration`.
    private static func sqlJobs(
        for history: SchemaHistory, latest: Schema, plans: [MigrationPlan], dialect: SQLDialect, schemaFile: Bool,
        configuration: GeneratorConfiguration
    ) -> [@Sendable () -> GeneratedFile] {
        var jobs: [@Sendable () -> GeneratedFile] = []
        let folder = OutputLayout.sqlFolder(model: history.model, dialect: dialect.folderName)
        if schemaFile {
            jobs.append {
                GeneratedFile(
                    path: "\(folder)/\(OutputLayout.schemaSQL)",
                    contents: SQLSchemaRenderer.schemaFile(for: latest, dialect: dialect, configuration: configuration))
            }
        }
        if let first = history.version(1) {
            jobs.append {
                GeneratedFile(
                    path: "\(folder)/\(OutputLayout.migrationSQL(version: 1))",
                    contents: SQLSchemaRenderer.initialMigrationFile(for: first, dialect: dialect, configuration: configuration))
            }
        }
        for plan in plans {
            jobs.append {
                GeneratedFile(
                    path: "\(folder)/\(OutputLayout.migrationSQL(version: plan.to.version))",
                    contents: MigrationSQLRenderer.file(for: plan, dialect: dialect, configuration: configuration))
            }
        }
        for plan in plans where dialect == .postgres && plan.to.migration.rolling {
            jobs.append {
                GeneratedFile(
                    path: "\(folder)/\(OutputLayout.contractSQL(version: plan.to.version))",
                    contents: MigrationSQLRenderer.contractFile(for: plan, configuration: configuration))
            }
        }
        return jobs
    }
}
