import ArgumentParser
import StrataCLI

/// `strata-generator`: the generator commands of `strata` without those that talk to databases
/// (`migrate`, `verify`). StrataPlugin and StrataCommand run it, so a package using the plugins
/// builds the generator alone for the host, not a PostgreSQL client and its TLS stack.
@main
struct StrataGenerator: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "strata-generator",
        abstract: "The code generator behind StrataPlugin and StrataCommand: strata without migrate and verify.",
        discussion: "The commands behave exactly as in `strata`; use `strata` itself for migrate and verify.",
        subcommands: GeneratorCommands.visible + GeneratorCommands.plugin
    )
}
