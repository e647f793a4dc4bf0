import Foundation
import GRDB
import GRDBSQLite
@testable import StrataSQLite
import StrataStorage
import Testing

/// Dates of fields declared with `format:`: ISO 8601 text as existing databases and SQLite's own
/// `datetime()` and `date()` write it (``SQLiteDateText``).
@Suite("Date text (format:)")
struct DateTextTests {
    static func unix(_ seconds: Double) -> Date { Date(timeIntervalSince1970: seconds) }

    @Test("writes what SQLite's datetime() and date() write; milliseconds only when not zero")
    func writes() {
        #expect(SQLiteDateText.timestamp.text(of: Self.unix(0)) == "1970-01-01 00:00:00")
        #expect(SQLiteDateText.timestamp.text(of: Self.unix(1_230_768_000)) == "2009-01-01 00:00:00")
        #expect(SQLiteDateText.timestamp.text(of: Self.unix(1_230_768_000.25)) == "2009-01-01 00:00:00.250")
        #expect(SQLiteDateText.timestamp.text(of: Self.unix(-0.5)) == "1969-12-31 23:59:59.500")
        #expect(SQLiteDateText.date.text(of: Self.unix(1_230_768_000 + 86_399.9)) == "2009-01-01")
        #expect(SQLiteDateText.date.text(of: Self.unix(-1)) == "1969-12-31")
        // Year 1 and 9999 are the ends SQLite's functions read; outside them there is no text.
        #expect(SQLiteDateText.date.text(of: Self.unix(-62_135_596_800)) == "0001-01-01")
        #expect(SQLiteDateText.timestamp.text(of: Self.unix(253_402_300_799)) == "9999-12-31 23:59:59")
        #expect(SQLiteDateText.timestamp.text(of: Self.unix(253_402_300_800)) == nil)
        #expect(SQLiteDateText.timestamp.text(of: Self.unix(-62_167_219_201)) == nil)
        #expect(SQLiteDateText.timestamp.text(of: Self.unix(.infinity)) == nil)
    }

    @Test("reads every shape SQLite's date functions take in UTC; anything else is nil")
    func reads() {
        let read = SQLiteDateText.date(text:)
        #expect(read("2009-01-01") == Self.unix(1_230_768_000))
        #expect(read("2009-01-01 00:00:00") == Self.unix(1_230_768_000))
        #expect(read("2009-01-01T00:00:00Z") == Self.unix(1_230_768_000))
        #expect(read("2009-01-01 13:45") == Self.unix(1_230_768_000 + 49_500))
        #expect(read("2009-01-01 00:00:00.250") == Self.unix(1_230_768_000.25))
        #expect(read("2009-01-01 00:00:00.5") == Self.unix(1_230_768_000.5))
        #expect(read("2012-02-29") == Self.unix(1_330_473_600))
        #expect(read("0001-01-01") == Self.unix(-62_135_596_800))
        for bad in [
            "", "2009", "2009-1-01", "2009-13-01", "2009-02-29", "2100-02-29", "2009-04-31", "2009-01-00",
            "2009-01-01 24:00:00", "2009-01-01 12:60", "2009-01-01 12:00:61", "2009-01-01 12:00:00.",
            "2009-01-01 12:00:00+02:00", "2009-01-01x", "abcd-ef-gh", " 2009-01-01", "2009-01-01 1:00",
        ] {
            #expect(read(bad) == nil, "\(bad)")
        }
    }

