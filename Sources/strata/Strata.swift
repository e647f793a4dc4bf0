import ArgumentParser
import StrataCLI

/// The `strata` command-line tool.
@main
struct Strata: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "strata",
        abstract: "Generate Swift models, SQL and migrations from versioned YAML data models.",
        discussion: """
            Each model is a folder of versions, Schemas/<Model>/v1.yaml, v2.yaml, …; the highest is the
            current one and every earlier version is frozen (its checksum is in strata.lock).
            Generated output goes to Generated/<Model>/.
            """,
        subcommands: GeneratorCommands.visible + [Migrate.self, Verify.self] + GeneratorCommands.plugin
    )
}
