import ArgumentParser
import Foundation
import StrataCLI
import StrataRelease

/// The `strata` command-line tool.
struct Strata: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "strata",
        abstract: "Generate Swift models, SQL and migrations from versioned YAML data models.",
        discussion: """
            Each model is a folder of versions, Schemas/<Model>/v1.yaml, v2.yaml, …; the highest is the \
            current one and every earlier version is frozen (its checksum is in strata.lock). \
            Generated output goes to Generated/<Model>/.

            Exit status (every command): 0 success; 1 problems found (diagnostics, stale output, a \
            refused migration, a failed verification); 2 could not run (I/O, a database that cannot \
            be opened, a connection); 3 credentials refused by the PostgreSQL server (migrate); \
            4 a migration failed and was rolled back (migrate); 64 usage.
            """,
        version: StrataVersion.current,
        subcommands: GeneratorCommands.visible + [Migrate.self, Verify.self, Drift.self, Rebase.self, Import.self] + GeneratorCommands.plugin
    )
}

/// Runs `strata` with the exit-status contract of `StrataExitCode`.
@main
enum StrataMain {
    static func main() async {
        exit(await CommandRunner.run(Strata.self))
    }
}
