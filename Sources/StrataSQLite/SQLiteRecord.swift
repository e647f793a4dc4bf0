import Foundation
import GRDB
import GRDBSQLite
import StrataRuntime

/// A value read from the current row of a statement: a record, or the row type of a named query.
public protocol SQLiteRowDecodable {
    /// The value of the current row of a statement, read column by column.
    init(row: StrataSQLiteRow) throws
}

/// A record that SQLite stores: how its columns are bound and read by index on a prepared
/// statement. Generated entity structs conform; ``SQLiteAccess`` and ``SQLiteRepository`` run
/// every operation on it.
public protocol SQLiteRecord: StrataRecord, SQLiteRowDecodable {
    /// The record of the current row of a statement that selects ``StrataTable/selection``.
    init(row: StrataSQLiteRow) throws
    /// Binds every column to parameters 1… in field order.
    func bind(to arguments: inout StrataSQLiteArguments) throws
    /// Binds a primary key to the next parameters, in key order.
    static func bind(key: Key, to arguments: inout StrataSQLiteArguments) throws
}

/// The current row of a stepped statement, read column by column (0-based) as the type the
/// caller expects: `title: try row[1]`.
public struct StrataSQLiteRow {
    /// The statement.
    public let statement: SQLiteStatement
    /// The statement's column that is the row's column 0 (for a record read after another one's
    /// columns, in a join).
    public let offset: Int32

    /// The row of `statement`, which has just returned `SQLITE_ROW`, from its column `offset`.
    @inlinable
    public init(_ statement: SQLiteStatement, offset: Int32 = 0) {
        self.statement = statement
        self.offset = offset
    }

    /// Column `index`, as `Value` (see ``StrataSQLiteValue``).
    @inlinable
    public subscript<Value: StrataSQLiteValue>(_ index: Int32) -> Value {
        get throws { try Value.read(statement, at: offset + index) }
    }

    /// Column `index`, a Date stored as ISO 8601 text in `format` (a field declared with `format:`).
    @inlinable
    public subscript(_ index: Int32, _ format: SQLiteDateText) -> Date {
        get throws { try StrataRead.date(statement, offset + index, as: format) }
    }

    /// Column `index`, an optional Date stored as ISO 8601 text in `format`.
    @inlinable
    public subscript(_ index: Int32, _ format: SQLiteDateText) -> Date? {
        get throws {
            StrataRead.isNull(statement, offset + index) ? nil : try StrataRead.date(statement, offset + index, as: format)
        }
    }
}

/// The parameters of a prepared statement, bound in order from 1.
public struct StrataSQLiteArguments {
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

    /// Binds values to the next parameters, in order.
    @inlinable
    public mutating func bind<each Value: StrataSQLiteBindable>(_ values: repeat each Value) throws {
        for value in repeat each values {
            try value.bind(statement, at: index)
            index += 1
        }
    }

    /// Binds filter values (``StrataSQLValue``) to the next parameters, in order.
    @inlinable
    public mutating func bind(_ values: [StrataSQLValue]) throws {
        for value in values {
            try value.bind(to: statement, at: index)
            index += 1
        }
    }
}

/// A value generated code binds: every ``StrataSQLiteValue``, and a Date stored as text
/// (``StrataTextDate``).
public protocol StrataSQLiteBindable {
    /// Binds the value to parameter `index` (1-based).
    func bind(_ statement: SQLiteStatement, at index: Int32) throws
}

/// A Date (or nil) of a field declared with `format:`, bound as ISO 8601 text in that format:
/// `try arguments.bind(id, StrataTextDate(invoiceDate, .timestamp))` in a generated record.
public struct StrataTextDate: StrataSQLiteBindable {
    /// The date; nil binds NULL.
    public let date: Date?
    /// How it is written.
    public let format: SQLiteDateText

    /// A date to bind as text in `format`.
    @inlinable
    public init(_ date: Date?, _ format: SQLiteDateText) {
        self.date = date
        self.format = format
    }

    @inlinable
    public func bind(_ statement: SQLiteStatement, at index: Int32) throws {
        guard let date else { return try StrataBind.null(statement, index) }
        try StrataBind.date(statement, index, date, as: format)
    }
}
