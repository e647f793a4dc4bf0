import Foundation
import GRDB
import GRDBSQLite
@testable import StrataSQLite
import StrataStorage
import Testing

@Suite("Binding and reading columns by index")
struct ColumnCodingTests {
    private func roundTrip<T>(
        _ type: String,
        bind: (SQLiteStatement) throws -> Void,
        read: (SQLiteStatement) throws -> T
    ) throws -> T? {
        let queue = try DatabaseQueue()
        return try queue.write { db in
            try db.execute(sql: "CREATE TABLE t (v \(type))")
            let insert = try StrataStatement(db, sql: "INSERT INTO t (v) VALUES (?)")
            try bind(insert.handle)
            try insert.execute()
            return try StrataStatement(db, sql: "SELECT v FROM t").fetchOne(read)
        }
    }

    /// The first column of the statement's row, read as `type` by ``StrataSQLiteRow``.
    private static func first<T: StrataColumnValue>(_ statement: SQLiteStatement, _ type: T.Type) throws -> T {
        var row = StrataSQLiteRow(statement)
        return try row.next(type)
    }

    @Test("every storage type reads back what was bound")
    func roundTrips() throws {
        let uuid = UUID()
        #expect(
            try roundTrip("BLOB", bind: { try StrataBind.uuid($0, 1, uuid) }, read: { try Self.first($0, UUID.self) })
                == uuid)
        #expect(
            try roundTrip(
                "TEXT", bind: { try StrataBind.string($0, 1, "héllo\u{0}x") }, read: { try Self.first($0, String.self) })
                == "héllo\u{0}x")
        #expect(
            try roundTrip("TEXT", bind: { try StrataBind.string($0, 1, "") }, read: { try Self.first($0, String.self) })
                == "")
        #expect(
            try roundTrip("INTEGER", bind: { try StrataBind.bool($0, 1, true) }, read: { try Self.first($0, Bool.self) })
                == true)
        #expect(
            try roundTrip("INTEGER", bind: { try StrataBind.int16($0, 1, -7) }, read: { try Self.first($0, Int16.self) })
                == -7)
        #expect(
            try roundTrip("INTEGER", bind: { try StrataBind.int64($0, 1, .max) }, read: { try Self.first($0, Int64.self) })
                == .max)
        let date = Date(timeIntervalSince1970: 1_700_000_000.25)
        #expect(
            try roundTrip("REAL", bind: { try StrataBind.date($0, 1, date) }, read: { try Self.first($0, Date.self) })
                == date)
        let data = Data([0, 1, 2, 255])
        #expect(
            try roundTrip("BLOB", bind: { try StrataBind.data($0, 1, data) }, read: { try Self.first($0, Data.self) })
                == data)
        #expect(
            try roundTrip("BLOB", bind: { try StrataBind.data($0, 1, Data()) }, read: { try Self.first($0, Data.self) })
                == Data())
        let decimal = Decimal(string: "12345678901234567890.5")!
        #expect(
            try roundTrip(
                "TEXT", bind: { try StrataBind.decimal($0, 1, decimal) }, read: { try Self.first($0, Decimal.self) })
                == decimal)
    }

    @Test("the storage of UUID and Date is what ColumnEncoding says: 16 bytes, REAL seconds since 2001")
    func storage() throws {
        let uuid = UUID(uuidString: "3F2504E0-4F89-11D3-9A0C-0305E82C3301")!
        let queue = try DatabaseQueue()
        let stored = try queue.write { db in
            try db.execute(sql: "CREATE TABLE t (u BLOB, d REAL)")
            let insert = try StrataStatement(db, sql: "INSERT INTO t VALUES (?, ?)")
            try StrataBind.uuid(insert.handle, 1, uuid)
            try StrataBind.date(insert.handle, 2, Date(timeIntervalSince1970: 86_400))
            try insert.execute()
            return try Row.fetchOne(db, sql: "SELECT hex(u), typeof(d), d FROM t")
        }
        #expect(stored?[0] == "3F2504E04F8911D39A0C0305E82C3301")
        #expect(stored?[1] == "real")
        #expect(stored?[2] == 86_400.0 - 978_307_200)
    }

    @Test("NULL, malformed and out-of-range values are errors, not crashes")
    func errors() throws {
        #expect(throws: StrataDecodingError.unexpectedNull(column: "v")) {
            try roundTrip("TEXT", bind: { try StrataBind.null($0, 1) }, read: { try Self.first($0, String.self) })
        }
        #expect(throws: StrataDecodingError.malformed(column: "v", type: "UUID")) {
            try roundTrip(
                "BLOB", bind: { try StrataBind.data($0, 1, Data([1, 2])) }, read: { try Self.first($0, UUID.self) })
        }
        // A date an existing database keeps as text is not read as the number its digits start with.
        #expect(throws: StrataDecodingError.malformed(column: "v", type: "Date")) {
            try roundTrip(
                "DATETIME", bind: { try StrataBind.string($0, 1, "2009-01-01 00:00:00") },
                read: { try Self.first($0, Date.self) })
        }
        #expect(throws: StrataDecodingError.outOfRange(column: "v", type: "Int16", value: 70_000)) {
            try roundTrip(
                "INTEGER", bind: { try StrataBind.int64($0, 1, 70_000) }, read: { try Self.first($0, Int16.self) })
        }
        #expect(throws: StrataDecodingError.unknownEnumValue(column: "v", type: "Side", rawValue: "9")) {
            try roundTrip(
                "INTEGER",
                bind: { try StrataBind.int64($0, 1, 9) },
                read: { try StrataRead.enumCase(Side.self, StrataRead.int16(sqlite3_column_value($0, 0), $0, 0), $0, 0) }
            )
        }
    }

    @Test("an optional column reads as nil or its value, and NULL in a required column is an error, never 0")
    func nullChecks() throws {
        let queue = try DatabaseQueue()
        let (first, second, third): (Int64?, Int64?, String) = try queue.read { db in
            try StrataStatement(db, sql: "SELECT NULL, 0, 'x'").fetchOne { statement in
                var row = StrataSQLiteRow(statement)
                return (try row.next(), try row.next(), try row.next())
            } ?? (nil, nil, "")
        }
        #expect(first == nil)
        #expect(second == 0)
        #expect(third == "x")
        for type in ["INTEGER", "REAL", "BOOLEAN"] {
            #expect(throws: StrataDecodingError.unexpectedNull(column: "v")) {
                try roundTrip(type, bind: { try StrataBind.null($0, 1) }) { statement in
                    var row = StrataSQLiteRow(statement)
                    switch type {
                    case "INTEGER": return "\(try row.read(Int64.self))"
                    case "REAL": return "\(try row.read(Double.self))"
                    default: return "\(try row.read(Bool.self))"
                    }
                }
            }
        }
    }
}

private enum Side: Int16 {
    case left = 0
    case right = 1
}
