import Foundation
import GRDB
import GRDBSQLite
import StrataRuntime

/// Reads a value of the current row of a stepped statement (`sqlite3_column_value`), stored as
/// ``ColumnEncoding`` says; the statement and the column's 0-based index name the column in
/// errors. Non-optional readers throw a
/// ``StrataDecodingError`` for NULL or malformed values instead of crashing; used by generated
/// code on its hot paths.
///
/// ``StrataSQLiteRow`` takes each column's value once and a read asks it for its type and its
/// content: every `sqlite3_column_*` call enters the connection and checks its error state, so
/// one such call per column (and one more, `sqlite3_column_type`, for an optional column's NULL
/// check) is what a careful hand-written loop costs.
///
/// Fixed-width values (integers, reals, Bools, Dates) are read inline: a call would cost as much as
/// the read. Text, UUIDs, BLOBs and Decimals are read by a call (`@inline(never)`): building the
/// value (a String, a UUID from bytes, a copy, a parse) outweighs a call, and inlined into every
/// record's `init(row:)` they took about half of a release build's optimizer time for it.
@usableFromInline enum StrataRead {
    /// `value`, which must not be NULL.
    @inlinable
    static func nonNull(_ value: OpaquePointer?, _ statement: SQLiteStatement, _ index: Int32) throws -> OpaquePointer? {
        if sqlite3_value_type(value) == SQLITE_NULL {
            throw StrataDecodingError.unexpectedNull(column: columnName(statement, index))
        }
        return value
    }

    /// Text.
    @inline(never)
    @usableFromInline static func string(_ value: OpaquePointer?, _ statement: SQLiteStatement, _ index: Int32) throws -> String {
        guard let text = sqlite3_value_text(value) else {
            throw StrataDecodingError.unexpectedNull(column: columnName(statement, index))
        }
        let count = Int(sqlite3_value_bytes(value))
        return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
    }

    /// JSON text, parsed from the column's bytes without making a `String` of it first.
    @inline(never)
    @usableFromInline static func json(_ value: OpaquePointer?, _ statement: SQLiteStatement, _ index: Int32) throws -> StrataJSON {
        guard let text = sqlite3_value_text(value) else {
            throw StrataDecodingError.unexpectedNull(column: columnName(statement, index))
        }
        let count = Int(sqlite3_value_bytes(value))
        do {
            return try StrataJSONParser.parse(UnsafeRawBufferPointer(start: text, count: count))
        } catch let error as StrataJSONError {
            throw StrataDecodingError.malformedJSON(column: columnName(statement, index), type: "JSON", reason: error.description)
        }
    }

    /// An integer.
    @inlinable
    static func int64(_ value: OpaquePointer?, _ statement: SQLiteStatement, _ index: Int32) throws -> Int64 {
        let integer = sqlite3_value_int64(value)
        // NULL reads as 0: only a 0 needs its type asked.
        if integer == 0 { _ = try nonNull(value, statement, index) }
        return integer
    }

    /// An integer.
    @inlinable
    static func int(_ value: OpaquePointer?, _ statement: SQLiteStatement, _ index: Int32) throws -> Int {
        guard let value = Int(exactly: try int64(value, statement, index)) else {
            throw outOfRange(statement, index, "Int")
        }
        return value
    }

    /// An integer that must fit 32 bits.
    @inlinable
    static func int32(_ value: OpaquePointer?, _ statement: SQLiteStatement, _ index: Int32) throws -> Int32 {
        guard let value = Int32(exactly: try int64(value, statement, index)) else {
            throw outOfRange(statement, index, "Int32")
        }
        return value
    }

    /// An integer that must fit 16 bits.
    @inlinable
    static func int16(_ value: OpaquePointer?, _ statement: SQLiteStatement, _ index: Int32) throws -> Int16 {
        guard let value = Int16(exactly: try int64(value, statement, index)) else {
            throw outOfRange(statement, index, "Int16")
        }
        return value
    }

    /// A REAL.
    @inlinable
    static func double(_ value: OpaquePointer?, _ statement: SQLiteStatement, _ index: Int32) throws -> Double {
        let real = sqlite3_value_double(value)
        if real == 0 { _ = try nonNull(value, statement, index) }
        return real
    }

    /// A REAL, narrowed.
    @inlinable
    static func float(_ value: OpaquePointer?, _ statement: SQLiteStatement, _ index: Int32) throws -> Float {
        Float(try double(value, statement, index))
    }

    /// A Bool stored as INTEGER 0 or 1 (any non-zero value reads as true).
    @inlinable
    static func bool(_ value: OpaquePointer?, _ statement: SQLiteStatement, _ index: Int32) throws -> Bool {
        try int64(value, statement, index) != 0
    }

