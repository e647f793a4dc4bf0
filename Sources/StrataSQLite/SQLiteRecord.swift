import Foundation
import GRDB
import GRDBSQLite
import StrataRuntime

/// A record that SQLite stores: every ``StrataRecord``, read and bound through
/// ``StrataSQLiteRow`` and ``StrataSQLiteArguments``. ``SQLiteAccess`` and ``SQLiteRepository``
/// run every operation on it.
public typealias SQLiteRecord = StrataRecord

/// The current row of a stepped statement, read column by column from `index` (0-based): what
/// records and query rows are decoded from on SQLite (``StrataRowReader``).
///
/// Fixed-width values (integers, reals, Bools, Dates) are read inline; text, UUIDs, BLOBs and
/// Decimals by a call (see ``StrataRead``).
public struct StrataSQLiteRow: StrataRowReader {
    /// The statement.
    public let statement: SQLiteStatement
    /// The statement's column read next.
    public var index: Int32

    /// The row of `statement`, which has just returned `SQLITE_ROW`, from its column `index`.
    @inlinable
    public init(_ statement: SQLiteStatement, from index: Int32 = 0) {
        self.statement = statement
        self.index = index
    }

    /// The value of the statement's current row, read from column 0.
    @inlinable
    public static func decode<Row: StrataRowDecodable>(_ type: Row.Type, _ statement: SQLiteStatement) throws -> Row {
        var row = StrataSQLiteRow(statement)
        return try Row(row: &row)
    }

    /// The next column's value, read by `read`.
    @inlinable
    mutating func advance<Value>(_ read: (OpaquePointer?, SQLiteStatement, Int32) throws -> Value) rethrows -> Value {
        defer { index += 1 }
        return try read(sqlite3_column_value(statement, index), statement, index)
    }

    @inlinable
    public mutating func readNull() -> Bool {
        guard sqlite3_column_type(statement, index) == SQLITE_NULL else { return false }
        index += 1
        return true
    }

    @inlinable public mutating func read(_ type: String.Type) throws -> String { try advance(StrataRead.string) }
    @inlinable public mutating func read(_ type: Int.Type) throws -> Int { try advance(StrataRead.int) }
    @inlinable public mutating func read(_ type: Int64.Type) throws -> Int64 { try advance(StrataRead.int64) }
    @inlinable public mutating func read(_ type: Int32.Type) throws -> Int32 { try advance(StrataRead.int32) }
    @inlinable public mutating func read(_ type: Int16.Type) throws -> Int16 { try advance(StrataRead.int16) }
    @inlinable public mutating func read(_ type: Double.Type) throws -> Double { try advance(StrataRead.double) }
    @inlinable public mutating func read(_ type: Float.Type) throws -> Float { try advance(StrataRead.float) }
    @inlinable public mutating func read(_ type: Bool.Type) throws -> Bool { try advance(StrataRead.bool) }
    @inlinable public mutating func read(_ type: UUID.Type) throws -> UUID { try advance(StrataRead.uuid) }
    @inlinable public mutating func read(_ type: Date.Type) throws -> Date { try advance(StrataRead.date) }
    @inlinable public mutating func read(_ type: Data.Type) throws -> Data { try advance(StrataRead.data) }
    @inlinable public mutating func read(_ type: Decimal.Type) throws -> Decimal { try advance(StrataRead.decimal) }
    /// The elements of a JSON array (``StrataJSONArray``).
    @inlinable public mutating func readArray(_ kind: StrataArray.Kind) throws -> StrataArray {
        let json = try readJSON()
        return try StrataJSONArray.array(json, of: kind, column: previousColumnName)
    }
    @inlinable public mutating func readJSON() throws -> StrataJSON { try advance(StrataRead.json) }

    @inlinable
    public mutating func read(_ type: Date.Type, as format: SQLiteDateText) throws -> Date {
        try advance { try StrataRead.date($0, $1, $2, as: format) }
    }

    public var previousColumnName: String { StrataRead.columnName(statement, index - 1) }
}

/// The parameters of a prepared statement, bound in order from 1: what records, keys and query
/// parameters are bound to on SQLite (``StrataValueBinder``).
public struct StrataSQLiteArguments: StrataValueBinder {
    /// The statement.
    public let statement: SQLiteStatement
    /// The 1-based index of the next parameter.
    public var index: Int32

    /// Binds `statement`'s parameters from `index`.
    @inlinable
    public init(_ statement: SQLiteStatement, from index: Int32 = 1) {
        self.statement = statement
        self.index = index
    }

    /// Binds the next parameter with `bind`.
    @inlinable
    mutating func advance(_ bind: (SQLiteStatement, Int32) throws -> Void) rethrows {
        try bind(statement, index)
        index += 1
    }

    @inlinable public mutating func bindNull() throws { try advance(StrataBind.null) }
    @inlinable public mutating func bind(_ value: String) throws { try advance { try StrataBind.string($0, $1, value) } }
    @inlinable public mutating func bind(_ value: Int) throws { try advance { try StrataBind.int($0, $1, value) } }
    @inlinable public mutating func bind(_ value: Int64) throws { try advance { try StrataBind.int64($0, $1, value) } }
    @inlinable public mutating func bind(_ value: Int32) throws { try advance { try StrataBind.int32($0, $1, value) } }
    @inlinable public mutating func bind(_ value: Int16) throws { try advance { try StrataBind.int16($0, $1, value) } }
    @inlinable public mutating func bind(_ value: Double) throws { try advance { try StrataBind.double($0, $1, value) } }
    @inlinable public mutating func bind(_ value: Float) throws { try advance { try StrataBind.float($0, $1, value) } }
    @inlinable public mutating func bind(_ value: Bool) throws { try advance { try StrataBind.bool($0, $1, value) } }
    @inlinable public mutating func bind(_ value: UUID) throws { try advance { try StrataBind.uuid($0, $1, value) } }
    @inlinable public mutating func bind(_ value: Date) throws { try advance { try StrataBind.date($0, $1, value) } }
    @inlinable public mutating func bind(_ value: Data) throws { try advance { try StrataBind.data($0, $1, value) } }
    @inlinable public mutating func bind(json text: String) throws { try advance { try StrataBind.string($0, $1, text) } }
    @inlinable public mutating func bind(_ value: Decimal) throws { try advance { try StrataBind.decimal($0, $1, value) } }
    @inlinable public mutating func bindArray(_ array: StrataArray) throws {
        try advance { try StrataBind.string($0, $1, StrataJSONArray.text(of: array)) }
    }

    @inlinable
    public mutating func bind(_ value: Date, as format: SQLiteDateText) throws {
        try advance { try StrataBind.date($0, $1, value, as: format) }
    }
}
