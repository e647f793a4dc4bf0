import Foundation
import StrataStorage

/// An element of an array value the generator writes itself (a seeded row of `strata verify`):
/// the element as stored, whatever the database.
public enum ArrayElementLiteral: Hashable, Sendable {
    case text(String)
    case integer(Int64)
    case real(Double)
    case bool(Bool)
    /// A Date: seconds since 2001 in SQLite's JSON (what the runtime writes), a `timestamptz` in PostgreSQL.
    case date(Date)
    /// A Decimal's text: a JSON string in SQLite, a number in PostgreSQL.
    case decimal(String)
    /// Bytes: base64 in a JSON string in SQLite, `bytea` hex in PostgreSQL.
    case data([UInt8])
}

extension ArrayElementLiteral {
    /// The element in a JSON array (SQLite): text as a JSON string, numbers, `true`/`false`.
    var jsonText: String {
        switch self {
        case .text(let text): return DiagnosticJSON.quoted(text)
        case .integer(let value): return String(value)
        case .real(let value): return value.isFinite ? "\(value)" : "null"
        case .bool(let value): return value ? "true" : "false"
        case .date(let date): return ArrayElementLiteral.real(SQLiteDateFormat.current.seconds(of: date)).jsonText
        case .decimal(let text): return DiagnosticJSON.quoted(text)
        case .data(let bytes): return DiagnosticJSON.quoted(Data(bytes).base64EncodedString())
        }
    }

    /// The element in a PostgreSQL array literal (`{"a","b"}`): text double-quoted with `"` and
    /// `\` escaped by a backslash, numbers, `t`/`f`; dates as PostgreSQL prints them in UTC,
    /// bytes as `bytea` hex (`"\\x00ff"`).
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
        case .date(let date): return ArrayElementLiteral.text(PostgresTimestamp.text(of: date)).postgresArrayText
        case .decimal(let text): return text
        case .data(let bytes):
            let hex = bytes.map { byte in (byte < 16 ? "0" : "") + String(byte, radix: 16) }.joined()
            return ArrayElementLiteral.text("\\x" + hex).postgresArrayText
        }
    }
}
