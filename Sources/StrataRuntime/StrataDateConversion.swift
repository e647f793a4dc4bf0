/// The conversion of a database written by Strata 0.5 or earlier: the Date columns of the version
/// it is at, from seconds since 1970 to seconds since 2001 (``SQLiteDateFormat/current``).
/// The SQLite migrator (`SQLiteMigrator`) runs it in one transaction, with the row of
/// `strata_storage` (`StrataStorageFormat`) that keeps it from running again, before any pending
/// migration.
public struct StrataDateConversion: Hashable, Sendable {
    /// The version the database is at.
    public var version: Int
    /// The columns converted: those storing Dates at `version`.
    public var columns: [SQLiteDateColumn]

    /// Creates a conversion.
    public init(version: Int, columns: [SQLiteDateColumn]) {
        self.version = version
        self.columns = columns
    }

    /// The statements, one per column, in order.
    public var statements: [String] {
        columns.map { $0.conversionSQL(from: .secondsSince1970) }
    }
}
