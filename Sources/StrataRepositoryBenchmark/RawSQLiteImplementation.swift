import Foundation
import GRDBSQLite
import StrataSQLite
import StrataStorage

/// (b) Hand-written code on the SQLite C API: one prepared statement, bind, step, column reads.
/// The floor: nothing between the loop and SQLite.
final class RawSQLiteImplementation: BenchImplementation {
    private var connection: OpaquePointer?
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
    private static let columns =
        #""id", "name", "note", "quantity", "score", "is_active", "category", "created_at", "payload", "rank""#

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    convenience init() throws {
        try self.init(opening: ":memory:")
        try execute(BenchSchema.sql)
    }

    /// Opens the database at `path` (`:memory:` for a new in-memory one) without creating the table.
    init(opening path: String) throws {
        // No mutex: one thread uses the connection (GRDB opens its connections the same way).
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        guard sqlite3_open_v2(path, &connection, flags, nil) == SQLITE_OK
        else { throw Failure(description: "cannot open the database \(path)") }
    }

    deinit {
        sqlite3_close_v2(connection)
    }

    private func execute(_ sql: String) throws {
        guard sqlite3_exec(connection, sql, nil, nil, nil) == SQLITE_OK else { throw error() }
    }

    private func error() -> Failure {
        Failure(description: connection.flatMap { String(cString: sqlite3_errmsg($0)) } ?? "SQLite error")
    }

    private func prepare(_ sql: String) throws -> OpaquePointer {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v3(connection, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil) == SQLITE_OK,
            let statement
        else { throw error() }
        return statement
    }

    func insertAll(_ rows: [Sample]) throws {
        let statement = try prepare(
            "INSERT INTO \"sample\" (\(Self.columns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
        )
        defer { sqlite3_finalize(statement) }
        try execute("BEGIN")
        for row in rows {
            withUnsafeBytes(of: row.id.uuid) { bytes in
                _ = sqlite3_bind_blob(statement, 1, bytes.baseAddress, 16, Self.transient)
            }
            Self.bindText(statement, 2, row.name)
            if let note = row.note {
                Self.bindText(statement, 3, note)
            } else {
                sqlite3_bind_null(statement, 3)
            }
            sqlite3_bind_int64(statement, 4, Int64(row.quantity))
            sqlite3_bind_double(statement, 5, row.score)
            sqlite3_bind_int64(statement, 6, row.isActive ? 1 : 0)
            sqlite3_bind_int64(statement, 7, Int64(row.category.rawValue))
            sqlite3_bind_double(statement, 8, row.createdAt.timeIntervalSinceReferenceDate)
            row.payload.withUnsafeBytes { bytes in
                _ = sqlite3_bind_blob(statement, 9, bytes.baseAddress, Int32(bytes.count), Self.transient)
            }
            sqlite3_bind_int64(statement, 10, Int64(row.rank))
            guard sqlite3_step(statement) == SQLITE_DONE else {
                try? execute("ROLLBACK")
                throw error()
            }
            sqlite3_reset(statement)
        }
        try execute("COMMIT")
    }

    /// Binds text by its UTF-8 bytes and length, without making a C string.
    private static func bindText(_ statement: OpaquePointer, _ index: Int32, _ text: String) {
        var text = text
        text.withUTF8 { bytes in
            bytes.withMemoryRebound(to: CChar.self) { characters in
                _ = sqlite3_bind_text(statement, index, characters.baseAddress, Int32(characters.count), transient)
            }
        }
    }

    private func fetch(_ sql: String) throws -> [Sample] {
        let statement = try prepare(sql)
        defer { sqlite3_finalize(statement) }
        var rows: [Sample] = []
        while true {
            let code = sqlite3_step(statement)
            if code == SQLITE_DONE { break }
            guard code == SQLITE_ROW else { throw error() }
            rows.append(
                Sample(
                    id: SQLiteStorage.uuid(bytes: sqlite3_column_blob(statement, 0), count: 16) ?? UUID(),
                    name: Self.text(statement, 1),
                    note: sqlite3_column_type(statement, 2) == SQLITE_NULL ? nil : Self.text(statement, 2),
                    quantity: Int(sqlite3_column_int64(statement, 3)),
                    score: sqlite3_column_double(statement, 4),
                    isActive: sqlite3_column_int64(statement, 5) != 0,
                    category: Category(value: Int16(truncatingIfNeeded: sqlite3_column_int64(statement, 6))),
                    createdAt: Date(timeIntervalSinceReferenceDate: sqlite3_column_double(statement, 7)),
                    payload: Data(
                        bytes: sqlite3_column_blob(statement, 8),
                        count: Int(sqlite3_column_bytes(statement, 8))
                    ),
                    rank: Int32(truncatingIfNeeded: sqlite3_column_int64(statement, 9))
                )
            )
        }
        return rows
    }

    private static func text(_ statement: OpaquePointer, _ index: Int32) -> String {
        let count = Int(sqlite3_column_bytes(statement, index))
        return String(
            decoding: UnsafeBufferPointer(start: sqlite3_column_text(statement, index), count: count),
            as: UTF8.self
        )
    }

    func fetchAll() throws -> Int {
        try fetch("SELECT \(Self.columns) FROM \"sample\"").count
    }

    func fetchFiltered() throws -> Int {
        try fetch(
            """
            SELECT \(Self.columns) FROM "sample" WHERE "is_active" = 1 AND "quantity" >= 500 \
            ORDER BY "score" DESC, "name" ASC
            """
        ).count
    }
}
