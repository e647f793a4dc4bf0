/// The type affinity SQLite gives a column from its declared type (sqlite.org/datatype3.html,
/// 3.1): what decides how a value is stored, whatever the type is called (`NVARCHAR(160)` and
/// `TEXT` store alike; `DATETIME` and `NUMERIC(10,2)` have NUMERIC affinity).
public enum SQLiteAffinity: String, Sendable, Hashable {
    case integer = "INTEGER"
    case text = "TEXT"
    case blob = "BLOB"
    case real = "REAL"
    case numeric = "NUMERIC"

    /// The affinity of a column declared `declaredType`, by SQLite's rules, in their order.
    public init(declaredType: String) {
        let name = declaredType.uppercased()
        if name.contains("INT") {
            self = .integer
        } else if name.contains("CHAR") || name.contains("CLOB") || name.contains("TEXT") {
            self = .text
        } else if name.contains("BLOB") || name.allSatisfy(\.isWhitespace) {
            self = .blob
        } else if name.contains("REAL") || name.contains("FLOA") || name.contains("DOUB") {
            self = .real
        } else {
            self = .numeric
        }
    }
}
