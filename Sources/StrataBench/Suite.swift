import Foundation
import StrataCore
import StrataPostgres

/// The whole performance suite: which sections run, at which scale, where.
public struct Suite: Sendable {
    /// The sections to run.
    public var sections: [Section]
    /// A scaled-down run (smaller models and tables, fewer repetitions) for a quick look.
    public var quick: Bool
    /// The repository root (`Package.swift`, `Schemas/MyTODO`, `Tests/Consumer`).
    public var root: String
    /// A scratch folder for this run (removed by the caller).
    public var scratch: String
    /// Where the plugin section keeps its consumer packages between runs.
    public var consumerWork: String
    /// This executable, for the memory section's children.
    public var executable: String

    /// A suite.
    public init(sections: [Section], quick: Bool, root: String, scratch: String, consumerWork: String, executable: String) {
        self.sections = Section.allCases.filter(sections.contains)
        self.quick = quick
        self.root = root
        self.scratch = scratch
        self.consumerWork = consumerWork
        self.executable = executable
    }

    /// The generator section's model sizes.
    public var generatorSizes: [Int] { quick ? [10, 100] : [10, 100, 1_000] }
    /// The generator section's timed runs per size.
    public var generatorRepetitions: Int { quick ? 2 : 5 }
    /// The repository section's rows and runs.
    public var repositoryRows: Int { quick ? 10_000 : 100_000 }
    /// The repository section's runs per operation.
    public var repositoryRepetitions: Int { quick ? 2 : 5 }
    /// The PostgreSQL section's runs per operation (each insert run writes every row over the network).
    public var postgresRepetitions: Int { quick ? 1 : 3 }
    /// The migration section's rows.
    public var migrationRows: Int { quick ? 100_000 : 1_000_000 }
    /// The migration section's runs per variant.
    public var migrationRepetitions: Int { quick ? 1 : 3 }
    /// The Core Data store section's rows (in all: authors, books, many-to-many pairs).
    public var coreDataRows: Int { quick ? 100_000 : 1_000_000 }
    /// The Core Data store section's runs of each copy.
    public var coreDataRepetitions: Int { quick ? 1 : 3 }
    /// The plugin section's builds per step and package.
    public var pluginRepetitions: Int { quick ? 1 : 3 }
    /// The memory section's model size and rows.
    public var memoryEntities: Int { quick ? 100 : 1_000 }
    /// The memory section's rows fetched.
    public var memoryRows: Int { quick ? 10_000 : 100_000 }

    /// The rebase section's model size and runs.
    public var rebaseEntities: Int { quick ? 100 : 1_000 }
    public var rebaseRepetitions: Int { quick ? 1 : 3 }

    /// The stalls section's rows (the table the writer updates while each migration runs).
    public var stallRows: Int { quick ? 20_000 : 1_000_000 }

    /// The compile section's model size.
    public var compileEntities: Int { quick ? 20 : 100 }
    /// Builds per compile figure (the fastest counts): three, since one of them often shares the
    /// second core with another tenant on a 2-core machine.
    public var compileRepetitions: Int { quick ? 1 : 3 }

    /// What the run is configured to do, for the report.
    public var settings: [String: String] {
        var settings = ["mode": quick ? "quick" : "full", "sections": sections.map(\.rawValue).joined(separator: ",")]
        for section in sections {
            switch section {
            case .generator:
                settings["generator"] =
                    "\(generatorSizes.map { Format.count($0) }.joined(separator: "/")) entities, fastest of \(generatorRepetitions)"
            case .repository:
                settings["repository"] = "\(Format.count(repositoryRows)) rows, fastest of \(repositoryRepetitions)"
            case .migration:
                settings["migration"] = "\(Format.count(migrationRows)) rows, fastest of \(migrationRepetitions)"
            case .plugin:
                settings["plugin"] = "fastest of \(pluginRepetitions) builds"
            case .memory:
                settings["memory"] =
                    "\(Format.count(memoryEntities)) entities, \(Format.count(memoryRows)) rows, "
                    + "largest allowed input \(Format.bytes(Limits.versionFileBytes))"
            case .compile:
                settings["compile"] = "\(Format.count(compileEntities)) entities, debug and release, fastest of \(compileRepetitions)"
            case .coredata:
                settings["coredata"] = "\(Format.count(coreDataRows)) rows, fastest of \(coreDataRepetitions)"
            case .rebase:
                settings["rebase"] = "\(Format.count(rebaseEntities)) entities, fastest of \(rebaseRepetitions)"
            case .stalls:
                settings["stalls"] =
                    "\(Format.count(stallRows)) rows, \(WriterStallModel.changes.count) migrations, lock timeout 300 ms, 10 s of retries"
            case .postgres:
                settings["postgres"] =
                    "\(Format.count(repositoryRows)) rows, migration over \(Format.count(migrationRows)) items, fastest of \(postgresRepetitions)"
            }
        }
        #if DEBUG
            settings["build"] = "DEBUG (use -c release)"
        #else
            settings["build"] = "release"
        #endif
        settings["cores"] = "\(ProcessInfo.processInfo.activeProcessorCount)"
        return settings
    }

