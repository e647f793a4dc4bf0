import Foundation

/// A Swift value that a column holds and a filter can compare it with: converts to a
/// ``StrataSQLValue``, which each database runtime stores as its database does.
///
/// The value is also read from a result row and bound to a statement, through each database's
/// ``StrataRowReader`` and ``StrataValueBinder``: one conformance per value type, whatever the
/// database, so generated records read and bind every field with the same calls and the compiler
/// picks the coding from the property's type.
public protocol StrataColumnValue: StrataBindable, Sendable {
    /// The value as stored.
    var strataSQLValue: StrataSQLValue { get }
    /// Reads the value from a row's next column; throws ``StrataDecodingError`` for NULL in a
    /// non-optional value or a malformed value.
    static func read(from row: inout some StrataRowReader) throws -> Self
}

/// A column value whose stored order is its Swift order, so `<`, `<=`, `>`, `>=` mean what they
/// say (numbers, text, dates, integer-backed and string-backed enums). `Bool`, `UUID`, `Data`
/// and `Decimal` (stored as text) are not comparable in filters.
public protocol StrataComparableColumnValue: StrataColumnValue {}

/// A column value that queries can sort by: every value but `Decimal`, whose text storage does not
/// sort numerically.
public protocol StrataSortableColumnValue: StrataColumnValue {}

/// An enum stored as its raw value. Generated enums conform.
public protocol StrataEnumColumnValue: StrataComparableColumnValue, StrataSortableColumnValue, RawRepresentable
where RawValue: StrataColumnValue {
    /// The case that a stored raw value matching no case reads as (the schema's `unknown`), or nil
    /// when such a value is an error.
    static var strataUnknownCase: Self? { get }
}

extension StrataEnumColumnValue {
    /// No `unknown` case: a raw value that matches no case is an error when read.
    public static var strataUnknownCase: Self? { nil }

    /// The raw value, as stored.
    public var strataSQLValue: StrataSQLValue { rawValue.strataSQLValue }

    /// The case of the stored raw value; one that matches no case reads as ``strataUnknownCase``,
    /// or throws ``StrataDecodingError/unknownEnumValue(column:type:rawValue:)`` when there is none.
    @inlinable
    public static func read(from row: inout some StrataRowReader) throws -> Self {
        let raw = try RawValue.read(from: &row)
        if let value = Self(rawValue: raw) ?? strataUnknownCase { return value }
        throw StrataDecodingError.unknownEnumValue(
            column: row.previousColumnName, type: String(describing: Self.self), rawValue: String(describing: raw))
    }

    /// Binds the raw value.
    @inlinable
    public func bind(to binder: inout some StrataValueBinder) throws {
        try rawValue.bind(to: &binder)
    }
}

/// An optional column value: NULL when nil.
public protocol StrataOptionalColumnValue: StrataColumnValue {
    /// The type of the value when not nil.
    associatedtype Wrapped: StrataColumnValue
}

extension Optional: StrataBindable where Wrapped: StrataColumnValue {
    /// Binds the value, or NULL.
    @inlinable
    public func bind(to binder: inout some StrataValueBinder) throws {
        switch self {
        case .none: try binder.bindNull()
        case .some(let value): try value.bind(to: &binder)
        }
    }
}

extension Optional: StrataColumnValue where Wrapped: StrataColumnValue {
    public var strataSQLValue: StrataSQLValue {
        switch self {
        case .none: return .null
        case .some(let value): return value.strataSQLValue
        }
    }

    /// nil for NULL, else the wrapped value.
    @inlinable
    public static func read(from row: inout some StrataRowReader) throws -> Wrapped? {
        try row.readNull() ? nil : try Wrapped.read(from: &row)
    }
}

extension Optional: StrataOptionalColumnValue where Wrapped: StrataColumnValue {}

extension Optional: StrataSortableColumnValue where Wrapped: StrataSortableColumnValue {}

extension String: StrataComparableColumnValue, StrataSortableColumnValue {
    public var strataSQLValue: StrataSQLValue { .text(self) }

    @inlinable
    public static func read(from row: inout some StrataRowReader) throws -> String { try row.read(String.self) }

    @inlinable
    public func bind(to binder: inout some StrataValueBinder) throws { try binder.bind(self) }
}

extension Int: StrataComparableColumnValue, StrataSortableColumnValue {
    public var strataSQLValue: StrataSQLValue { .integer(Int64(self)) }

    @inlinable
    public static func read(from row: inout some StrataRowReader) throws -> Int { try row.read(Int.self) }

    @inlinable
    public func bind(to binder: inout some StrataValueBinder) throws { try binder.bind(self) }
}

extension Int64: StrataComparableColumnValue, StrataSortableColumnValue {
    public var strataSQLValue: StrataSQLValue { .integer(self) }

    @inlinable
    public static func read(from row: inout some StrataRowReader) throws -> Int64 { try row.read(Int64.self) }

    @inlinable
    public func bind(to binder: inout some StrataValueBinder) throws { try binder.bind(self) }
}

