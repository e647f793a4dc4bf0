/// An element of an array value the generator writes itself (a seeded row of `strata verify`):
/// the element as stored, whatever the database.
public enum ArrayElementLiteral: Hashable, Sendable {
    case text(String)
    case integer(Int64)
    case real(Double)
    case bool(Bool)
}

extension ArrayElementLiteral {
    /// The element in a JSON array (SQLite): text as a JSON string, numbers, `true`/`false`.
    var jsonText: String {
        switch self {
        case .text(let text): return DiagnosticJSON.quoted(text)
        case .integer(let value): return String(value)
        case .real(let value): return value.isFinite ? "\(value)" : "null"
        case .bool(let value): return value ? "true" : "false"
        }
    }

    /// The element in a PostgreSQL array literal (`{"a","b"}`): text double-quoted with `"` and
    /// `\` escaped by a backslash, numbers, `t`/`f`.
    var postgresArrayText: String {
        switch self {
        case .text(let text):
            var quoted = "\""
            for character in text {
                if character == "\"" || character == "\\" { quoted.append("\\") }
                quoted.append(character)
            }
            return quoted + "\""
        case .integer(let value): return String(value)
        case .real(let value): return "\(value)"
        case .bool(let value): return value ? "t" : "f"
        }
    }
}
