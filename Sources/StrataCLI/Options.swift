import ArgumentParser

/// Options shared by every command that reads schemas.
package struct SchemaOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The folder of model folders.", valueName: "dir"))
    package var schemas = "Schemas"

    package init() {}
}

/// Options of the commands that produce output.
package struct OutputOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The folder generated files are written to.", valueName: "dir"))
    package var output = "Generated"

    package init() {}
}
