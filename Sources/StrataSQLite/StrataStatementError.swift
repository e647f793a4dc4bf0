import Foundation
import GRDB
import GRDBSQLite
import StrataRuntime

/// A failure of a statement that is not a SQLite error of the database itself.
public enum StrataStatementError: Error, CustomStringConvertible {
    /// Binding a parameter failed.
    case bindFailed(code: Int32, message: String, sql: String)
    /// A Date bound to a column of ISO 8601 text (`format:`) whose year is not 0000…9999, which
    /// the text cannot hold.
    case dateOutOfRange(Date, sql: String)

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
        case .dateOutOfRange(let date, let sql):
            return "binding failed: \(date) is outside the years 0000 to 9999 that ISO 8601 text holds, in \(sql)"
        }
    }
}