    /// Runs the sections in order; `progress` gets a line as each part starts.
    public func run(progress: (String) -> Void) throws -> Report {
        var figures: [Figure] = []
        var failures: [String: String] = [:]
        for section in sections {
            do {
                figures += try measure(section, progress: progress)
            } catch {
                failures[section.rawValue] = "\(error)"
                progress("\(section.rawValue): FAILED: \(error)")
            }
        }
        return Report(figures: figures, settings: settings, failures: failures)
    }

    /// The figures of one section.
    private func measure(_ section: Section, progress: (String) -> Void) throws -> [Figure] {
        var figures: [Figure] = []
        switch section {
        case .generator:
            figures += try GeneratorBenchmark(sizes: generatorSizes, repetitions: generatorRepetitions, workDirectory: scratch)
                .run(progress: progress)
        case .repository:
            progress("repository: \(Format.count(repositoryRows)) rows")
            figures += try RepositorySection.run(rows: repositoryRows, repetitions: repositoryRepetitions)
        case .migration:
            figures += try MigrationBenchmark(
                rows: migrationRows, repetitions: migrationRepetitions, workDirectory: scratch,
                schemasDirectory: (root as NSString).appendingPathComponent("Schemas")
            ).run(progress: progress)
        case .plugin:
            figures += try PluginBenchmark(root: root, work: consumerWork, repetitions: pluginRepetitions)
                .run(progress: progress)
        case .memory:
            figures += try MemoryBenchmark(
                entities: memoryEntities, rows: memoryRows, repetitions: quick ? 1 : 2, workDirectory: scratch,
                executable: executable
            ).run(progress: progress)
            let strata = try LargestInputBenchmark.strataExecutable(root: root, benchExecutable: executable, progress: progress)
            figures += try LargestInputBenchmark(
                strata: strata, repetitions: quick ? 1 : 2, workDirectory: scratch, executable: executable
            ).run(progress: progress)
        case .postgres:
            figures += try PostgresSection(
                root: root, rows: repositoryRows, repetitions: postgresRepetitions, scratch: scratch,
                migrationRows: migrationRows)
                .run(progress: progress)
        case .stalls:
            // The default lock timeout, but 10 s of retries rather than 60 s: a version that cannot
            // get its locks under the writer retries its whole backfill at each attempt.
            figures += try WriterStallBenchmark(
                rows: stallRows, root: root, scratch: scratch,
                lockBudget: PostgresLockBudget(totalWait: .seconds(10))
            ).run(progress: progress)
        case .rebase:
            figures += try RebaseBenchmark(entities: rebaseEntities, repetitions: rebaseRepetitions, workDirectory: scratch)
                .run(progress: progress)
        case .coredata:
            figures += try CoreDataStoreBenchmark(rows: coreDataRows, repetitions: coreDataRepetitions, workDirectory: scratch)
                .run(progress: progress)
        case .compile:
            let work = ((consumerWork as NSString).deletingLastPathComponent as NSString).appendingPathComponent(".build-bench-compile")
            figures += try CompileBenchmark(
                root: root, work: work, entities: compileEntities, configurations: quick ? ["debug"] : ["debug", "release"],
                repetitions: compileRepetitions
            ).run(progress: progress)
        }
        return figures
    }
}
