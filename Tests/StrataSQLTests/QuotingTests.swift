import Foundation
import GRDB
import StrataCore
import StrataIntrospection
import StrataTestSupport
import Testing

/// The one identifier-quoting function and the one literal function, checked by the databases
/// themselves: every hostile name selects back as itself, every hostile text as itself.
@Suite struct QuotingTests {
    static let hostileTexts = [
        "", "'", "''", "'); DROP TABLE x; --", "\"", "a\"b", "\\", "\\'", "C:\\temp\\", "$$", "$tag$ x $tag$", "-- c",
        "/* c", "*/",
        "line\nbreak", "cr\rlf\r\n", "tab\t", "ünïcødé 🎉", "\u{2028}", "%s %d", "?", ":name", "@x", "E'x'", "X'00'",
    ]

    @Test func sqliteReadsEveryLiteralAndIdentifierBack() throws {
        let queue = try DatabaseQueue()
        try queue.read { db in
            for text in Self.hostileTexts {
                let value = try String.fetchOne(db, sql: "SELECT \(SQLDialect.sqlite.literal(.text(text)))")
                #expect(value == text, "literal of \(text.debugDescription)")
                guard !text.isEmpty else { continue }
                let row = try #require(try Row.fetchOne(db, sql: "SELECT 1 AS \(SQLDialect.sqlite.quoted(text))"))
                #expect(row.columnNames.first == text, "identifier \(text.debugDescription)")
            }
            let bytes: [UInt8] = [0, 1, 0x7F, 0x80, 0xFF]
            #expect(try Data.fetchOne(db, sql: "SELECT \(SQLDialect.sqlite.literal(.blob(bytes)))") == Data(bytes))
            // A NUL cannot cut the statement short: the text is spelled as bytes.
            let withNUL = "SELECT CAST(\(SQLDialect.sqlite.literal(.text("a\u{0}b"))) AS BLOB)"
            #expect(try Data.fetchOne(db, sql: withNUL) == Data("a\u{0}b".utf8))
            for number in [0.1, -0.125, 1e-5, 1e300, -2.5e-300, 3.0, Double(Int64.max)] {
                #expect(try Double.fetchOne(db, sql: "SELECT \(SQLDialect.sqlite.literal(.real(number)))") == number)
            }
            for number in [Int64.min, -1, 0, Int64.max] {
                #expect(try Int64.fetchOne(db, sql: "SELECT \(SQLDialect.sqlite.literal(.integer(number)))") == number)
            }
        }
    }

    @Test func postgresReadsEveryLiteralAndIdentifierBack() async throws {
        let server = try await TestPostgresServer.forTest()
        try await server.withDatabase { session in
            // Escape strings keep their meaning whatever standard_conforming_strings says.
            for setting in ["on", "off"] {
                try await session.execute("SET standard_conforming_strings = \(setting)")
                for text in Self.hostileTexts {
                    let rows = try await session.textRows(
                        sql: ("SELECT \(SQLDialect.postgres.literal(.text(text)))::text"))
                    #expect(
                        rows == [[text]],
                        "literal of \(text.debugDescription) with standard_conforming_strings \(setting)")
                }
            }
            for text in Self.hostileTexts where !text.isEmpty {
                let rows = try await session.rows(sql: ("SELECT 1 AS \(SQLDialect.postgres.quoted(text))"))
                #expect(rows.first?.first?.columnName == text, "identifier \(text.debugDescription)")
            }
            let bytes: [UInt8] = [0, 1, 0x7F, 0x80, 0xFF]
            let hex = try await session.textRows(
                sql: ("SELECT encode(\(SQLDialect.postgres.literal(.blob(bytes))), 'hex')"))
            #expect(hex == [["00017f80ff"]])
            for number in [0.1, -0.125, 1e-5, 1e300, -2.5e-300, 3.0] {
                let rows = try await session.textRows(
                    sql: ("SELECT (\(SQLDialect.postgres.literal(.real(number))))::double precision::text"))
                #expect(rows.first?.first?.flatMap(Double.init) == number)
            }
            // PostgreSQL cannot store a NUL in text: the value is rejected, and nothing else runs.
            await #expect(throws: PostgresSessionError.self) {
                try await session.execute("SELECT \(SQLDialect.postgres.literal(.text("a\u{0}b")))")
            }
        }
    }

    @Test func commentsCannotBeLeft() throws {
        for dialect in SQLDialect.allCases {
            let lines = dialect.comment("one\ntwo\r\nthree\rfour\u{2028}five\u{0}six */ -- seven")
            #expect(lines.count == 5)
            for line in lines {
                #expect(line.hasPrefix("--"))
                #expect(!line.contains(where: { $0.isNewline }))
                #expect(!line.unicodeScalars.contains("\u{0}"))
            }
            // Executed, the comment lines are no-ops.
            let queue = try DatabaseQueue()
            try queue.write { db in try db.execute(sql: lines.joined(separator: "\n") + "\nCREATE TABLE t (x INTEGER);")
            }
            #expect(try queue.read { db in try db.tableExists("t") })
        }
    }
}