    /// A UUID stored as 16 bytes.
    @inline(never)
    @usableFromInline static func uuid(_ value: OpaquePointer?, _ statement: SQLiteStatement, _ index: Int32) throws -> UUID {
        let bytes = sqlite3_value_blob(value)
        let count = Int(sqlite3_value_bytes(value))
        guard let uuid = SQLiteStorage.uuid(bytes: bytes, count: count) else {
            if bytes == nil, sqlite3_value_type(value) == SQLITE_NULL {
                throw StrataDecodingError.unexpectedNull(column: columnName(statement, index))
            }
            throw StrataDecodingError.malformed(column: columnName(statement, index), type: "UUID")
        }
        return uuid
    }

    /// A Date stored as REAL seconds since 2001 (an INTEGER too). Text (a date an existing
    /// database wrote as `2009-01-01 00:00:00`) is an error: SQLite would read its leading
    /// digits as a number (2009 seconds) without a word.
    @inlinable
    static func date(_ value: OpaquePointer?, _ statement: SQLiteStatement, _ index: Int32) throws -> Date {
        switch sqlite3_value_type(value) {
        case SQLITE_FLOAT, SQLITE_INTEGER:
            return SQLiteStorage.date(seconds: sqlite3_value_double(value))
        case SQLITE_NULL:
            throw StrataDecodingError.unexpectedNull(column: columnName(statement, index))
        default:
            throw StrataDecodingError.malformed(column: columnName(statement, index), type: "Date")
        }
    }

    /// A Date stored as ISO 8601 text (a field declared with `format:`; see ``SQLiteDateText``):
    /// the digits parsed in place, without a formatter. Text that is not a date, or a value that
    /// is not text, throws ``StrataDecodingError/malformedDate(column:value:)`` naming the table,
    /// the column and the value.
    @inline(never)
    @usableFromInline static func date(_ value: OpaquePointer?, _ statement: SQLiteStatement, _ index: Int32, as format: SQLiteDateText) throws -> Date {
        switch sqlite3_value_type(value) {
        case SQLITE_TEXT:
            if let text = sqlite3_value_text(value),
                let date = SQLiteDateText.date(utf8: UnsafeBufferPointer(start: text, count: Int(sqlite3_value_bytes(value))))
            {
                return date
            }
        case SQLITE_NULL:
            throw StrataDecodingError.unexpectedNull(column: columnName(statement, index))
        default:
            break
        }
        let text = sqlite3_value_text(value).map { String(cString: $0) } ?? ""
        throw StrataDecodingError.malformedDate(column: qualifiedColumnName(statement, index), value: text)
    }

    /// A BLOB (a zero-length BLOB reads as empty Data).
    @inline(never)
    @usableFromInline static func data(_ value: OpaquePointer?, _ statement: SQLiteStatement, _ index: Int32) throws -> Data {
        let bytes = sqlite3_value_blob(value)
        let count = Int(sqlite3_value_bytes(value))
        guard let bytes else {
            if sqlite3_value_type(value) == SQLITE_NULL {
                throw StrataDecodingError.unexpectedNull(column: columnName(statement, index))
            }
            return Data()
        }
        return Data(bytes: bytes, count: count)
    }

    /// A Decimal stored as text.
    @inline(never)
    @usableFromInline static func decimal(_ value: OpaquePointer?, _ statement: SQLiteStatement, _ index: Int32) throws -> Decimal {
        let text = try string(value, statement, index)
        guard let value = SQLiteStorage.decimal(text: text) else {
            throw StrataDecodingError.malformed(column: columnName(statement, index), type: "Decimal")
        }
        return value
    }

    /// The name of a result column, for error messages.
    @usableFromInline
    static func columnName(_ statement: SQLiteStatement, _ index: Int32) -> String {
        sqlite3_column_name(statement, index).map { String(cString: $0) } ?? "#\(index)"
    }

    /// The table and name of a result column (`Invoice.InvoiceDate`), when SQLite knows the table.
    static func qualifiedColumnName(_ statement: SQLiteStatement, _ index: Int32) -> String {
        let column = columnName(statement, index)
        guard let table = sqlite3_column_table_name(statement, index) else { return column }
        return String(cString: table) + "." + column
    }

    @usableFromInline
    static func outOfRange(_ statement: SQLiteStatement, _ index: Int32, _ type: StaticString) -> StrataDecodingError {
        .outOfRange(column: columnName(statement, index), type: type.description, value: sqlite3_column_int64(statement, index))
    }
}
