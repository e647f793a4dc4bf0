/// How the reader of generated files regenerates them: the command that generated headers and
/// the commands' hints name.
///
/// A package that uses the plugins has no `strata` command; its files name the command plugin.
/// The command that runs chooses it once, in its ``GeneratorConfiguration`` (the plugins' tool
/// chooses `.plugin`), which every renderer is given.
public enum Regeneration: String, CaseIterable, Sendable {
    /// The `strata` command-line tool (this repository, or a checkout of it).
    case commandLine = "cli"
    /// The StrataCommand plugin of a package that uses the plugins.
    case plugin

    /// The command that regenerates `Generated/` and `strata.lock`.
    public var command: String {
        switch self {
        case .commandLine: "strata generate"
        case .plugin: "swift package --allow-writing-to-package-directory strata-generate"
        }
    }
}
