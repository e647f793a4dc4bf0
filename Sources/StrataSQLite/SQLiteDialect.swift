import GRDB
import StrataRuntime

/// SQLite's SQL: numbered `?1` placeholders, `INTEGER` and `REAL` casts, and an integer primary
/// key that takes the next rowid when it is inserted NULL.
public enum SQLiteDialect: StrataSQLDialect {
    public static func placeholder(_ number: Int) -> String { "?\(number)" }

    public static func name(of type: StrataSQLType) -> String {
        switch type {
        case .integer: "INTEGER"
        case .real: "REAL"
        }
    }

    public static func assignedKey(_ parameter: StrataSQL, table: String, column: String) -> StrataSQL { parameter }

    /// `json_extract(column, '$."key"')`: a JSON member as the SQL value it holds (`true` as 1,
    /// an object as its JSON text, whose members are read by another `json_extract`).
    public static func jsonMember(_ part: StrataJSONMemberPart) -> String {
        switch part {
        case .open: "json_extract("
        case .close(let key, _): ", '$.\(SQLIdentifier.quoted(key).replacingOccurrences(of: "'", with: "''"))')"
        }
    }
}
