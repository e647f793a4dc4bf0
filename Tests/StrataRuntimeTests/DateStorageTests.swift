import Foundation
import GRDB
import GRDBSQLite
import StrataDateSamples
@testable import StrataSQLite
import StrataStorage
import Testing

/// Dates in SQLite are the `Double` a `Date` holds (seconds since 2001), so every one reads back
/// `==`; in PostgreSQL whole microseconds (``PostgresStorage``).
@Suite("Date storage")
struct DateStorageTests {
    @Test("the old storage (seconds since 1970) loses about half of the issue's dates; the new one none")
    func issueDates() {
        let old = DateSamples.issue.filter {
            SQLiteDateFormat.secondsSince1970.date(seconds: SQLiteDateFormat.secondsSince1970.seconds(of: $0)) != $0
        }
        #expect(old.count > 50, "the defect of issue 16 is no longer reproduced by the old format: \(old.count)")
        #expect(DateSamples.issue.allSatisfy { SQLiteStorage.date(seconds: SQLiteStorage.seconds(of: $0)) == $0 })
        #expect(DateSamples.all.count >= 10_000)
        #expect(DateSamples.all.allSatisfy { SQLiteStorage.date(seconds: SQLiteStorage.seconds(of: $0)) == $0 })
    }

    @Test("every sample date bound by the runtime reads back ==, stored as a REAL of seconds since 2001")
    func bindAndRead() throws {
        let queue = try DatabaseQueue()
        let read = try queue.write { db -> [(Date, Double)] in
            try db.execute(sql: "CREATE TABLE t (i INTEGER PRIMARY KEY, d REAL NOT NULL)")
            let insert = try StrataStatement(db, sql: "INSERT INTO t (i, d) VALUES (?, ?)")
            for (index, date) in DateSamples.all.enumerated() {
                try StrataBind.int(insert.handle, 1, index)
                try StrataBind.date(insert.handle, 2, date)
                try insert.execute()
                insert.reset()
            }
            return try StrataStatement(db, sql: "SELECT d, d FROM t ORDER BY i").fetchAll {
                (try StrataRead.date(sqlite3_column_value($0, 0), $0, 0), try StrataRead.double(sqlite3_column_value($0, 1), $0, 1))
            }
        }
        #expect(read.count == DateSamples.all.count)
        let unequal = zip(DateSamples.all, read).filter { $0 != $1.0 }
        #expect(unequal.isEmpty, "\(unequal.count) dates read back unequal, e.g. \(unequal.prefix(3))")
        #expect(zip(DateSamples.all, read).allSatisfy { $0.timeIntervalSinceReferenceDate == $1.1 })
    }

    @Test("comparisons in SQL agree with Date's: <, ==, >= on every sample against a pivot")
    func comparisonsInSQL() throws {
        let queue = try DatabaseQueue()
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE t (d REAL NOT NULL)")
            let insert = try StrataStatement(db, sql: "INSERT INTO t (d) VALUES (?)")
            for date in DateSamples.all {
                try StrataBind.date(insert.handle, 1, date)
                try insert.execute()
                insert.reset()
            }
        }
        let column = StrataColumn<DateStorageTests, Date>(sql: #""d""#)
        for pivot in DateSamples.issue.prefix(20) + DateSamples.edges {
            for (predicate, expected) in [
                (column < pivot, DateSamples.all.filter { $0 < pivot }.count),
                (column == pivot, DateSamples.all.filter { $0 == pivot }.count),
                (column >= pivot, DateSamples.all.filter { $0 >= pivot }.count),
            ] {
                let count = try queue.read { db in
                    let statement = try StrataStatement(db, sql: "SELECT count(*) FROM t WHERE \(predicate.sql.sql(SQLiteDialect.self))")
                    try statement.bind(predicate.arguments)
                    return try statement.fetchInteger()
                }
                #expect(count == Int64(expected), "\(predicate.sql) \(pivot.timeIntervalSinceReferenceDate)")
            }
        }
    }

    @Test("the documented SQL turns a stored Date into its UTC timestamp")
    func timestampSQL() throws {
        let queue = try DatabaseQueue()
        let date = Date(timeIntervalSinceReferenceDate: 728_395_200.25)  // 2024-01-31 12:00:00.25 UTC
        let row = try queue.read { db in
            try Row.fetchOne(
                db,
                sql: """
                    SELECT datetime(d + 978307200, 'unixepoch'), \(SQLiteDateFormat.current.timestampSQL(quotedColumn: "d")),
                           \(SQLiteDateFormat.current.unixSecondsSQL(quotedColumn: "d"))
                    FROM (SELECT ? AS d)
                    """,
                arguments: [SQLiteStorage.seconds(of: date)])
        }
        #expect(row?[0] == "2024-01-31 12:00:00")
        #expect(row?[1] == "2024-01-31 12:00:00.250")
        #expect(row?[2] == date.timeIntervalSince1970)
    }

