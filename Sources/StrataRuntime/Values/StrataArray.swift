import Foundation

/// The elements of an array field as stored, of one built-in scalar type: what
/// ``StrataValueBinder/bindArray(_:)`` binds and ``StrataRowReader/readArray(_:)`` reads (a
/// native array on PostgreSQL, a JSON array's text on SQLite). `[String]` is `.strings` itself,
/// not a copy; an array of enums or of a value type is the array of their raw values.
///
/// `Date`, `Decimal` and `Data` elements are stored as their columns store them: on SQLite a Date
/// is the JSON number of its seconds since 2001-01-01 (the `REAL` a Date column holds), a Decimal
/// the JSON string of its text, Data the JSON string of its base64; on PostgreSQL `TIMESTAMPTZ[]`
/// (whole microseconds), `NUMERIC[]` and `BYTEA[]`.
public enum StrataArray: Hashable, Sendable {
    case strings([String])
    case ints([Int])
    case int64s([Int64])
    case int32s([Int32])
    case int16s([Int16])
    case doubles([Double])
    case floats([Float])
    case bools([Bool])
    case uuids([UUID])
    case dates([Date])
    case decimals([Decimal])
    case data([Data])

    /// The scalar type of an array's elements: which case a read returns.
    public enum Kind: Hashable, Sendable {
        case string, int, int64, int32, int16, double, float, bool, uuid, date, decimal, data
    }

    /// The type of the elements.
    public var kind: Kind {
        switch self {
        case .strings: .string
        case .ints: .int
        case .int64s: .int64
        case .int32s: .int32
        case .int16s: .int16
        case .doubles: .double
        case .floats: .float
        case .bools: .bool
        case .uuids: .uuid
        case .dates: .date
        case .decimals: .decimal
        case .data: .data
        }
    }

    /// The number of elements.
    public var count: Int {
        switch self {
        case .strings(let values): values.count
        case .ints(let values): values.count
        case .int64s(let values): values.count
        case .int32s(let values): values.count
        case .int16s(let values): values.count
        case .doubles(let values): values.count
        case .floats(let values): values.count
        case .bools(let values): values.count
        case .uuids(let values): values.count
        case .dates(let values): values.count
        case .decimals(let values): values.count
        case .data(let values): values.count
        }
    }
}

/// A value an array field holds (`[String]`, `[Int32]`, `[Genre]`): says which built-in scalar it
/// is stored as, and converts whole arrays to and from ``StrataArray``. Every built-in scalar but
/// JSON conforms; generated enums and value types conform through their raw value.
public protocol StrataArrayElement: StrataColumnValue {
    /// The scalar type the elements are stored as.
    static var strataArrayKind: StrataArray.Kind { get }
    /// The elements, as stored.
    static func strataArray(_ elements: [Self]) -> StrataArray
    /// The elements of a stored array (of ``strataArrayKind``), read from `column`; throws
    /// ``StrataDecodingError`` for elements of another type or values the type refuses.
    static func strataElements(of array: StrataArray, column: String) throws -> [Self]
}

extension StrataArrayElement {
    /// The error for a stored array that does not hold this type's elements.
    @usableFromInline
    static func malformed(_ column: String) -> StrataDecodingError {
        .malformed(column: column, type: "[\(Self.self)]")
    }
}

/// An array stored in one column (`[String]`, or an optional one): what `contains` and
/// `isEmpty` filter on.
public protocol StrataArrayColumnValue: StrataColumnValue {
    /// The type of the elements.
    associatedtype StrataElement: StrataArrayElement
}

extension Array: StrataBindable where Element: StrataArrayElement {
    /// Binds the elements as one array.
    @inlinable
    public func bind(to binder: inout some StrataValueBinder) throws {
        try binder.bindArray(Element.strataArray(self))
    }
}

extension Array: StrataColumnValue where Element: StrataArrayElement {
    /// The elements, as stored.
    public var strataSQLValue: StrataSQLValue { .array(Element.strataArray(self)) }

    /// The elements of the next column; throws for NULL (a required array is empty, never NULL).
    @inlinable
    public static func read(from row: inout some StrataRowReader) throws -> [Element] {
        let array = try row.readArray(Element.strataArrayKind)
        return try Element.strataElements(of: array, column: row.previousColumnName)
    }
}

extension Array: StrataArrayColumnValue where Element: StrataArrayElement {
    public typealias StrataElement = Element
}

extension Optional: StrataArrayColumnValue where Wrapped: StrataArrayColumnValue {
    public typealias StrataElement = Wrapped.StrataElement
}

// MARK: The built-in element types

extension String: StrataArrayElement {
    public static var strataArrayKind: StrataArray.Kind { .string }
    @inlinable public static func strataArray(_ elements: [String]) -> StrataArray { .strings(elements) }
    @inlinable
    public static func strataElements(of array: StrataArray, column: String) throws -> [String] {
        guard case .strings(let values) = array else { throw malformed(column) }
        return values
    }
}

extension Int: StrataArrayElement {
    public static var strataArrayKind: StrataArray.Kind { .int }
    @inlinable public static func strataArray(_ elements: [Int]) -> StrataArray { .ints(elements) }
    @inlinable
    public static func strataElements(of array: StrataArray, column: String) throws -> [Int] {
        guard case .ints(let values) = array else { throw malformed(column) }
        return values
    }
}

extension Int64: StrataArrayElement {
    public static var strataArrayKind: StrataArray.Kind { .int64 }
    @inlinable public static func strataArray(_ elements: [Int64]) -> StrataArray { .int64s(elements) }
    @inlinable
    public static func strataElements(of array: StrataArray, column: String) throws -> [Int64] {
        guard case .int64s(let values) = array else { throw malformed(column) }
        return values
    }
}

