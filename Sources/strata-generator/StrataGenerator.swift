import ArgumentParser
import Foundation
import StrataCLI
import StrataCore
import StrataRelease

/// `strata-generator`: the generator commands of `strata` without those that talk to databases
/// (`migrate`, `verify`). StrataPlugin and StrataCommand run it, so a package using the plugins
/// builds the generator alone for the host, not a PostgreSQL client and its TLS stack.
struct StrataGenerator: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "strata-generator",
        abstract: "The code generator behind StrataPlugin and StrataCommand: strata without migrate and verify.",
        discussion: """
            The commands behave exactly as in `strata`, with the same exit statuses (0 success, 1 \
            problems found, 2 could not run, 64 usage); use `strata` itself for migrate and verify.
            """,
        version: StrataVersion.current,
        subcommands: GeneratorCommands.visible + GeneratorCommands.plugin
    )
}

/// Runs `strata-generator` with the exit-status contract of `StrataExitCode`.
@main
enum StrataGeneratorMain {
    static func main() async {
        // The plugins' tool: generated files and hints name the command plugin, which is what a
        // package using the plugins has.
        exit(await CommandRunner.run(StrataGenerator.self, configuration: .plugin))
    }
}
