import Foundation
import GRDB
import GRDBSQLite
import StrataRuntime

extension StrataSQLValue {
    /// Binds the value, as SQLite stores it, to parameter `index` (1-based) of a statement.
    @inlinable
    public func bind(to statement: SQLiteStatement, at index: Int32) throws {
        switch self {
        case .null: try StrataBind.check(sqlite3_bind_null(statement, index), statement)
        case .integer(let value): try StrataBind.int64(statement, index, value)
        case .real(let value): try StrataBind.double(statement, index, value)
        case .text(let value): try StrataBind.string(statement, index, value)
        case .blob(let value): try StrataBind.data(statement, index, value)
        case .bool(let value): try StrataBind.int64(statement, index, value ? 1 : 0)
        case .uuid(let value): try value.bind(statement, at: index)
        case .date(let value): try value.bind(statement, at: index)
        case .textDate(let value, let format): try StrataBind.date(statement, index, value, as: format)
        case .decimal(let value): try value.bind(statement, at: index)
        }
    }
}
