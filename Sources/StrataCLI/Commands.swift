import ArgumentParser
import StrataCore

/// The commands that need the generator alone (no database client): shared by `strata` and by
/// `strata-generator`, the small tool that StrataPlugin and StrataCommand run.
package enum GeneratorCommands {
    /// The commands users run: generate, check, lint, plan.
    package static let visible: [any ParsableCommand.Type] = [Generate.self, Check.self, Lint.self, Plan.self]
    /// The commands the plugins run (hidden from `--help`).
    package static let plugin: [any ParsableCommand.Type] = [BuildPlugin.self, GenerateModels.self]
}

/// A command whose output depends on the ``GeneratorConfiguration`` (the command generated headers
/// and hints name): ``CommandRunner`` runs it with the configuration of the tool that parsed it.
package protocol ConfiguredCommand: ParsableCommand {
    /// Runs the command, rendering for `configuration`.
    func run(_ configuration: GeneratorConfiguration) throws
}

extension ConfiguredCommand {
    /// Runs the command as `strata` does (``GeneratorConfiguration/commandLine``).
    package func run() throws { try run(.commandLine) }
}
