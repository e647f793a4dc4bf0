import Foundation
import StrataSQLite
import Testing

private struct Item {}

private enum Level: Int16, StrataEnumColumnValue {
    case low = 0
    case high = 1
}

private struct ItemColumns {
    let title = StrataColumn<Item, String>(sql: .identifier("title"))
    let note = StrataColumn<Item, String?>(sql: .identifier("note"))
    let done = StrataColumn<Item, Bool>(sql: .identifier("is_done"))
    let level = StrataColumn<Item, Level>(sql: .identifier("level"))
    let due = StrataColumn<Item, Date?>(sql: .identifier("due"))
}

extension StrataSQL {
    /// The fragment as SQLite runs it.
    fileprivate var sqlite: String { sql(SQLiteDialect.self) }
}

@Suite("Filter and sort DSL")
struct QueryDSLTests {
    fileprivate let c = ItemColumns()

    @Test("comparisons bind their values as Swift values, which each database stores its way")
    func comparisons() {
        #expect((c.done == false).sql.sqlite == #""is_done" = ?1"#)
        #expect((c.done == false).arguments == [.bool(false)])
        #expect((c.level >= .high).sql.sqlite == #""level" >= ?1"#)
        #expect((c.level >= .high).arguments == [.integer(1)])
        #expect((c.title != "a").sql.sqlite == #""title" <> ?1"#)
        #expect((c.title < "m").sql.sqlite == #""title" < ?1"#)
        #expect((c.due > Date(timeIntervalSince1970: 10)).arguments == [.date(Date(timeIntervalSince1970: 10))])
    }

    @Test("nil compares with IS NULL; null checks on optional columns")
    func nulls() {
        #expect((c.note == nil).sql.sqlite == #""note" IS NULL"#)
        #expect((c.note != nil).sql.sqlite == #""note" IS NOT NULL"#)
        #expect(c.note.isNull.sql.sqlite == #""note" IS NULL"#)
        #expect(c.due.isNotNull.sql.sqlite == #""due" IS NOT NULL"#)
        #expect((c.note == "x").arguments == [.text("x")])
    }

    @Test("and, or, not keep their grouping")
    func logic() {
        let predicate = !(c.done == true || c.level == .low) && c.title.like("a%")
        #expect(predicate.sql.sqlite == #"(NOT (("is_done" = ?1) OR ("level" = ?2))) AND ("title" LIKE ?3)"#)
        #expect(predicate.arguments == [.bool(true), .integer(0), .text("a%")])
    }

    @Test("in, with an empty list matching nothing")
    func membership() {
        #expect(c.level.in([.low, .high]).sql.sqlite == #""level" IN (?1, ?2)"#)
        #expect(c.title.in([]).sql.sqlite == "FALSE")
        #expect(c.title.notIn([]).sql.sqlite == "NOT (FALSE)")
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
            sql.sqlite
                == #"SELECT "title", "level" FROM "item" WHERE "is_done" = ?1 ORDER BY "level" DESC, "title" ASC LIMIT ?2 OFFSET ?3"#
        )
        #expect(sql.arguments == [.bool(false), .integer(10), .integer(20)])
        #expect(
            StrataSQL.count(from: #""item""#, where: Optional<StrataPredicate<Item>>.none).sqlite
                == #"SELECT COUNT(*) FROM "item""#)
        let update = StrataSQL.update(#""item""#, set: [c.done.set(true), c.note.set(nil)], where: c.title == "a")
        #expect(update?.sqlite == #"UPDATE "item" SET "is_done" = ?1, "note" = ?2 WHERE "title" = ?3"#)
        #expect(update?.arguments == [.bool(true), .null, .text("a")])
    }

    @Test("a fragment keeps identifiers and values apart until a dialect renders it")
    func fragments() {
        let hostile = StrataColumn<Item, String>(sql: .identifier(#"a"b"#))
        let predicate = hostile == "x'; DROP TABLE item; --" && c.level.in([.low])
        // The identifier is quoted by the dialect (its quote doubled); the value is never in the text.
        #expect(predicate.sql.sqlite == #"("a""b" = ?1) AND ("level" IN (?2))"#)
        #expect(predicate.arguments == [.text("x'; DROP TABLE item; --"), .integer(0)])
        #expect(
            predicate.sql.segments == [
                .text("("), .identifier(#"a"b"#), .text(" = "), .value(.text("x'; DROP TABLE item; --")),
                .text(") AND ("), .identifier("level"), .text(" IN ("), .value(.integer(0)), .text("))"),
            ])
        // A parameter bound by the caller keeps its number; text after text is one segment.
        var fragment: StrataSQL = "SELECT \(identifier: "t").\(identifier: "c")"
        fragment.append(" WHERE k = \(parameter: 3)")
        #expect(fragment.sqlite == #"SELECT "t"."c" WHERE k = ?3"#)
        #expect(fragment.segments.count == 6)
        var text: StrataSQL = "SELECT 1"
        text.append(" WHERE TRUE")
        #expect(text.segments == [.text("SELECT 1 WHERE TRUE")])
    }

    @Test("casts are spelled by the dialect")
    func casts() {
        let sum = StrataColumn<Item, Int16>(sql: .identifier("level")).sum
        #expect(sum.sql.sqlite == #"CAST(COALESCE(SUM("level"), 0) AS INTEGER)"#)
        let average = StrataColumn<Item, Int16>(sql: .identifier("level")).average
        #expect(average.sql.sqlite == #"CAST(AVG("level") AS REAL)"#)
    }
}