extension Int32: StrataArrayElement {
    public static var strataArrayKind: StrataArray.Kind { .int32 }
    @inlinable public static func strataArray(_ elements: [Int32]) -> StrataArray { .int32s(elements) }
    @inlinable
    public static func strataElements(of array: StrataArray, column: String) throws -> [Int32] {
        guard case .int32s(let values) = array else { throw malformed(column) }
        return values
    }
}

extension Int16: StrataArrayElement {
    public static var strataArrayKind: StrataArray.Kind { .int16 }
    @inlinable public static func strataArray(_ elements: [Int16]) -> StrataArray { .int16s(elements) }
    @inlinable
    public static func strataElements(of array: StrataArray, column: String) throws -> [Int16] {
        guard case .int16s(let values) = array else { throw malformed(column) }
        return values
    }
}

extension Double: StrataArrayElement {
    public static var strataArrayKind: StrataArray.Kind { .double }
    @inlinable public static func strataArray(_ elements: [Double]) -> StrataArray { .doubles(elements) }
    @inlinable
    public static func strataElements(of array: StrataArray, column: String) throws -> [Double] {
        guard case .doubles(let values) = array else { throw malformed(column) }
        return values
    }
}

extension Float: StrataArrayElement {
    public static var strataArrayKind: StrataArray.Kind { .float }
    @inlinable public static func strataArray(_ elements: [Float]) -> StrataArray { .floats(elements) }
    @inlinable
    public static func strataElements(of array: StrataArray, column: String) throws -> [Float] {
        guard case .floats(let values) = array else { throw malformed(column) }
        return values
    }
}

extension Bool: StrataArrayElement {
    public static var strataArrayKind: StrataArray.Kind { .bool }
    @inlinable public static func strataArray(_ elements: [Bool]) -> StrataArray { .bools(elements) }
    @inlinable
    public static func strataElements(of array: StrataArray, column: String) throws -> [Bool] {
        guard case .bools(let values) = array else { throw malformed(column) }
        return values
    }
}

extension UUID: StrataArrayElement {
    public static var strataArrayKind: StrataArray.Kind { .uuid }
    @inlinable public static func strataArray(_ elements: [UUID]) -> StrataArray { .uuids(elements) }
    @inlinable
    public static func strataElements(of array: StrataArray, column: String) throws -> [UUID] {
        guard case .uuids(let values) = array else { throw malformed(column) }
        return values
    }
}

extension Date: StrataArrayElement {
    public static var strataArrayKind: StrataArray.Kind { .date }
    @inlinable public static func strataArray(_ elements: [Date]) -> StrataArray { .dates(elements) }
    @inlinable
    public static func strataElements(of array: StrataArray, column: String) throws -> [Date] {
        guard case .dates(let values) = array else { throw malformed(column) }
        return values
    }
}

extension Decimal: StrataArrayElement {
    public static var strataArrayKind: StrataArray.Kind { .decimal }
    @inlinable public static func strataArray(_ elements: [Decimal]) -> StrataArray { .decimals(elements) }
    @inlinable
    public static func strataElements(of array: StrataArray, column: String) throws -> [Decimal] {
        guard case .decimals(let values) = array else { throw malformed(column) }
        return values
    }
}

extension Data: StrataArrayElement {
    public static var strataArrayKind: StrataArray.Kind { .data }
    @inlinable public static func strataArray(_ elements: [Data]) -> StrataArray { .data(elements) }
    @inlinable
    public static func strataElements(of array: StrataArray, column: String) throws -> [Data] {
        guard case .data(let values) = array else { throw malformed(column) }
        return values
    }
}

extension URL: StrataArrayElement {
    public static var strataArrayKind: StrataArray.Kind { .string }
    /// The URLs' `absoluteString`s.
    @inlinable public static func strataArray(_ elements: [URL]) -> StrataArray {
        .strings(elements.map(\.absoluteString))
    }
    @inlinable
    public static func strataElements(of array: StrataArray, column: String) throws -> [URL] {
        guard case .strings(let values) = array else { throw malformed(column) }
        return try values.map { text in
            guard let url = URL(string: text) else { throw malformed(column) }
            return url
        }
    }
}

// MARK: Enums and value types

extension StrataArrayElement where Self: RawRepresentable, RawValue: StrataArrayElement {
    /// Stored as the raw value's type.
    public static var strataArrayKind: StrataArray.Kind { RawValue.strataArrayKind }

    /// The raw values.
    @inlinable
    public static func strataArray(_ elements: [Self]) -> StrataArray { RawValue.strataArray(elements.map(\.rawValue)) }

    /// The values of the stored raw values. A raw value an enum has no case for reads as its
    /// `unknown` case, or is ``StrataDecodingError/unknownEnumValue(column:type:rawValue:)``
    /// without one; one a value type refuses is ``StrataDecodingError/malformed(column:type:)``.
    @inlinable
    public static func strataElements(of array: StrataArray, column: String) throws -> [Self] {
        try RawValue.strataElements(of: array, column: column).map { raw in
            if let value = Self(rawValue: raw) { return value }
            let type = String(describing: Self.self)
            guard let enumType = Self.self as? any StrataEnumColumnValue.Type else {
                throw StrataDecodingError.malformed(column: column, type: type)
            }
            if let unknown = enumType.unknownCase(as: Self.self) { return unknown }
            throw StrataDecodingError.unknownEnumValue(column: column, type: type, rawValue: String(describing: raw))
        }
    }
}

extension StrataEnumColumnValue {
    /// The `unknown` case, as `type` (which is `Self`).
    @usableFromInline
    static func unknownCase<T>(as type: T.Type) -> T? { strataUnknownCase as? T }
}
