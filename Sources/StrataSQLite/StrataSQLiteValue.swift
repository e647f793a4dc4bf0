import Foundation
import GRDB
import GRDBSQLite
import StrataRuntime

/// A Swift value that a SQLite column holds: how it is bound to a parameter and read from a
/// result column, as ``ColumnEncoding`` says. One conformance per value type (the scalar types,
/// `Optional`, and generated enums), so generated records bind and read every field with the same
/// two calls and the compiler picks the coding from the property's type.
public protocol StrataSQLiteValue: StrataColumnValue, StrataSQLiteBindable {
    /// Reads the value of column `index` (0-based) of the current row; throws
    /// ``StrataDecodingError`` for NULL in a non-optional value or a malformed value.
    static func read(_ statement: SQLiteStatement, at index: Int32) throws -> Self
    /// Binds the value to parameter `index` (1-based).
    func bind(_ statement: SQLiteStatement, at index: Int32) throws
}

extension Optional: StrataSQLiteBindable where Wrapped: StrataSQLiteValue {}

extension Optional: StrataSQLiteValue where Wrapped: StrataSQLiteValue {
    @inlinable
    public static func read(_ statement: SQLiteStatement, at index: Int32) throws -> Wrapped? {
        StrataRead.isNull(statement, index) ? nil : try Wrapped.read(statement, at: index)
    }

    @inlinable
    public func bind(_ statement: SQLiteStatement, at index: Int32) throws {
        switch self {
        case .none: try StrataBind.null(statement, index)
        case .some(let value): try value.bind(statement, at: index)
        }
    }
}

extension String: StrataSQLiteValue {
    @inlinable
    public static func read(_ statement: SQLiteStatement, at index: Int32) throws -> String {
        try StrataRead.string(statement, index)
    }

    @inlinable
    public func bind(_ statement: SQLiteStatement, at index: Int32) throws {
        try StrataBind.string(statement, index, self)
    }
}

extension Int: StrataSQLiteValue {
    @inlinable
    public static func read(_ statement: SQLiteStatement, at index: Int32) throws -> Int {
        try StrataRead.int(statement, index)
    }

    @inlinable
    public func bind(_ statement: SQLiteStatement, at index: Int32) throws {
        try StrataBind.int(statement, index, self)
    }
}

extension Int64: StrataSQLiteValue {
    @inlinable
    public static func read(_ statement: SQLiteStatement, at index: Int32) throws -> Int64 {
        try StrataRead.int64(statement, index)
    }

    @inlinable
    public func bind(_ statement: SQLiteStatement, at index: Int32) throws {
        try StrataBind.int64(statement, index, self)
    }
}

extension Int32: StrataSQLiteValue {
    @inlinable
    public static func read(_ statement: SQLiteStatement, at index: Int32) throws -> Int32 {
        try StrataRead.int32(statement, index)
    }

    @inlinable
    public func bind(_ statement: SQLiteStatement, at index: Int32) throws {
        try StrataBind.int32(statement, index, self)
    }
}

extension Int16: StrataSQLiteValue {
    @inlinable
    public static func read(_ statement: SQLiteStatement, at index: Int32) throws -> Int16 {
        try StrataRead.int16(statement, index)
    }

    @inlinable
    public func bind(_ statement: SQLiteStatement, at index: Int32) throws {
        try StrataBind.int16(statement, index, self)
    }
}

extension Double: StrataSQLiteValue {
    @inlinable
    public static func read(_ statement: SQLiteStatement, at index: Int32) throws -> Double {
        try StrataRead.double(statement, index)
    }

    @inlinable
    public func bind(_ statement: SQLiteStatement, at index: Int32) throws {
        try StrataBind.double(statement, index, self)
    }
}

extension Float: StrataSQLiteValue {
    @inlinable
    public static func read(_ statement: SQLiteStatement, at index: Int32) throws -> Float {
        try StrataRead.float(statement, index)
    }

    @inlinable
    public func bind(_ statement: SQLiteStatement, at index: Int32) throws {
        try StrataBind.float(statement, index, self)
    }
}

extension Bool: StrataSQLiteValue {
    @inlinable
    public static func read(_ statement: SQLiteStatement, at index: Int32) throws -> Bool {
        try StrataRead.bool(statement, index)
    }

    @inlinable
    public func bind(_ statement: SQLiteStatement, at index: Int32) throws {
        try StrataBind.bool(statement, index, self)
    }
}

extension UUID: StrataSQLiteValue {
    @inlinable
    public static func read(_ statement: SQLiteStatement, at index: Int32) throws -> UUID {
        try StrataRead.uuid(statement, index)
    }

    @inlinable
    public func bind(_ statement: SQLiteStatement, at index: Int32) throws {
        try StrataBind.uuid(statement, index, self)
    }
}

extension Date: StrataSQLiteValue {
    @inlinable
    public static func read(_ statement: SQLiteStatement, at index: Int32) throws -> Date {
        try StrataRead.date(statement, index)
    }

    @inlinable
    public func bind(_ statement: SQLiteStatement, at index: Int32) throws {
        try StrataBind.date(statement, index, self)
    }
}

extension Data: StrataSQLiteValue {
    @inlinable
    public static func read(_ statement: SQLiteStatement, at index: Int32) throws -> Data {
        try StrataRead.data(statement, index)
    }

    @inlinable
    public func bind(_ statement: SQLiteStatement, at index: Int32) throws {
        try StrataBind.data(statement, index, self)
    }
}

extension Decimal: StrataSQLiteValue {
    @inlinable
    public static func read(_ statement: SQLiteStatement, at index: Int32) throws -> Decimal {
        try StrataRead.decimal(statement, index)
    }

    @inlinable
    public func bind(_ statement: SQLiteStatement, at index: Int32) throws {
        try StrataBind.decimal(statement, index, self)
    }
}

extension StrataEnumColumnValue where RawValue: StrataSQLiteValue {
    /// The case of the stored raw value; one that matches no case reads as ``strataUnknownCase``,
    /// or throws ``StrataDecodingError/unknownEnumValue(column:type:rawValue:)`` when there is none.
    @inlinable
    public static func read(_ statement: SQLiteStatement, at index: Int32) throws -> Self {
        let raw = try RawValue.read(statement, at: index)
        guard let value = Self(rawValue: raw) ?? strataUnknownCase else {
            return try StrataRead.enumCase(Self.self, raw, statement, index)
        }
        return value
    }

    /// Binds the raw value.
    @inlinable
    public func bind(_ statement: SQLiteStatement, at index: Int32) throws {
        try rawValue.bind(statement, at: index)
    }
}
