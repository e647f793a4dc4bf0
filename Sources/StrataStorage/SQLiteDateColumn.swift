/// A column that stores `Date` values in SQLite (a `Date` field, or a reference to an entity whose
/// key is one): what the conversion of an old database's dates rewrites.
public struct SQLiteDateColumn: Hashable, Sendable {
    /// The table's name, unquoted.
    public var table: String
    /// The column's name, unquoted.
    public var column: String

    /// Creates a column of `table`.
    public init(table: String, column: String) {
        self.table = table
        self.column = column
    }

    /// The statement that rewrites the column's values from `old` to `new` format: each stored
    /// number is shifted by the difference of the two epochs; NULL and values that are not numbers
    /// (which no Strata version wrote) are left as they are.
    /// `UPDATE "t" SET "c" = "c" - 978307200 WHERE typeof("c") IN ('real', 'integer')`.
    public func conversionSQL(from old: SQLiteDateFormat, to new: SQLiteDateFormat = .current) -> String {
        let table = Self.quoted(self.table)
        let column = Self.quoted(self.column)
        let shift = new.unixEpochOffset - old.unixEpochOffset
        let change = shift >= 0 ? "\(column) - \(shift)" : "\(column) + \(-shift)"
        return "UPDATE \(table) SET \(column) = \(change) WHERE typeof(\(column)) IN ('real', 'integer')"
    }

    /// An identifier in double quotes, `"` doubled.
    private static func quoted(_ name: String) -> String {
        "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
