/// The executable both plugins run: the `strata-generator` target of this package, `strata`'s
/// generator commands without its database client (so a package using the plugins never builds
/// PostgresNIO for the host).
enum GeneratorTool {
    /// Its name, for `PluginContext.tool(named:)`.
    static let name = "strata-generator"
}
