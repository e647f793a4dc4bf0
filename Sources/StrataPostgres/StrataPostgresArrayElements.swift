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

/// An element of a `NUMERIC[]`: a Decimal coded as PostgresNIO codes a `NUMERIC` column's.
/// Decimal's NaN, which `NUMERIC` coding has no form for, is an error to bind; a stored `NaN` or
/// infinity, which no Decimal equals, is an error to read.
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
        // The sign word (after ndigits and weight): 0x0000 positive, 0x4000 negative; NaN and the
        // infinities are others, which PostgresNIO's Decimal decoding would read as 0.
        if format == .binary, type == .numeric {
            guard let sign = buffer.getInteger(at: buffer.readerIndex + 4, as: UInt16.self), sign == 0 || sign == 0x4000 else {
                throw PostgresDecodingError.Code.failure
            }
        }
        decimal = try Decimal(from: &buffer, type: type, format: format, context: context)
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
