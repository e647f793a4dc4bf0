import ArgumentParser

/// The commands that need the generator alone (no database client): shared by `strata` and by
/// `strata-generator`, the small tool that StrataPlugin and StrataCommand run.
package enum GeneratorCommands {
    /// The commands users run: generate, check, lint, plan.
    package static let visible: [any ParsableCommand.Type] = [Generate.self, Check.self, Lint.self, Plan.self]
    /// The commands the plugins run (hidden from `--help`).
    package static let plugin: [any ParsableCommand.Type] = [BuildPlugin.self, GenerateModels.self]
}
