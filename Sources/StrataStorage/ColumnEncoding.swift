import Foundation

/// How each built-in schema type is stored, decided once for the DDL (StrataCore) and the
/// runtime (StrataRuntime) alike, so that the columns the SQL declares are exactly what
/// generated code binds and reads.
///
/// SQLite: UUID is a 16-byte BLOB (RFC 4122 byte order), Date is a REAL of seconds since
/// 2001-01-01T00:00:00Z (``SQLiteDateFormat/current``: the `Double` a `Date` holds, so it reads back
/// `==`), Decimal is TEXT in its canonical `description`, Bool is INTEGER 0/1, URL is TEXT (its
/// `absoluteString`, on both databases), JSON is TEXT holding JSON (`JSONB` on PostgreSQL).
/// PostgreSQL uses its native types; a Date is a TIMESTAMPTZ of whole microseconds (``PostgresStorage``).
public enum ColumnEncoding: String, CaseIterable, Sendable, Hashable {
    case string = "String"
    case int = "Int"
    case int64 = "Int64"
    case int32 = "Int32"
    case int16 = "Int16"
    case double = "Double"
    case float = "Float"
    case bool = "Bool"
    case uuid = "UUID"
    case date = "Date"
    case data = "Data"
    case decimal = "Decimal"
    case url = "URL"
    case json = "JSON"

    /// The column type in SQLite.
    public var sqliteType: String {
        switch self {
        case .string, .decimal, .url, .json: return "TEXT"
        case .int, .int64, .int32, .int16, .bool: return "INTEGER"
        case .double, .float, .date: return "REAL"
        case .uuid, .data: return "BLOB"
        }
    }

    /// The column type in PostgreSQL.
    public var postgresType: String {
        switch self {
        case .string, .url: return "TEXT"
        case .int, .int64: return "BIGINT"
        case .int32: return "INTEGER"
        case .int16: return "SMALLINT"
        case .double: return "DOUBLE PRECISION"
        case .float: return "REAL"
        case .bool: return "BOOLEAN"
        case .uuid: return "UUID"
        case .date: return "TIMESTAMPTZ"
        case .data: return "BYTEA"
        case .decimal: return "NUMERIC"
        case .json: return "JSONB"
        }
    }

    /// True when an array field can hold elements of this type (`[String]`): every built-in type
    /// but JSON (a JSON value holds its own arrays).
    public var isArrayElement: Bool {
        switch self {
        case .string, .int, .int64, .int32, .int16, .double, .float, .bool, .uuid, .url, .date, .data, .decimal: return true
        case .json: return false
        }
    }

    /// The column type in SQLite of an array of this type: TEXT holding a JSON array
    /// (`'["a","b"]'`; UUIDs as their text, Bools as `true`/`false`, Dates as the numbers a Date
    /// column stores, Decimals as strings of their text, Data as strings of base64).
    public static var sqliteArrayType: String { "TEXT" }

    /// The column type in PostgreSQL of an array of this type: its native array (`TEXT[]`).
    public var postgresArrayType: String { postgresType + "[]" }
}

/// Conversions between Swift values and their SQLite storage, for the types whose storage
/// differs from the Swift value.
public enum SQLiteStorage {
    /// The 16 bytes of a UUID, in RFC 4122 order.
    @inlinable
    public static func bytes(of uuid: UUID) -> [UInt8] {
        let u = uuid.uuid
        return [u.0, u.1, u.2, u.3, u.4, u.5, u.6, u.7, u.8, u.9, u.10, u.11, u.12, u.13, u.14, u.15]
    }

    /// Calls `body` with the 16 bytes of a UUID, in RFC 4122 order (the same bytes as `bytes(of:)`),
    /// without allocating: what hot paths bind.
    @inlinable
    public static func withBytes<R>(of uuid: UUID, _ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try Swift.withUnsafeBytes(of: uuid.uuid, body)
    }

    /// The UUID of 16 bytes, or nil when there are not exactly 16.
    @inlinable
    public static func uuid(bytes pointer: UnsafeRawPointer?, count: Int) -> UUID? {
        guard count == 16, let pointer else { return nil }
        let b = pointer.assumingMemoryBound(to: UInt8.self)
        return UUID(uuid: (b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]))
    }

    /// A Date as stored (``SQLiteDateFormat/current``): seconds since 2001-01-01T00:00:00Z, the
    /// `Double` the Date holds, so that it reads back `==`.
    @inlinable
    public static func seconds(of date: Date) -> Double { SQLiteDateFormat.current.seconds(of: date) }

    /// The Date of stored seconds (``SQLiteDateFormat/current``).
    @inlinable
    public static func date(seconds: Double) -> Date { SQLiteDateFormat.current.date(seconds: seconds) }

    /// A Decimal as stored: its canonical text, independent of locale.
    @inlinable
    public static func text(of decimal: Decimal) -> String { decimal.description }

    /// The Decimal of stored text, or nil when the text is not a number.
    @inlinable
    public static func decimal(text: String) -> Decimal? { Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")) }
}
