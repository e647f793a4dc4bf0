import ArgumentParser

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
        subcommands: [Generate.self, Check.self, Lint.self, Plan.self, Migrate.self, Verify.self, BuildPlugin.self, GenerateModels.self]
    )
}

/// Options shared by every command that reads schemas.
struct SchemaOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The folder of model folders.", valueName: "dir"))
    var schemas = "Schemas"
}

/// Options of the commands that produce output.
struct OutputOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The folder generated files are written to.", valueName: "dir"))
    var output = "Generated"
}
