import GRDBSQLite

/// An in-memory SQLite database holding a model's latest schema, on which named queries are
/// prepared (never run) to check them and read their parameters and result columns.
///
/// It uses the SQLite C library directly (GRDBSQLite is the system library's module, not GRDB),
/// so that `strata-generator`, which the plugins build, links no database client.
final class SQLiteScratchDatabase {
    /// Why SQLite refused a statement: its message and the byte offset it points at (nil when
    /// SQLite names no position).
    struct Failure: Error {
        var message: String
        var offset: Int?
    }

    /// One result column of a prepared statement.
    struct Column {
        /// Its name (`sqlite3_column_name`).
        var name: String
        /// The table and column it is read from, when it is a column and not an expression.
        var table: String?
        var origin: String?
    }

    /// What preparing a statement tells.
    struct Prepared {
        /// The result columns, in order.
        var columns: [Column]
        /// The parameters by index (1-based index - 1): their name with its prefix (`:isDone`),
        /// nil for an anonymous `?`.
        var parameters: [String?]
        /// True when the statement does not write (`sqlite3_stmt_readonly`).
        var isReadOnly: Bool
        /// The byte offset of text after the first statement that is not space, a comment or `;`.
        var trailingOffset: Int?
    }

    private let handle: OpaquePointer

    /// A new in-memory database on which `schema` (a `schema.sql` of the SQLite dialect) has run.
    init(schema: String) throws(Failure) {
        var db: OpaquePointer?
        guard sqlite3_open_v2(":memory:", &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil) == SQLITE_OK, let db
        else {
            if let db { sqlite3_close_v2(db) }
            throw Failure(message: "cannot open an in-memory SQLite database", offset: nil)
        }
        handle = db
        var message: UnsafeMutablePointer<CChar>?
        if sqlite3_exec(db, schema, nil, nil, &message) != SQLITE_OK {
            let text = message.map { String(cString: $0) } ?? "unknown error"
            sqlite3_free(message)
            throw Failure(message: "the schema does not run on SQLite: \(text)", offset: nil)
        }
    }

    deinit {
        sqlite3_close_v2(handle)
    }

    /// Prepares `sql` (its first statement) and describes it, or throws SQLite's error.
    func prepare(_ sql: String) throws(Failure) -> Prepared {
        var utf8 = Array(sql.utf8CString)
        let count = utf8.count - 1
        var statement: OpaquePointer?
        var tailOffset = count
        let code = utf8.withUnsafeMutableBufferPointer { buffer -> Int32 in
            guard let base = buffer.baseAddress else { return SQLITE_MISUSE }
            var tail: UnsafePointer<CChar>?
            let code = sqlite3_prepare_v2(handle, base, Int32(count), &statement, &tail)
            if let tail { tailOffset = UnsafePointer(base).distance(to: tail) }
            return code
        }
        guard code == SQLITE_OK else {
            let offset = Int(sqlite3_error_offset(handle))
            throw Failure(message: String(cString: sqlite3_errmsg(handle)), offset: offset >= 0 ? offset : nil)
        }
        guard let statement else { throw Failure(message: "the query holds no statement", offset: nil) }
        defer { sqlite3_finalize(statement) }
        var columns: [Column] = []
        for index in 0..<sqlite3_column_count(statement) {
            columns.append(
                Column(
                    name: sqlite3_column_name(statement, index).map { String(cString: $0) } ?? "",
                    table: sqlite3_column_table_name(statement, index).map { String(cString: $0) },
                    origin: sqlite3_column_origin_name(statement, index).map { String(cString: $0) }))
        }
        var parameters: [String?] = []
        let parameterCount = sqlite3_bind_parameter_count(statement)
        if parameterCount > 0 {
            for index in 1...parameterCount {
                parameters.append(sqlite3_bind_parameter_name(statement, index).map { String(cString: $0) })
            }
        }
        return Prepared(
            columns: columns, parameters: parameters, isReadOnly: sqlite3_stmt_readonly(statement) != 0,
            trailingOffset: Self.significantOffset(in: sql, from: tailOffset))
    }

    /// The offset of the first byte from `offset` on that is not space, `;` or a comment.
    private static func significantOffset(in sql: String, from offset: Int) -> Int? {
        let bytes = Array(sql.utf8)
        var index = offset
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\t")
                || byte == UInt8(ascii: "\r") || byte == UInt8(ascii: ";")
            {
                index += 1
            } else if byte == UInt8(ascii: "-"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "-") {
                while index < bytes.count, bytes[index] != UInt8(ascii: "\n") { index += 1 }
            } else {
                return index
            }
        }
        return nil
    }
}
