import Foundation
import PostgresNIO
import StrataRuntime

/// A Swift value that a PostgreSQL column holds: how it is bound to a parameter and read from a
/// result cell, in PostgreSQL's binary format through PostgresNIO's own encoders and decoders. One
/// conformance per value type (the scalar types, `Optional`, and generated enums), as for
/// ``StrataSQLiteValue``-style coding on SQLite: the compiler picks the coding from the property's type.
///
/// | Swift | PostgreSQL |
/// |---|---|
/// | `String` | `TEXT` |
/// | `Int16`, `Int32`, `Int64`, `Int` | `SMALLINT`, `INTEGER`, `BIGINT`, `BIGINT` |
/// | `Double`, `Float` | `DOUBLE PRECISION`, `REAL` |
/// | `Bool` | `BOOLEAN` |
/// | `UUID` | `UUID` |
/// | `Date` | `TIMESTAMPTZ` (microseconds: see ``PostgresStorage``) |
/// | `Data` | `BYTEA` |
/// | `Decimal` | `NUMERIC` |
public protocol StrataPostgresValue: StrataColumnValue {
    /// The value of a result cell; throws ``StrataDecodingError`` for NULL in a non-optional
    /// value or a malformed value.
    static func read(_ cell: PostgresCell) throws -> Self
    /// Appends the value to a statement's parameters.
    func bind(to bindings: inout PostgresBindings) throws
    /// The value as its column gives it back once stored: the value itself, but for `Date`
    /// (to the microsecond).
    var strataStored: Self { get }
}

extension StrataPostgresValue {
    /// The value itself: its column stores it exactly.
    @inlinable
    public var strataStored: Self { self }
}

// Each scalar type's read and bind is its own function, called directly and not inlined into
// every record's `init(row:)` and `bind(to:)`: each is PostgresNIO's whole decoder or encoder for
// its type, and inlined at every column they made the optimizer spend most of a release build of
// generated code on them. A direct call per value costs little next to the wire format's parsing
// (see Docs/DesignNotes/ReleaseCompileTime.md). The protocol gives no default, so a new scalar type lists both here.
extension StrataPostgresValue where Self: PostgresEncodable & PostgresDecodable {
    /// The cell's value through PostgresNIO's decoder for `Self`.
    static func decoded(_ cell: PostgresCell) throws -> Self {
        guard cell.bytes != nil else { throw StrataDecodingError.unexpectedNull(column: cell.columnName) }
        do {
            return try cell.decode(Self.self)
        } catch {
            throw StrataDecodingError.malformed(column: cell.columnName, type: String(describing: Self.self))
        }
    }
}

extension String: StrataPostgresValue {
    @inline(never) public static func read(_ cell: PostgresCell) throws -> String { try decoded(cell) }
    @inline(never) public func bind(to bindings: inout PostgresBindings) throws { bindings.append(self) }
}

extension Int: StrataPostgresValue {
    @inline(never) public static func read(_ cell: PostgresCell) throws -> Int { try decoded(cell) }
    @inline(never) public func bind(to bindings: inout PostgresBindings) throws { bindings.append(self) }
}

extension Int64: StrataPostgresValue {
    @inline(never) public static func read(_ cell: PostgresCell) throws -> Int64 { try decoded(cell) }
    @inline(never) public func bind(to bindings: inout PostgresBindings) throws { bindings.append(self) }
}

extension Int32: StrataPostgresValue {
    @inline(never) public static func read(_ cell: PostgresCell) throws -> Int32 { try decoded(cell) }
    @inline(never) public func bind(to bindings: inout PostgresBindings) throws { bindings.append(self) }
}

extension Int16: StrataPostgresValue {
    @inline(never) public static func read(_ cell: PostgresCell) throws -> Int16 { try decoded(cell) }
    @inline(never) public func bind(to bindings: inout PostgresBindings) throws { bindings.append(self) }
}

extension Double: StrataPostgresValue {
    @inline(never) public static func read(_ cell: PostgresCell) throws -> Double { try decoded(cell) }
    @inline(never) public func bind(to bindings: inout PostgresBindings) throws { bindings.append(self) }
}

extension Float: StrataPostgresValue {
    @inline(never) public static func read(_ cell: PostgresCell) throws -> Float { try decoded(cell) }
    @inline(never) public func bind(to bindings: inout PostgresBindings) throws { bindings.append(self) }
}

extension Bool: StrataPostgresValue {
    @inline(never) public static func read(_ cell: PostgresCell) throws -> Bool { try decoded(cell) }
    @inline(never) public func bind(to bindings: inout PostgresBindings) throws { bindings.append(self) }
}

extension UUID: StrataPostgresValue {
    @inline(never) public static func read(_ cell: PostgresCell) throws -> UUID { try decoded(cell) }
    @inline(never) public func bind(to bindings: inout PostgresBindings) throws { bindings.append(self) }
}

extension Data: StrataPostgresValue {
    @inline(never) public static func read(_ cell: PostgresCell) throws -> Data { try decoded(cell) }
    @inline(never) public func bind(to bindings: inout PostgresBindings) throws { try bindings.append(self) }
}

extension Decimal: StrataPostgresValue {
    @inline(never) public static func read(_ cell: PostgresCell) throws -> Decimal { try decoded(cell) }
    @inline(never) public func bind(to bindings: inout PostgresBindings) throws { try bindings.append(self) }
}

