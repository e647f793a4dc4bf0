import Foundation
import StrataStorage

/// A value bound to a statement parameter by filters, sorts and assignments, as the Swift value
/// means it: each database runtime turns it into what its database stores (``SQLiteStorage`` for
/// SQLite: a `Bool` as 0 or 1, a `UUID` as 16 bytes; PostgreSQL binds `BOOLEAN`, `UUID`,
/// `TIMESTAMPTZ`, `NUMERIC` natively). Generated insert and fetch paths do not use it; they bind
/// and read columns directly.
public enum StrataSQLValue: Hashable, Sendable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob(Data)
    case bool(Bool)
    case uuid(UUID)
    case date(Date)
    /// A Date of a field declared with `format:`: SQLite binds its ISO 8601 text in that format,
    /// PostgreSQL the date itself (its column is native).
    case textDate(Date, SQLiteDateText)
    case decimal(Decimal)
    /// The elements of an array field: a native array on PostgreSQL, a JSON array on SQLite.
    case array(StrataArray)
    /// JSON text: SQLite binds it as text, PostgreSQL as `JSONB`.
    case json(String)
}

extension StrataSQLValue: StrataBindable {
    /// Binds the value as its database stores it.
    @inlinable
    public func bind(to binder: inout some StrataValueBinder) throws {
        switch self {
        case .null: try binder.bindNull()
        case .integer(let value): try binder.bind(value)
        case .real(let value): try binder.bind(value)
        case .text(let value): try binder.bind(value)
        case .blob(let value): try binder.bind(value)
        case .bool(let value): try binder.bind(value)
        case .uuid(let value): try binder.bind(value)
        case .date(let value): try binder.bind(value)
        case .textDate(let value, let format): try binder.bind(value, as: format)
        case .decimal(let value): try binder.bind(value)
        case .array(let value): try binder.bindArray(value)
        case .json(let text): try binder.bind(json: text)
        }
    }
}