    @Test("generated code's list of Date columns reads back every name, whatever it holds")
    func dateColumnList() {
        let columns = [
            SQLiteDateColumn(table: "item", column: "created_at"),
            SQLiteDateColumn(table: "item", column: "updated_at"),
            SQLiteDateColumn(table: "a\"b", column: "x: y, (z)"),
            SQLiteDateColumn(table: "item", column: "due"),
            SQLiteDateColumn(table: "ünï code\\", column: "line\nbreak \"q\""),
        ]
        let list = SQLiteDateColumn.list(columns)
        #expect(
            list == #"""
                "item" ("created_at", "updated_at")
                "a""b" ("x: y, (z)")
                "item" ("due")
                "ünï code\" ("line
                break ""q""")
                """#)
        #expect(SQLiteDateColumn.columns(inList: list) == columns)
        #expect(SQLiteDateColumn.list([]).isEmpty)
        #expect(SQLiteDateColumn.columns(inList: "").isEmpty)
        // What is not such a list reads as no columns rather than failing: a column needs a table.
        #expect(SQLiteDateColumn.columns(inList: #"("orphan") "t""#).isEmpty)
        let migration = StrataMigration(version: 1, sql: "", checksum: "", dateColumns: list)
        #expect(migration.dateColumns == columns)
    }

    @Test("an old value converted by the migrator's statement equals what old Strata read")
    func conversionStatement() throws {
        let column = SQLiteDateColumn(table: "a\"b", column: "when")
        #expect(
            column.conversionSQL(from: .secondsSince1970)
                == #"UPDATE "a""b" SET "when" = "when" - 978307200 WHERE typeof("when") IN ('real', 'integer')"#)
        let queue = try DatabaseQueue()
        let converted = try queue.write { db -> [Double?] in
            try db.execute(sql: #"CREATE TABLE "a""b" ("when" REAL)"#)
            for date in DateSamples.all {
                try db.execute(sql: #"INSERT INTO "a""b" VALUES (?)"#, arguments: [date.timeIntervalSince1970])
            }
            try db.execute(sql: #"INSERT INTO "a""b" VALUES (NULL)"#)
            try db.execute(sql: column.conversionSQL(from: .secondsSince1970))
            return try Double?.fetchAll(db, sql: #"SELECT "when" FROM "a""b" ORDER BY rowid"#)
        }
        #expect(converted.last == .some(nil))
        for (date, value) in zip(DateSamples.all, converted) {
            let old = Date(timeIntervalSince1970: date.timeIntervalSince1970)
            #expect(value.map(SQLiteStorage.date(seconds:)) == old)
        }
    }

    @Test("PostgreSQL: whole microseconds, rounded to nearest; rounding is stable; known values")
    func postgresMicroseconds() {
        #expect(PostgresStorage.microseconds(of: Date(timeIntervalSince1970: 946_684_800)) == 0)
        #expect(PostgresStorage.microseconds(of: Date(timeIntervalSinceReferenceDate: 0)) == 31_622_400_000_000)
        #expect(PostgresStorage.microseconds(of: Date(timeIntervalSinceReferenceDate: 0.000_000_4)) == 31_622_400_000_000)
        #expect(PostgresStorage.microseconds(of: Date(timeIntervalSinceReferenceDate: 0.000_000_6)) == 31_622_400_000_001)
        #expect(PostgresStorage.microseconds(of: Date(timeIntervalSinceReferenceDate: -0.000_000_6)) == 31_622_399_999_999)
        #expect(PostgresStorage.microseconds(of: Date(timeIntervalSinceReferenceDate: .infinity)) == .max)
        #expect(PostgresStorage.microseconds(of: Date(timeIntervalSinceReferenceDate: -.infinity)) == .min)
        #expect(PostgresStorage.microseconds(of: Date(timeIntervalSinceReferenceDate: 1e300)) == .max)
        #expect(PostgresStorage.date(microseconds: .min) == .distantPast)
        // Within 2^32 seconds (136 years) of 2001, where a Double resolves microseconds.
        let within = (DateSamples.issue + DateSamples.edges + DateSamples.random(25_000)).filter {
            abs($0.timeIntervalSinceReferenceDate) < 4_294_967_296
        }
        #expect(within.count >= 10_000)
        for date in within {
            let micro = PostgresStorage.microseconds(of: date)
            let rounded = PostgresStorage.date(microseconds: micro)
            // Within half a microsecond (and the Double's own resolution) of the Date written.
            let error = abs(rounded.timeIntervalSinceReferenceDate - date.timeIntervalSinceReferenceDate)
            #expect(error <= 0.5e-6 + date.timeIntervalSinceReferenceDate.ulp, "\(date.timeIntervalSinceReferenceDate)")
            // Binding what a fetch returned stores the same microseconds: a returned record equals a fetch.
            #expect(PostgresStorage.microseconds(of: rounded) == micro)
            #expect(PostgresStorage.rounded(rounded) == rounded)
        }
        // Every microsecond in a stretch around now maps back to itself.
        let now = PostgresStorage.microseconds(of: Date())
        for micro in now..<(now + 20_000) {
            #expect(PostgresStorage.microseconds(of: PostgresStorage.date(microseconds: micro)) == micro)
        }
    }
}
