import Foundation

/// A Swift value that a column holds and a filter can compare it with: converts to a
/// ``StrataSQLValue``, which each database runtime stores as its database does.
public protocol StrataColumnValue: Sendable {
    /// The value as stored.
    var strataSQLValue: StrataSQLValue { get }
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
}

/// An optional column value: NULL when nil.
public protocol StrataOptionalColumnValue: StrataColumnValue {
    /// The type of the value when not nil.
    associatedtype Wrapped: StrataColumnValue
}

extension Optional: StrataColumnValue where Wrapped: StrataColumnValue {
    public var strataSQLValue: StrataSQLValue {
        switch self {
        case .none: return .null
        case .some(let value): return value.strataSQLValue
        }
    }
}

extension Optional: StrataOptionalColumnValue where Wrapped: StrataColumnValue {}

extension Optional: StrataSortableColumnValue where Wrapped: StrataSortableColumnValue {}

extension String: StrataComparableColumnValue, StrataSortableColumnValue {
    public var strataSQLValue: StrataSQLValue { .text(self) }
}

extension Int: StrataComparableColumnValue, StrataSortableColumnValue {
    public var strataSQLValue: StrataSQLValue { .integer(Int64(self)) }
}

extension Int64: StrataComparableColumnValue, StrataSortableColumnValue {
    public var strataSQLValue: StrataSQLValue { .integer(self) }
}

extension Int32: StrataComparableColumnValue, StrataSortableColumnValue {
    public var strataSQLValue: StrataSQLValue { .integer(Int64(self)) }
}

extension Int16: StrataComparableColumnValue, StrataSortableColumnValue {
    public var strataSQLValue: StrataSQLValue { .integer(Int64(self)) }
}

extension Double: StrataComparableColumnValue, StrataSortableColumnValue {
    public var strataSQLValue: StrataSQLValue { .real(self) }
}

extension Float: StrataComparableColumnValue, StrataSortableColumnValue {
    public var strataSQLValue: StrataSQLValue { .real(Double(self)) }
}

extension Date: StrataComparableColumnValue, StrataSortableColumnValue {
    public var strataSQLValue: StrataSQLValue { .date(self) }
}

extension Bool: StrataSortableColumnValue {
    public var strataSQLValue: StrataSQLValue { .bool(self) }
}

extension UUID: StrataSortableColumnValue {
    public var strataSQLValue: StrataSQLValue { .uuid(self) }
}

extension Data: StrataSortableColumnValue {
    public var strataSQLValue: StrataSQLValue { .blob(self) }
}

extension Decimal: StrataColumnValue {
    public var strataSQLValue: StrataSQLValue { .decimal(self) }
}
