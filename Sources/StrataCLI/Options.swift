import Foundation
import ArgumentParser
import StrataCore

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

    @Option(
        name: .long, parsing: .upToNextOption,
        help: ArgumentHelp(
            "The databases whose Swift is generated (SQL is generated for every one): sqlite, postgres (default: both).",
            valueName: "database"))
    package var databases: [SQLDialect] = SQLDialect.allCases

    package init() {}

    /// Throws when a file is where the output folder should be: nothing can be compared with it
    /// (and every generated file would be reported missing, in full).
    package func requireFolder() throws {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: output, isDirectory: &isDirectory), !isDirectory.boolValue {
            throw CouldNotRun("cannot read \(output): a file is where the output folder should be")
        }
    }
}

/// `--format text|json`, for the commands a tool may read.
package struct FormatOptions: ParsableArguments {
    @Option(help: "Output format: text (for people) or json (one JSON value on standard output, for tools).")
    package var format: OutputFormat = .text

    package init() {}
}

extension OutputFormat: ExpressibleByArgument {}
