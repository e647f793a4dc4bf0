import Foundation
import StrataSQLite
import Testing

private struct Item {}

private enum Level: Int16, StrataEnumColumnValue {
    case low = 0
    case high = 1
}

private struct ItemColumns {
    let title = StrataColumn<Item, String>(sql: #""title""#)
    let note = StrataColumn<Item, String?>(sql: #""note""#)
    let done = StrataColumn<Item, Bool>(sql: #""is_done""#)
    let level = StrataColumn<Item, Level>(sql: #""level""#)
    let due = StrataColumn<Item, Date?>(sql: #""due""#)
}

@Suite("Filter and sort DSL")
struct QueryDSLTests {
    fileprivate let c = ItemColumns()

    @Test("comparisons bind their values as Swift values, which each database stores its way")
    func comparisons() {
        #expect((c.done == false).sql == #""is_done" = ?"#)
        #expect((c.done == false).arguments == [.bool(false)])
        #expect((c.level >= .high).sql == #""level" >= ?"#)
        #expect((c.level >= .high).arguments == [.integer(1)])
        #expect((c.title != "a").sql == #""title" <> ?"#)
        #expect((c.title < "m").sql == #""title" < ?"#)
        #expect((c.due > Date(timeIntervalSince1970: 10)).arguments == [.date(Date(timeIntervalSince1970: 10))])
    }

    @Test("nil compares with IS NULL; null checks on optional columns")
    func nulls() {
        #expect((c.note == nil).sql == #""note" IS NULL"#)
        #expect((c.note != nil).sql == #""note" IS NOT NULL"#)
        #expect(c.note.isNull.sql == #""note" IS NULL"#)
        #expect(c.due.isNotNull.sql == #""due" IS NOT NULL"#)
        #expect((c.note == "x").arguments == [.text("x")])
    }

    @Test("and, or, not keep their grouping")
    func logic() {
        let predicate = !(c.done == true || c.level == .low) && c.title.like("a%")
        #expect(predicate.sql == #"(NOT (("is_done" = ?) OR ("level" = ?))) AND ("title" LIKE ?)"#)
        #expect(predicate.arguments == [.bool(true), .integer(0), .text("a%")])
    }

    @Test("in, with an empty list matching nothing")
    func membership() {
        #expect(c.level.in([.low, .high]).sql == #""level" IN (?, ?)"#)
        #expect(c.title.in([]).sql == "FALSE")
        #expect(c.title.notIn([]).sql == "NOT (FALSE)")
    }

    @Test("sorts and a whole select")
    func select() {
        let sql = StrataSQL.select(
            #""title", "level""#,
            from: #""item""#,
            where: c.done == false,
            orderBy: [c.level.descending, c.title.ascending],
            limit: 10,
            offset: 20
        )
        #expect(
            sql.sql
                == #"SELECT "title", "level" FROM "item" WHERE "is_done" = ? ORDER BY "level" DESC, "title" ASC LIMIT ? OFFSET ?"#
        )
        #expect(sql.arguments == [.bool(false), .integer(10), .integer(20)])
        #expect(
            StrataSQL.count(from: #""item""#, where: Optional<StrataPredicate<Item>>.none).sql
                == #"SELECT COUNT(*) FROM "item""#)
        let update = StrataSQL.update(#""item""#, set: [c.done.set(true), c.note.set(nil)], where: c.title == "a")
        #expect(update?.sql == #"UPDATE "item" SET "is_done" = ?, "note" = ? WHERE "title" = ?"#)
        #expect(update?.arguments == [.bool(true), .null, .text("a")])
    }
}
