import Foundation
import GRDB
import GRDBSQLite
import StrataRuntime

/// Binds Swift values to the parameters of a prepared statement, stored as ``ColumnEncoding``
/// says. Indexes are 1-based, as in SQLite. Used by generated code on its hot paths.
@usableFromInline enum StrataBind {
    /// SQLite's `SQLITE_TRANSIENT`: SQLite copies the bytes before the call returns.
    @usableFromInline
    static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    /// A non-null pointer for empty text and blobs (a null pointer would bind NULL).
    @usableFromInline
    static var empty: UnsafeRawPointer { UnsafeRawPointer(("" as StaticString).utf8Start) }

    /// Throws the connection's error when a bind did not succeed.
    @inlinable
    static func check(_ code: Int32, _ statement: SQLiteStatement) throws {
        if code != SQLITE_OK { throw StrataStatementError.bindFailed(statement, code) }
    }

    /// Binds NULL.
    @inlinable
    static func null(_ statement: SQLiteStatement, _ index: Int32) throws {
        try check(sqlite3_bind_null(statement, index), statement)
    }

    /// Binds text (copied by SQLite).
    @inlinable
    static func string(_ statement: SQLiteStatement, _ index: Int32, _ value: String) throws {
        var value = value
        let code = value.withUTF8 { buffer in
            sqlite3_bind_text(
                statement,
                index,
                UnsafeRawPointer(buffer.baseAddress ?? empty.assumingMemoryBound(to: UInt8.self))
                    .assumingMemoryBound(to: CChar.self),
                Int32(buffer.count),
                transient
            )
        }
        try check(code, statement)
    }

    /// Binds an integer.
    @inlinable
    static func int64(_ statement: SQLiteStatement, _ index: Int32, _ value: Int64) throws {
        try check(sqlite3_bind_int64(statement, index, value), statement)
    }

    /// Binds an integer.
    @inlinable
    static func int(_ statement: SQLiteStatement, _ index: Int32, _ value: Int) throws {
        try check(sqlite3_bind_int64(statement, index, Int64(value)), statement)
    }

    /// Binds an integer.
    @inlinable
    static func int32(_ statement: SQLiteStatement, _ index: Int32, _ value: Int32) throws {
        try check(sqlite3_bind_int64(statement, index, Int64(value)), statement)
    }

    /// Binds an integer.
    @inlinable
    static func int16(_ statement: SQLiteStatement, _ index: Int32, _ value: Int16) throws {
        try check(sqlite3_bind_int64(statement, index, Int64(value)), statement)
    }

    /// Binds a REAL.
    @inlinable
    static func double(_ statement: SQLiteStatement, _ index: Int32, _ value: Double) throws {
        try check(sqlite3_bind_double(statement, index, value), statement)
    }

    /// Binds a REAL.
    @inlinable
    static func float(_ statement: SQLiteStatement, _ index: Int32, _ value: Float) throws {
        try check(sqlite3_bind_double(statement, index, Double(value)), statement)
    }

    /// Binds a Bool as INTEGER 0 or 1.
    @inlinable
    static func bool(_ statement: SQLiteStatement, _ index: Int32, _ value: Bool) throws {
        try check(sqlite3_bind_int64(statement, index, value ? 1 : 0), statement)
    }

    /// Binds a UUID as its 16 bytes.
    @inlinable
    static func uuid(_ statement: SQLiteStatement, _ index: Int32, _ value: UUID) throws {
        let code = SQLiteStorage.withBytes(of: value) { bytes in
            sqlite3_bind_blob(statement, index, bytes.baseAddress, 16, transient)
        }
        try check(code, statement)
    }

    /// Binds a Date as REAL seconds since 1970.
    @inlinable
    static func date(_ statement: SQLiteStatement, _ index: Int32, _ value: Date) throws {
        try check(sqlite3_bind_double(statement, index, SQLiteStorage.seconds(of: value)), statement)
    }

    /// Binds a Date as ISO 8601 text in `format` (a field declared with `format:`), written into a
    /// buffer on the stack; a year outside 0000…9999 throws ``StrataStatementError/dateOutOfRange(_:sql:)``.
    @inline(never)
    @usableFromInline static func date(_ statement: SQLiteStatement, _ index: Int32, _ value: Date, as format: SQLiteDateText) throws {
        let code = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: SQLiteDateText.maximumLength) { buffer in
            format.write(value, into: buffer).map { count in
                buffer.baseAddress.map { base in
                    UnsafeRawPointer(base).withMemoryRebound(to: CChar.self, capacity: count) {
                        sqlite3_bind_text(statement, index, $0, Int32(count), transient)
                    }
                } ?? SQLITE_NOMEM
            }
        }
        guard let code else {
            throw StrataStatementError.dateOutOfRange(value, sql: sqlite3_sql(statement).map { String(cString: $0) } ?? "")
        }
        try check(code, statement)
    }

    /// Binds bytes as a BLOB (an empty Data is an empty BLOB, not NULL).
    @inlinable
    static func data(_ statement: SQLiteStatement, _ index: Int32, _ value: Data) throws {
        let code = value.withUnsafeBytes { bytes in
            sqlite3_bind_blob(statement, index, bytes.baseAddress ?? empty, Int32(bytes.count), transient)
        }
        try check(code, statement)
    }

    /// Binds a Decimal as its canonical text.
    @inlinable
    static func decimal(_ statement: SQLiteStatement, _ index: Int32, _ value: Decimal) throws {
        try string(statement, index, SQLiteStorage.text(of: value))
    }
}
