import StrataStorage

/// What a rendering depends on besides the model and the files asked for: decided once by the
/// command that runs (`strata` or the plugins' `strata-generator`) and passed down the pipeline
/// to every renderer, so that two renderings in one process never see each other's choices.
public struct GeneratorConfiguration: Sendable, Hashable {
    /// The command generated headers and the commands' hints tell the reader to run.
    public var regeneration: Regeneration
    /// How SQLite Date literals (a Date field's default) are written: ``SQLiteDateFormat/current``,
    /// except when the generator renders a migration as Strata 0.5 did, to know the checksum old
    /// databases recorded for it (``MigrationSources``).
    public var sqliteDateFormat: SQLiteDateFormat

    /// A configuration; by default what `strata` renders.
    public init(regeneration: Regeneration = .commandLine, sqliteDateFormat: SQLiteDateFormat = .current) {
        self.regeneration = regeneration
        self.sqliteDateFormat = sqliteDateFormat
    }

    /// What the `strata` command renders: headers naming `strata generate`.
    public static let commandLine = GeneratorConfiguration()

    /// What the plugins' `strata-generator` renders: headers naming the command plugin.
    public static let plugin = GeneratorConfiguration(regeneration: .plugin)

    /// This configuration with SQLite Date literals in `format`.
    public func with(sqliteDateFormat format: SQLiteDateFormat) -> GeneratorConfiguration {
        var configuration = self
        configuration.sqliteDateFormat = format
        return configuration
    }
}
