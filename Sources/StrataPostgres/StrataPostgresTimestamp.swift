import Foundation
import PostgresNIO
import StrataRuntime

extension Date {
    /// The date to the nearest microsecond, the precision of `TIMESTAMPTZ`: what PostgreSQL gives back.
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
    /// ``Foundation/Date/strataStored`` of the date, if any.
    @inlinable
    public var strataStored: Date? { map(\.strataStored) }

    /// ``Foundation/Date/strataStoredDay`` of the date, if any.
    @inlinable
    public var strataStoredDay: Date? { map(\.strataStoredDay) }
}

/// A `Date` as `TIMESTAMPTZ` stores it: whole microseconds since 2000-01-01 00:00:00 UTC, the
/// nearest to the date (``PostgresStorage/microseconds(of:)``, shared with the DDL's defaults). A
/// fetch reads back ``date`` (``PostgresStorage/date(microseconds:)``), which is `==` to what any
/// later fetch reads; the records that inserts and upserts return carry the same dates
/// (``StrataRecord/strataStored``, or the row read back), so they agree with fetches. Two dates less than half a microsecond apart are stored
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