extension Date: StrataPostgresValue {
    @inline(never)
    public static func read(_ cell: PostgresCell) throws -> Date {
        guard cell.bytes != nil else { throw StrataDecodingError.unexpectedNull(column: cell.columnName) }
        do {
            return try cell.decode(StrataPostgresTimestamp.self).date
        } catch {
            throw StrataDecodingError.malformed(column: cell.columnName, type: "Date")
        }
    }

    /// Binds the date rounded to the nearest microsecond, the precision of `TIMESTAMPTZ`.
    @inline(never)
    public func bind(to bindings: inout PostgresBindings) throws {
        try bindings.append(StrataPostgresTimestamp(self))
    }

    /// The date to the nearest microsecond, the precision of `TIMESTAMPTZ`.
    @inlinable
    public var strataStored: Date { StrataPostgresTimestamp(self).date }

    /// The date a `DATE` column (a field declared `format: date`) stores: midnight UTC of the
    /// day the date falls in, with a connection in UTC.
    @inlinable
    public var strataStoredDay: Date {
        Date(timeIntervalSince1970: (timeIntervalSince1970 / 86_400).rounded(.down) * 86_400)
    }
}

extension Optional where Wrapped == Date {
    /// ``Foundation/Date/strataStoredDay`` of the date, if any.
    @inlinable
    public var strataStoredDay: Date? { map(\.strataStoredDay) }
}

extension Optional: StrataPostgresValue where Wrapped: StrataPostgresValue {
    @inlinable
    public static func read(_ cell: PostgresCell) throws -> Wrapped? {
        cell.bytes == nil ? nil : try Wrapped.read(cell)
    }

    @inlinable
    public func bind(to bindings: inout PostgresBindings) throws {
        switch self {
        case .none: bindings.appendNull()
        case .some(let value): try value.bind(to: &bindings)
        }
    }

    @inlinable
    public var strataStored: Wrapped? { map(\.strataStored) }
}

extension StrataEnumColumnValue where RawValue: StrataPostgresValue {
    /// The case of the stored raw value, the enum's `unknown` case for a raw value that matches no
    /// case, or ``StrataDecodingError/unknownEnumValue(column:type:rawValue:)`` when there is none.
    @inlinable
    public static func read(_ cell: PostgresCell) throws -> Self {
        let raw = try RawValue.read(cell)
        if let value = Self(rawValue: raw) ?? strataUnknownCase { return value }
        throw StrataDecodingError.unknownEnumValue(
            column: cell.columnName, type: String(describing: Self.self), rawValue: String(describing: raw))
    }

    /// Binds the raw value.
    @inlinable
    public func bind(to bindings: inout PostgresBindings) throws {
        try rawValue.bind(to: &bindings)
    }
}

/// A `Date` as `TIMESTAMPTZ` stores it: whole microseconds since 2000-01-01 00:00:00 UTC, the
/// nearest to the date (``PostgresStorage/microseconds(of:)``, shared with the DDL's defaults). A
/// fetch reads back ``date`` (``PostgresStorage/date(microseconds:)``), which is `==` to what any
/// later fetch reads; the records that inserts and upserts return carry the same dates
/// (``PostgresRecord/strataStored``, or the row read back), so they agree with fetches. Two dates less than half a microsecond apart are stored
/// the same.
public struct StrataPostgresTimestamp: PostgresEncodable, PostgresDecodable, Hashable, Sendable {
    /// Microseconds since 2000-01-01 00:00:00 UTC.
    public let microseconds: Int64

    /// The timestamp nearest to `date` (clamped to the range of `Int64` microseconds, which
    /// PostgreSQL reads as `infinity` and `-infinity` at its ends).
    @inlinable
    public init(_ date: Date) {
        microseconds = PostgresStorage.microseconds(of: date)
    }

    /// The timestamp of `microseconds` since 2000-01-01 00:00:00 UTC.
    @inlinable
    public init(microseconds: Int64) {
        self.microseconds = microseconds
    }

    /// The date a fetch reads for this timestamp.
    @inlinable
    public var date: Date { PostgresStorage.date(microseconds: microseconds) }

    /// Reads the stored microseconds themselves (PostgresNIO's `Date` decoding rounds differently),
    /// or, in text format, PostgresNIO's `Date` to the nearest microsecond.
    @inlinable
    public init<JSONDecoder: PostgresJSONDecoder>(
        from buffer: inout ByteBuffer, type: PostgresDataType, format: PostgresFormat,
        context: PostgresDecodingContext<JSONDecoder>
    ) throws {
        guard format == .binary, type == .timestamptz || type == .timestamp else {
            self.init(try Date(from: &buffer, type: type, format: format, context: context))
            return
        }
        guard buffer.readableBytes == 8, let value = buffer.readInteger(as: Int64.self) else {
            throw PostgresDecodingError.Code.failure
        }
        self.init(microseconds: value)
    }

    public static var psqlType: PostgresDataType { .timestamptz }
    public static var psqlFormat: PostgresFormat { .binary }

    @inlinable
    public func encode<JSONEncoder: PostgresJSONEncoder>(
        into byteBuffer: inout ByteBuffer, context: PostgresEncodingContext<JSONEncoder>
    ) {
        byteBuffer.writeInteger(microseconds, as: Int64.self)
    }
}