extension Int32: StrataComparableColumnValue, StrataSortableColumnValue {
    public var strataSQLValue: StrataSQLValue { .integer(Int64(self)) }

    @inlinable
    public static func read(from row: inout some StrataRowReader) throws -> Int32 { try row.read(Int32.self) }

    @inlinable
    public func bind(to binder: inout some StrataValueBinder) throws { try binder.bind(self) }
}

extension Int16: StrataComparableColumnValue, StrataSortableColumnValue {
    public var strataSQLValue: StrataSQLValue { .integer(Int64(self)) }

    @inlinable
    public static func read(from row: inout some StrataRowReader) throws -> Int16 { try row.read(Int16.self) }

    @inlinable
    public func bind(to binder: inout some StrataValueBinder) throws { try binder.bind(self) }
}

extension Double: StrataComparableColumnValue, StrataSortableColumnValue {
    public var strataSQLValue: StrataSQLValue { .real(self) }

    @inlinable
    public static func read(from row: inout some StrataRowReader) throws -> Double { try row.read(Double.self) }

    @inlinable
    public func bind(to binder: inout some StrataValueBinder) throws { try binder.bind(self) }
}

extension Float: StrataComparableColumnValue, StrataSortableColumnValue {
    public var strataSQLValue: StrataSQLValue { .real(Double(self)) }

    @inlinable
    public static func read(from row: inout some StrataRowReader) throws -> Float { try row.read(Float.self) }

    @inlinable
    public func bind(to binder: inout some StrataValueBinder) throws { try binder.bind(self) }
}

extension Date: StrataComparableColumnValue, StrataSortableColumnValue {
    public var strataSQLValue: StrataSQLValue { .date(self) }

    @inlinable
    public static func read(from row: inout some StrataRowReader) throws -> Date { try row.read(Date.self) }

    @inlinable
    public func bind(to binder: inout some StrataValueBinder) throws { try binder.bind(self) }
}

extension Bool: StrataSortableColumnValue {
    public var strataSQLValue: StrataSQLValue { .bool(self) }

    @inlinable
    public static func read(from row: inout some StrataRowReader) throws -> Bool { try row.read(Bool.self) }

    @inlinable
    public func bind(to binder: inout some StrataValueBinder) throws { try binder.bind(self) }
}

extension UUID: StrataSortableColumnValue {
    public var strataSQLValue: StrataSQLValue { .uuid(self) }

    @inlinable
    public static func read(from row: inout some StrataRowReader) throws -> UUID { try row.read(UUID.self) }

    @inlinable
    public func bind(to binder: inout some StrataValueBinder) throws { try binder.bind(self) }
}

extension Data: StrataSortableColumnValue {
    public var strataSQLValue: StrataSQLValue { .blob(self) }

    @inlinable
    public static func read(from row: inout some StrataRowReader) throws -> Data { try row.read(Data.self) }

    @inlinable
    public func bind(to binder: inout some StrataValueBinder) throws { try binder.bind(self) }
}

extension Decimal: StrataColumnValue {
    public var strataSQLValue: StrataSQLValue { .decimal(self) }

    @inlinable
    public static func read(from row: inout some StrataRowReader) throws -> Decimal { try row.read(Decimal.self) }

    @inlinable
    public func bind(to binder: inout some StrataValueBinder) throws { try binder.bind(self) }
}

extension URL: StrataSortableColumnValue {
    /// Its `absoluteString`, as stored.
    public var strataSQLValue: StrataSQLValue { .text(absoluteString) }

    /// The URL of the stored text; text that is no URL is ``StrataDecodingError/malformed(column:type:)``.
    @inlinable
    public static func read(from row: inout some StrataRowReader) throws -> URL {
        guard let url = URL(string: try row.read(String.self)) else {
            throw StrataDecodingError.malformed(column: row.previousColumnName, type: "URL")
        }
        return url
    }

    @inlinable
    public func bind(to binder: inout some StrataValueBinder) throws { try binder.bind(absoluteString) }
}

/// A value type of the schema (`types:`): a type of its own stored as its raw value, a built-in
/// scalar. Generated value types conform, and so do the app's own types a schema names with
/// `external: true` (through a conformance in `<Model>Records.swift`).
public protocol StrataRawColumnValue: StrataColumnValue, RawRepresentable where RawValue: StrataColumnValue {}

extension StrataRawColumnValue {
    /// The raw value, as stored.
    public var strataSQLValue: StrataSQLValue { rawValue.strataSQLValue }

    /// The value of the stored raw value; one the type refuses is
    /// ``StrataDecodingError/malformed(column:type:)``.
    @inlinable
    public static func read(from row: inout some StrataRowReader) throws -> Self {
        guard let value = Self(rawValue: try RawValue.read(from: &row)) else {
            throw StrataDecodingError.malformed(column: row.previousColumnName, type: String(describing: Self.self))
        }
        return value
    }

    /// Binds the raw value.
    @inlinable
    public func bind(to binder: inout some StrataValueBinder) throws { try rawValue.bind(to: &binder) }
}
