import Foundation
import PostgresNIO
import StrataRuntime

// The elements of `TIMESTAMPTZ[]`, `NUMERIC[]` and `BYTEA[]` arrays (`[Date]`, `[Decimal]`,
// `[Data]` fields), in PostgresNIO's binary array coding: PostgresNIO codes arrays of any
// `PostgresArrayEncodable`/`PostgresArrayDecodable` element, and these wrappers are such elements
// coded as the columns of their scalars are (a Date to the microsecond, ``StrataPostgresTimestamp``;
// a Decimal as ``StrataPostgresNumeric``).

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

/// An element of a `BYTEA[]`: the bytes themselves.
struct StrataPostgresBytes: PostgresArrayEncodable, PostgresArrayDecodable, Sendable {
    let data: Data

    init(_ data: Data) { self.data = data }

    static var psqlType: PostgresDataType { .bytea }
    static var psqlFormat: PostgresFormat { .binary }
    static var psqlArrayType: PostgresDataType { .byteaArray }

    func encode<JSONEncoder: PostgresJSONEncoder>(
        into byteBuffer: inout ByteBuffer, context: PostgresEncodingContext<JSONEncoder>
    ) {
        byteBuffer.writeBytes(data)
    }

    init<JSONDecoder: PostgresJSONDecoder>(
        from buffer: inout ByteBuffer, type: PostgresDataType, format: PostgresFormat,
        context: PostgresDecodingContext<JSONDecoder>
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

extension Optional
where Wrapped: RangeReplaceableCollection, Wrapped.Element: StrataRawColumnValue, Wrapped.Element.RawValue == Date {
    /// The values to the nearest microsecond, if any.
    @inlinable
    public var strataStored: Wrapped? { map { Wrapped($0.map(\.strataStored)) } }
}
