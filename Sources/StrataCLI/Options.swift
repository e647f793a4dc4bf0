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
extension AccessLevel: ExpressibleByArgument {}

/// The formats of the commands a pull request's checks run (`check`, `lint`, `plan`).
package enum ReviewFormat: String, CaseIterable, Sendable, ExpressibleByArgument {
    /// For people (as ``OutputFormat/text``).
    case text
    /// For tools (as ``OutputFormat/json``).
    case json
    /// GitHub Actions workflow commands (`::error file=…,line=…,col=…::message`), one per
    /// diagnostic on standard output, so that each lands on its line of the pull request's diff.
    case github
    /// A Markdown report for a pull request comment (`plan --base` only).
    case markdown
}

/// `--format text|json|github` (and `markdown` where a command allows it).
package struct ReviewFormatOptions: ParsableArguments {
    @Option(
        help: """
            Output format: text (for people), json (one JSON value, for tools), github (GitHub Actions \
            annotations: ::error file=…,line=…,col=…::message), markdown (plan --base: a pull request report).
            """)
    package var format: ReviewFormat = .text

    package init() {}

    /// Throws a usage error when the format is markdown and the command does not write it.
    package func requireNotMarkdown(_ command: String) throws {
        if format == .markdown { throw ValidationError("--format markdown is for `strata plan --base`, not `strata \(command)`") }
    }
}
