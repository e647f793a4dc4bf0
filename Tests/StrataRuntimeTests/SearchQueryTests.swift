import StrataSQLite
import Testing

/// A user's search text becomes a query of quoted words, never FTS5 or tsquery syntax, and each
/// part of a search is written by the database's dialect.
@Suite struct SearchQueryTests {
    @Test(arguments: [
        ("swift nio", "\"swift\" \"nio\""), ("  Swift\tNIO\n", "\"Swift\" \"NIO\""),
        ("say \"hi\"", "\"say\" \"\"\"hi\"\"\""), ("a AND b", "\"a\" \"AND\" \"b\""), ("NEAR(x", "\"NEAR(x\""),
        ("-x *", "\"-x\""), ("café", "\"café\""), ("1984", "\"1984\""), ("a\u{0}b\u{7}c", "\"a\" \"b\" \"c\""),
    ])
    func wordsAreQuoted(text: String, query: String) {
        #expect(StrataSearch.query(text) == query)
    }

    @Test(arguments: ["", "   ", "\"", "*", "- ( ) ^ :", "\"\" **"])
    func textWithoutAWordIsNoQuery(text: String) {
        #expect(StrataSearch.query(text) == nil)
    }

    @Test func sqliteWritesFTS5() {
        let search = StrataSearch(table: "note", columns: ["title"], language: "english")
        #expect(search.name == "note_search")
        let filter = StrataSQL(segments: [.fullText(.filter, search, query: .text("\"a\""))])
        #expect(filter.sql(SQLiteDialect.self) == "\"note\".rowid IN (SELECT rowid FROM \"note_search\" WHERE \"note_search\" MATCH ?1)")
        #expect(filter.arguments == [.text("\"a\"")])
        let rank = StrataSQL(segments: [.fullText(.rank, search, query: nil)])
        #expect(rank.sql(SQLiteDialect.self) == "\"strata_search\".\"strata_rank\"")
        #expect(rank.arguments.isEmpty)
    }
}
