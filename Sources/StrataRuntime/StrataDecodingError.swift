import Foundation
import GRDBSQLite

/// A stored value that generated code cannot turn into its Swift type.
public enum StrataDecodingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// NULL in a column whose field is not optional.
    case unexpectedNull(column: String)
    /// A value that is not a valid encoding of the type (a BLOB that is not 16 bytes for a UUID…).
    case malformed(column: String, type: String)
    /// An integer that does not fit the field's type.
    case outOfRange(column: String, type: String, value: Int64)
    /// A raw value that matches no case of an enum without an `unknown` case.
    case unknownEnumValue(column: String, type: String, rawValue: String)

    public var description: String {
        switch self {
        case .unexpectedNull(let column):
            return "column \(column) is NULL, but its field is not optional"
        case .malformed(let column, let type):
            return "column \(column) does not hold a valid \(type)"
        case .outOfRange(let column, let type, let value):
            return "column \(column) holds \(value), which does not fit \(type)"
        case .unknownEnumValue(let column, let type, let rawValue):
            return "column \(column) holds \(rawValue), which is no case of \(type) (and \(type) has no unknown case)"
        }
    }
}

/// A failure of a statement that is not a SQLite error of the database itself.
public enum StrataStatementError: Error, CustomStringConvertible {
    /// Binding a parameter failed.
    case bindFailed(code: Int32, message: String, sql: String)

    /// The error of a failed bind, with the connection's message and the statement's SQL.
    @usableFromInline
    static func bindFailed(_ statement: SQLiteStatement, _ code: Int32) -> StrataStatementError {
        let message = sqlite3_db_handle(statement).flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) } ?? ""
        let sql = sqlite3_sql(statement).map { String(cString: $0) } ?? ""
        return .bindFailed(code: code, message: message, sql: sql)
    }

    public var description: String {
        switch self {
        case .bindFailed(let code, let message, let sql): return "binding failed (\(code): \(message)) in \(sql)"
        }
    }
}
