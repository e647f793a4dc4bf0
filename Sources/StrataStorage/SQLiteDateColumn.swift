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
    /// With `rowByRow`, the statement changes the one row whose rowid is its parameter.
    public func conversionSQL(from old: SQLiteDateFormat, to new: SQLiteDateFormat = .current, rowByRow: Bool = false)
        -> String
    {
        let table = Self.quoted(self.table)
        let column = Self.quoted(self.column)
        let shift = new.unixEpochOffset - old.unixEpochOffset
        let change = shift >= 0 ? "\(column) - \(shift)" : "\(column) + \(-shift)"
        return "UPDATE \(table) SET \(column) = \(change) WHERE \(rowByRow ? "rowid = ? AND " : "")\(isNumber)"
    }

    /// The rowids of the rows a conversion changes, in ascending order of the column: the order in
    /// which lowering them one by one (from seconds since 1970 to seconds since 2001) never makes
    /// two rows of a unique column equal on the way.
    public var rowsInOrderSQL: String {
        "SELECT rowid FROM \(Self.quoted(table)) WHERE \(isNumber) ORDER BY \(Self.quoted(column))"
    }

    /// The condition that the column holds a number (what any Strata version stored).
    private var isNumber: String { "typeof(\(Self.quoted(column))) IN ('real', 'integer')" }

    /// An identifier in double quotes, `"` doubled.
    private static func quoted(_ name: String) -> String {
        "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
