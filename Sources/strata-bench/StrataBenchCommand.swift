import ArgumentParser
import Foundation
import StrataBench

/// `swift run -c release strata-bench [--only sections] [--quick] [--format table|json]`.
@main
struct StrataBenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "strata-bench",
        abstract: "Strata's performance suite: generator scale, repository throughput, migration cost, plugin overhead, memory, Core Data store import, writer stalls under PostgreSQL migrations.",
        discussion: """
            Every figure is printed with a baseline measured in the same run and the ratio between them, \
            so a regression shows on any machine. Run it in release mode:
              swift run -c release strata-bench

            The plugin section builds the consumer package (Tests/Consumer) twice, with and without the \
            plugin, in a work folder kept between runs: the first run builds their dependencies once.
            """,
        subcommands: [Run.self, Child.self],
        defaultSubcommand: Run.self
    )

    /// The suite.
    struct Run: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "run", abstract: "Run the suite (the default).")

        @Option(
            name: .long,
            help: ArgumentHelp(
                "Sections to run, comma-separated: \(Section.allCases.map(\.rawValue).joined(separator: ",")).",
                valueName: "sections"))
        var only: String?

        @Flag(name: .long, help: "Scale down: smaller models and tables, fewer repetitions.")
        var quick = false

        @Option(name: .long, help: ArgumentHelp("table or json.", valueName: "format"))
        var format: OutputFormat = .table

        @Option(name: .long, help: ArgumentHelp("The Strata repository root (default: the current folder).", valueName: "dir"))
        var root: String?

        @Option(
            name: .long,
            help: ArgumentHelp(
                "Where the plugin section keeps its consumer packages (default: <root>/.build-bench-consumer).", valueName: "dir"))
        var consumerWork: String?

        enum OutputFormat: String, ExpressibleByArgument {
            case table, json
        }

        func validate() throws {
            if let only {
                for name in only.split(separator: ",") where Section(rawValue: name.trimmingCharacters(in: .whitespaces)) == nil {
                    throw ValidationError(
                        "unknown section '\(name)'; expected some of \(Section.allCases.map(\.rawValue).joined(separator: ", "))")
                }
            }
        }

        func run() throws {
            let sections =
                only.map { $0.split(separator: ",").compactMap { Section(rawValue: $0.trimmingCharacters(in: .whitespaces)) } }
                ?? Section.allCases
            let rootPath = URL(fileURLWithPath: root ?? FileManager.default.currentDirectoryPath).standardizedFileURL.path
            guard FileManager.default.fileExists(atPath: (rootPath as NSString).appendingPathComponent("Schemas/MyTODO/v1.yaml")) else {
                throw ValidationError("\(rootPath) is not the Strata repository (no Schemas/MyTODO); run from it or pass --root")
            }
            let scratch = (NSTemporaryDirectory() as NSString).appendingPathComponent("strata-bench-\(ProcessInfo.processInfo.processIdentifier)")
            try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
            // Kept when a section fails: its failure names a log in it.
            var keepScratch = false
            defer { if !keepScratch { try? FileManager.default.removeItem(atPath: scratch) } }
            let suite = Suite(
                sections: sections, quick: quick, root: rootPath, scratch: scratch,
                consumerWork: consumerWork ?? (rootPath as NSString).appendingPathComponent(".build-bench-consumer"),
                executable: Subprocess.currentExecutable)
            #if DEBUG
                FileHandle.standardError.write(Data("warning: a debug build measures the optimizer's absence; use `swift run -c release strata-bench`\n".utf8))
            #endif
            let report = try suite.run { line in
                FileHandle.standardError.write(Data("… \(line)\n".utf8))
            }
            switch format {
            case .table: print(report.table())
            case .json: print(try report.json())
            }
            // Every section that could be measured is reported; a section that failed fails the run.
            if !report.failures.isEmpty {
                keepScratch = true
                FileHandle.standardError.write(Data("the scratch folder \(scratch) is kept for the failed sections' logs\n".utf8))
                throw ExitCode.failure
            }
        }
    }

    /// A measured part run in a child process (used by the memory section).
    struct Child: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "child", abstract: "Run one measured part in this process (used by the suite).", shouldDisplay: false)

        @Argument(help: "The task and its arguments.")
        var arguments: [String]

        func run() throws {
            try ChildTask.run(arguments)
        }
    }
}