    @Test("text written reads back to the date written, to the millisecond; and as SQLite reads it")
    func roundTrip() throws {
        let queue = try DatabaseQueue()
        var seconds = -62_135_596_800.0
        while seconds < 253_402_300_799 {
            let millisecond = (seconds * 1000).rounded() / 1000
            let date = Self.unix(millisecond)
            let text = try #require(SQLiteDateText.timestamp.text(of: date))
            #expect(SQLiteDateText.date(text: text) == date, "\(text)")
            #expect(SQLiteDateText.timestamp.text(of: try #require(SQLiteDateText.date(text: text))) == text)
            let sqlite = try queue.read {
                try String.fetchOne(
                    $0,
                    sql:
                        "SELECT CASE WHEN ?1 LIKE '%.%' THEN strftime('%Y-%m-%d %H:%M:%f', ?2, 'unixepoch') ELSE datetime(?2, 'unixepoch') END",
                    arguments: [text, millisecond])
            }
            #expect(sqlite == text)
            let day = try #require(SQLiteDateText.date.text(of: date))
            #expect(
                try queue.read { try String.fetchOne($0, sql: "SELECT date(?, 'unixepoch')", arguments: [millisecond]) }
                    == day)
            seconds += 86_400 * 97.3 + 0.123
        }
    }

    @Test("a bound date is text in its format; a malformed one read is an error naming table, column and value")
    func bindAndRead() throws {
        let queue = try DatabaseQueue()
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE t (i INTEGER PRIMARY KEY, d DATETIME, e DATE)")
            let insert = try StrataStatement(db, sql: "INSERT INTO t (i, d, e) VALUES (?, ?, ?)")
            try StrataBind.int(insert.handle, 1, 1)
            try StrataBind.date(insert.handle, 2, Self.unix(1_230_768_000.25), as: .timestamp)
            try StrataBind.date(insert.handle, 3, Self.unix(1_230_768_000.25), as: .date)
            try insert.execute()
            #expect(
                try String.fetchOne(db, sql: "SELECT d || '|' || typeof(d) || '|' || e FROM t")
                    == "2009-01-01 00:00:00.250|text|2009-01-01")
            let late = try StrataStatement(db, sql: "INSERT INTO t (i, d) VALUES (2, ?)")
            #expect(throws: StrataStatementError.self) {
                try StrataBind.date(late.handle, 1, Self.unix(1e12), as: .timestamp)
            }
            try db.execute(sql: "INSERT INTO t (i, d, e) VALUES (3, 'soon', 20090101)")
        }
        let values = try queue.read { db -> [String] in
            let select = try StrataStatement(db, sql: "SELECT d, e FROM t ORDER BY i")
            return try select.fetchAll { statement in
                (Int32(0)..<2).map { column in
                    do {
                        let value = sqlite3_column_value(statement, column)
                        return SQLiteDateText.timestamp.text(of: try StrataRead.date(value, statement, column, as: .timestamp))
                            ?? "?"
                    } catch {
                        return "\(error)"
                    }
                }
            }.flatMap { $0 }
        }
        #expect(values[0] == "2009-01-01 00:00:00.250")
        #expect(values[1] == "2009-01-01 00:00:00")
        #expect(
            values[2]
                == "column t.d holds 'soon', which is not a date as YYYY-MM-DD, optionally followed by HH:MM[:SS[.fraction]] in UTC"
        )
        #expect(values[3].hasPrefix("column t.e holds '20090101'"))
    }

    /// A record with a Date stored as text and one stored as REAL.
    struct Event: StrataRecord {
        var id: Int64
        var at: Date
        var seen: Date?
        static let strataTable = StrataTable<Event>(
            "event", columns: [(\.id, "id"), (\.at, "at"), (\.seen, "seen")], primaryKey: ["id"],
            dateTexts: [(\.at, .timestamp)])
        var strataKey: Int64? { id }
        init(id: Int64, at: Date, seen: Date?) {
            (self.id, self.at, self.seen) = (id, at, seen)
        }
        init(row: inout some StrataRowReader) throws {
            try self.init(id: row.next(), at: row.next(.timestamp), seen: row.next())
        }
        func bind(to binder: inout some StrataValueBinder) throws {
            try binder.bind(id, StrataTextDate(at, .timestamp), seen)
        }
        static func bind(key: Int64, to binder: inout some StrataValueBinder) throws { try binder.bind(key) }
    }

    @Test("filters, joins and assignments of a column of text dates bind the text; other Dates stay REAL")
    func arguments() {
        let date = Self.unix(1_230_768_000)
        let columns = StrataColumns<Event>()
        #expect((columns.at < date).arguments == [.textDate(date, .timestamp)])
        #expect((columns.at == date).arguments == [.textDate(date, .timestamp)])
        #expect(columns.at.in([date]).arguments == [.textDate(date, .timestamp)])
        #expect((columns.seen > date).arguments == [.date(date)])
        #expect(columns.at.set(date).value == .textDate(date, .timestamp))
        #expect(StrataAssignment<Event>.set("at", ifGiven: date)?.value == .textDate(date, .timestamp))
        #expect(StrataAssignment<Event>.set("seen", ifGiven: date)?.value == .date(date))
        let joined = StrataJoinColumns<StrataJoin<Event, Event>, Event>(alias: "e")
        #expect((joined.at >= date).arguments == [.textDate(date, .timestamp)])
        #expect(columns.at.max.dateText == .timestamp)
    }
}
