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

    /// `columns` as generated code lists them: one line per run of columns of the same table,
    /// `"table" ("column", "column")`, every name quoted as a SQL identifier (`"` doubled), so
    /// that any name reads back unchanged through ``columns(inList:)``. One string literal is what
    /// the compiler reads fastest: an array literal of a thousand `SQLiteDateColumn(table:column:)`
    /// calls took a release build 16 s.
    public static func list(_ columns: [SQLiteDateColumn]) -> String {
        var list = ""
        var index = columns.startIndex
        while index < columns.endIndex {
            let table = columns[index].table
            var end = index
            while end < columns.endIndex, columns[end].table == table { end += 1 }
            if !list.isEmpty { list += "\n" }
            list += quoted(table) + " ("
            list += columns[index..<end].map { quoted($0.column) }.joined(separator: ", ")
            list += ")"
            index = end
        }
        return list
    }

    /// The columns of a list written by ``list(_:)``, in order. Outside quoted names only the
    /// parentheses count: a quoted name before `(` is a table, each one inside is a column of it.
    public static func columns(inList list: String) -> [SQLiteDateColumn] {
        var columns: [SQLiteDateColumn] = []
        var table: String?
        var isInColumns = false
        var bytes = Array(list.utf8)[...]
        while let byte = bytes.popFirst() {
            switch byte {
            case UInt8(ascii: "("): isInColumns = true
            case UInt8(ascii: ")"): isInColumns = false
            case UInt8(ascii: "\""):
                var name: [UInt8] = []
                while let next = bytes.popFirst() {
                    if next == UInt8(ascii: "\"") {
                        guard bytes.first == UInt8(ascii: "\"") else { break }
                        bytes.removeFirst()
                    }
                    name.append(next)
                }
                let text = String(decoding: name, as: UTF8.self)
                if isInColumns, let table {
                    columns.append(SQLiteDateColumn(table: table, column: text))
                } else if !isInColumns {
                    table = text
                }
            default: break
            }
        }
        return columns
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
    private static func quoted(_ name: String) -> String { SQLIdentifier.quoted(name) }
}
