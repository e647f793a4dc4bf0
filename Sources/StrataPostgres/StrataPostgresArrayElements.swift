import Foundation
import PostgresNIO
import StrataRuntime

// The elements of `TIMESTAMPTZ[]`, `NUMERIC[]` and `BYTEA[]` arrays (`[Date]`, `[Decimal]`,
// `[Data]` fields), in PostgresNIO's binary array coding: PostgresNIO codes arrays of any
// `PostgresArrayEncodable`/`PostgresArrayDecodable` element, and these wrappers are such elements
// coded as the columns of their scalars are (a Date to the microsecond, ``StrataPostgresTimestamp``).

extension StrataPostgresTimestamp: PostgresArrayEncodable, PostgresArrayDecodable {
    public static var psqlArrayType: PostgresDataType { .timestamptzArray }
}

extension Array where Element == Date {
    /// The dates to the nearest microsecond, as a `TIMESTAMPTZ[]` column stores them.
    @inlinable
    public var strataStored: [Date] { map(\.strataStored) }
}

extension Optional where Wrapped == [Date] {
    /// The dates to the nearest microsecond, if any.
    @inlinable
    public var strataStored: [Date]? { map(\.strataStored) }
}

/// An element of a `NUMERIC[]`: a Decimal, bound as PostgresNIO binds a `NUMERIC` column's, and
/// read from the binary `NUMERIC` by hand: a stored value no Decimal equals (`NaN`, an infinity,
/// more significant digits than a Decimal's 128-bit mantissa holds, a magnitude past its range) is an error, where
/// PostgresNIO's Decimal decoding reads `NaN` as 0, rounds away digits, or stops the process.
/// Decimal's NaN, which `NUMERIC`'s binary coding has no form for, is an error to bind.
struct StrataPostgresNumeric: PostgresArrayEncodable, PostgresArrayDecodable, Sendable {
    let decimal: Decimal

    init(_ decimal: Decimal) { self.decimal = decimal }

    /// A Decimal that is NaN, in an array being bound.
    struct NotANumber: Error, CustomStringConvertible {
        var description: String { "Decimal.nan has no NUMERIC form in PostgreSQL's binary coding: arrays of Decimals hold numbers" }
    }

    static var psqlType: PostgresDataType { .numeric }
    static var psqlFormat: PostgresFormat { .binary }
    static var psqlArrayType: PostgresDataType { .numericArray }

    func encode<JSONEncoder: PostgresJSONEncoder>(into byteBuffer: inout ByteBuffer, context: PostgresEncodingContext<JSONEncoder>) throws {
        guard !decimal.isNaN else { throw NotANumber() }
        decimal.encode(into: &byteBuffer, context: context)
    }

    init<JSONDecoder: PostgresJSONDecoder>(
        from buffer: inout ByteBuffer, type: PostgresDataType, format: PostgresFormat, context: PostgresDecodingContext<JSONDecoder>
    ) throws {
        guard format == .binary, type == .numeric,
            let (count, weight, sign, _) = buffer.readMultipleIntegers(endianness: .big, as: (Int16, Int16, UInt16, Int16).self),
            count >= 0, sign == 0 || sign == 0x4000, buffer.readableBytes == Int(count) * 2
        else {
            throw PostgresDecodingError.Code.failure
        }
        var groups: [Int16] = []
        groups.reserveCapacity(Int(count))
        while let group = buffer.readInteger(endianness: .big, as: Int16.self) { groups.append(group) }
        // The Decimal of the text must write the same text: no digit rounded away.
        guard let text = Self.text(groups: groups, weight: Int(weight), isNegative: sign == 0x4000),
            let decimal = SQLiteStorage.decimal(text: text), SQLiteStorage.text(of: decimal) == text
        else {
            throw PostgresDecodingError.Code.failure
        }
        self.decimal = decimal
    }

    /// The text of a binary `NUMERIC` (base-10000 digit groups, the first `weight` groups from
    /// the point), without leading or trailing zeros, as a Decimal's `description` writes it;
    /// nil for a group that is no base-10000 digit.
    static func text(groups: [Int16], weight: Int, isNegative: Bool) -> String? {
        guard groups.allSatisfy({ (0..<10_000).contains($0) }) else { return nil }
        var digits = ""
        let leading = max(0, -(weight + 1))
        digits += String(repeating: "0000", count: leading)
        for group in groups {
            let text = String(group)
            digits += String(repeating: "0", count: 4 - text.count) + text
        }
        let point = max(0, (weight + 1) * 4)
        if digits.count < point { digits += String(repeating: "0", count: point - digits.count) }
        var integer = digits.prefix(point).drop { $0 == "0" }
        var fraction = digits.dropFirst(point)
        while fraction.last == "0" { fraction = fraction.dropLast() }
        if integer.isEmpty { integer = "0" }
        let number = fraction.isEmpty ? String(integer) : integer + "." + fraction
        return isNegative && number != "0" ? "-" + number : number
    }
}

/// An element of a `BYTEA[]`: the bytes themselves.
struct StrataPostgresBytes: PostgresArrayEncodable, PostgresArrayDecodable, Sendable {
    let data: Data

    init(_ data: Data) { self.data = data }

    static var psqlType: PostgresDataType { .bytea }
    static var psqlFormat: PostgresFormat { .binary }
    static var psqlArrayType: PostgresDataType { .byteaArray }

    func encode<JSONEncoder: PostgresJSONEncoder>(into byteBuffer: inout ByteBuffer, context: PostgresEncodingContext<JSONEncoder>) {
        byteBuffer.writeBytes(data)
    }

    init<JSONDecoder: PostgresJSONDecoder>(
        from buffer: inout ByteBuffer, type: PostgresDataType, format: PostgresFormat, context: PostgresDecodingContext<JSONDecoder>
    ) throws {
        guard format == .binary, type == .bytea, let bytes = buffer.readBytes(length: buffer.readableBytes) else {
            throw PostgresDecodingError.Code.typeMismatch
        }
        data = Data(bytes)
    }
}

// A value type stored as a Date (`types: { Stamp: Date }`), alone or in an array, comes back to
// the microsecond too: `strataStored` of records with such fields rounds its date.

extension StrataRawColumnValue where RawValue == Date {
    /// The value of its date to the nearest microsecond, as a `TIMESTAMPTZ` stores it (the value
    /// itself, should its type refuse that date).
    @inlinable
    public var strataStored: Self { Self(rawValue: rawValue.strataStored) ?? self }
}

extension Optional where Wrapped: StrataRawColumnValue, Wrapped.RawValue == Date {
    /// The value to the nearest microsecond, if any.
    @inlinable
    public var strataStored: Wrapped? { map(\.strataStored) }
}

extension Array where Element: StrataRawColumnValue, Element.RawValue == Date {
    /// The values to the nearest microsecond, as a `TIMESTAMPTZ[]` stores them.
    @inlinable
    public var strataStored: [Element] { map(\.strataStored) }
}

extension Optional where Wrapped: RangeReplaceableCollection, Wrapped.Element: StrataRawColumnValue, Wrapped.Element.RawValue == Date {
    /// The values to the nearest microsecond, if any.
    @inlinable
    public var strataStored: Wrapped? { map { Wrapped($0.map(\.strataStored)) } }
}
