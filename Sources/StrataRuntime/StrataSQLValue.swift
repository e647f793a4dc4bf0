import Foundation
import GRDBSQLite

/// A value as SQLite stores it: what filters bind. Generated insert and fetch paths do not use it;
/// they bind and read columns directly (see ``StrataBind`` and ``StrataRead``).
public enum StrataSQLValue: Hashable, Sendable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob(Data)

    /// Binds the value to parameter `index` (1-based) of a statement.
    @inlinable
    public func bind(to statement: SQLiteStatement, at index: Int32) throws {
        switch self {
        case .null: try StrataBind.check(sqlite3_bind_null(statement, index), statement)
        case .integer(let value): try StrataBind.int64(statement, index, value)
        case .real(let value): try StrataBind.double(statement, index, value)
        case .text(let value): try StrataBind.string(statement, index, value)
        case .blob(let value): try StrataBind.data(statement, index, value)
        }
    }
}
