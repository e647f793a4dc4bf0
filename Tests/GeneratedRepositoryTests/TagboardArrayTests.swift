import Foundation
import GRDB
import PostgresNIO
import StrataPostgres
import StrataSQLite
import StrataTestSupport
import Testing

/// Arrays of scalars in the Tagboard fixture model on both databases: every element type (text,
/// integers, floating-point numbers, Bools, UUIDs, URLs, Dates, Decimals, Data, enums, a value
/// type), empty arrays, text
/// with quotes, backslashes, control characters and characters outside ASCII, `contains` and
/// `isEmpty` filters, an optional array's NULL against `[]`, updates, stored elements of the wrong
/// kind read as errors, and migrations that add array fields to a table that has rows.
@Suite("Generated repositories: arrays (Tagboard)")
struct TagboardArrayTests {
    private static let firstID = UUID(uuidString: "00000000-0000-4000-8000-000000000001")!
    private static let secondID = UUID(uuidString: "00000000-0000-4000-8000-000000000002")!
    private static let reference = UUID(uuidString: "6BA7B810-9DAD-11D1-80B4-00C04FD430C8")!
    private static let awkward = ["swift", "it's \"quoted\"", "back\\slash", "line\nbreak\ttab\u{01}", "ünïcødé 🐦", "", "[\"not\",\"nested\"]"]

    private static let full = Snippet(
        id: firstID, title: "full", tags: awkward, counts: [1, -2, Int.max, Int.min], totals: [3, 1 << 40],
        small: [Int16.min, 0, Int16.max], ratios: [0.5, -1e-300, 1e300], weights: [0.1, 2.5], flags: [true, false, true],
        refs: [reference], links: [URL(string: "https://example.com/a?b=c#d")!], notes: [],
        moods: [.curious, .calm], stars: [.two, .three], scores: [Score(rawValue: 7), Score(rawValue: -1)],
        labels: ["v2"], grades: [90, 85], reminders: reminders, prices: prices, chunks: chunks,
        stamps: [Stamp(rawValue: reminders[2]), Stamp(rawValue: reminders[0])], firstSeen: Stamp(rawValue: reminders[2]))
    private static let empty = Snippet(id: secondID, title: "empty", notes: nil)

    /// 2024-01-31 12:00:00.5 UTC, 2000-12-31 23:59:59.75 UTC, and a date with digits below the
    /// microsecond (exact on SQLite, rounded to 12:00:00.123457 on PostgreSQL).
    private static let reminders = [
        Date(timeIntervalSinceReferenceDate: 728_395_200.5), Date(timeIntervalSinceReferenceDate: -0.25),
        Date(timeIntervalSinceReferenceDate: 728_395_200.123456789),
    ]
    /// 38 significant digits (all a Decimal holds), a tiny negative one, zero.
    private static let prices = [
        Decimal(string: "12345678901234567890.123456789012345678")!, Decimal(string: "-0.0000001")!, Decimal(0),
        Decimal(string: "19.99")!,
    ]
    /// Zero bytes, no byte at all, every byte value.
    private static let chunks = [Data([0, 1, 0, 255]), Data(), Data((0...255).map { UInt8($0) })]

    @Test("SQLite: every element type round-trips, as a JSON array, with contains and isEmpty filters")
    func sqlite() throws {
        let db = try TagboardDatabase.inMemory()
        try db.snippets.insert(contentsOf: [Self.full, Self.empty])
        #expect(try db.snippets.find(id: Self.firstID) == Self.full)
        #expect(try db.snippets.find(id: Self.secondID) == Self.empty)
        let stored = try db.writer.read {
            try Row.fetchOne($0, sql: "SELECT tags, flags, refs, notes, moods, stars, ratios FROM snippet WHERE title = 'full'")
        }
        #expect(stored?[0] as String? == #"["swift","it's \"quoted\"","back\\slash","line\nbreak\ttab\u0001","ünïcødé 🐦","","[\"not\",\"nested\"]"]"#)
        #expect(stored?[1] as String? == "[true,false,true]")
        #expect(stored?[2] as String? == #"["6BA7B810-9DAD-11D1-80B4-00C04FD430C8"]"#)
        #expect(stored?[3] as String? == "[]", "an optional array holding no element is [], not NULL")
        #expect(stored?[4] as String? == #"["curious","calm"]"#, "enums as their raw values")
        #expect(stored?[5] as String? == "[2,3]")
        let emptyRow = try db.writer.read { try Row.fetchOne($0, sql: "SELECT tags, ratios, notes FROM snippet WHERE title = 'empty'") }
        #expect(emptyRow?[0] as String? == "[]")
        #expect(emptyRow?[1] as String? == "[]")
        #expect(emptyRow?[2] as String? == nil, "nil is NULL")

        for tag in Self.awkward {
            #expect(try db.snippets.count(where: { $0.tags.contains(tag) }) == 1, "\(tag)")
        }
        #expect(try db.snippets.count(where: { $0.tags.contains("swif") }) == 0)
        #expect(try db.snippets.count(where: { $0.counts.contains(Int.min) }) == 1)
        #expect(try db.snippets.count(where: { $0.small.contains(Int16.max) }) == 1)
        #expect(try db.snippets.count(where: { $0.ratios.contains(0.5) }) == 1)
        #expect(try db.snippets.count(where: { $0.flags.contains(false) }) == 1)
        #expect(try db.snippets.count(where: { $0.refs.contains(Self.reference) }) == 1)
        #expect(try db.snippets.count(where: { $0.links.contains(URL(string: "https://example.com/a?b=c#d")!) }) == 1)
        #expect(try db.snippets.count(where: { $0.moods.contains(.curious) }) == 1)
        #expect(try db.snippets.count(where: { $0.moods.contains(.excited) }) == 0)
        #expect(try db.snippets.count(where: { $0.stars.contains(.three) }) == 1)
        #expect(try db.snippets.count(where: { $0.scores.contains(Score(rawValue: -1)) }) == 1)
        #expect(try db.snippets.count(where: { $0.tags.isEmpty }) == 1)
        #expect(try db.snippets.count(where: { $0.notes.isEmpty }) == 1, "[] is empty; NULL is not")
        #expect(try db.snippets.count(where: { $0.notes.isNull }) == 1)
        #expect(try db.snippets.count(where: { $0.tags == [] }) == 1)

        // Dates as the numbers a Date column stores, Decimals as their text, Data as base64.
        let scalars = try db.writer.read { try Row.fetchOne($0, sql: "SELECT reminders, prices, chunks FROM snippet WHERE title = 'full'") }
        #expect(scalars?[0] as String? == "[728395200.5,-0.25,\(728_395_200.123456789 as Double)]")
        #expect(scalars?[1] as String? == #"["12345678901234567890.123456789012345678","-0.0000001","0","19.99"]"#)
        let base64 = Data((0...255).map { UInt8($0) }).base64EncodedString()
        #expect(scalars?[2] as String? == #"["AAEA/w==","",""# + base64 + #""]"#)
        #expect(try db.snippets.find(id: Self.firstID)?.reminders[2] == Self.reminders[2], "exact, below the microsecond")
        #expect(try db.snippets.count(where: { $0.stamps.contains(Stamp(rawValue: Self.reminders[0])) }) == 1)
        #expect(try db.snippets.count(where: { $0.reminders.contains(Self.reminders[2]) }) == 1)
        #expect(try db.snippets.count(where: { $0.reminders.contains(Self.reminders[2].addingTimeInterval(1e-6)) }) == 0)
        #expect(try db.snippets.count(where: { $0.prices.contains(Self.prices[0]) }) == 1)
        #expect(try db.snippets.count(where: { $0.prices.contains(Decimal(string: "19.990")!) }) == 1, "a Decimal's text is canonical")
        #expect(try db.snippets.count(where: { $0.prices.contains(Decimal(string: "19.9")!) }) == 0)
        #expect(try db.snippets.count(where: { $0.chunks.contains(Data([0, 1, 0, 255])) }) == 1)
        #expect(try db.snippets.count(where: { $0.chunks.contains(Data()) }) == 1)
        #expect(try db.snippets.count(where: { $0.chunks.contains(Data([0, 1, 0])) }) == 0)
        #expect(try db.snippets.count(where: { $0.prices.isEmpty }) == 1)
        #expect(try db.snippets.count(where: { $0.chunks.isNull }) == 1)
        let bound = try db.snippets.updateChanges(Self.empty) { $0.reminders = [Self.reminders[0]]; $0.chunks = [Data([0])] }
        #expect(bound?.reminders == [Self.reminders[0]])
        #expect(try db.snippets.find(id: Self.secondID)?.chunks == [Data([0])])
        for (column, value) in [("reminders", #"["2024-01-31"]"#), ("prices", "[19.99]"), ("prices", #"["19.99 dollars","x"]"#), ("chunks", #"["not base64!"]"#)] {
            try db.writer.write { try $0.execute(sql: "UPDATE snippet SET \(column) = ? WHERE title = 'empty'", arguments: [value]) }
            #expect(throws: StrataDecodingError.self, "\(column) = \(value)") { try db.snippets.find(id: Self.secondID) }
            try db.writer.write { try $0.execute(sql: "UPDATE snippet SET \(column) = '[]' WHERE title = 'empty'") }
        }
        #expect(throws: StrataJSONArray.NotRepresentable.self) {
            _ = try db.snippets.insert(Snippet(id: UUID(), title: "far", reminders: [.distantFuture, Date(timeIntervalSinceReferenceDate: .infinity)]))
        }

        let changed = try db.snippets.updateChanges(Self.empty) { $0.tags = ["new"]; $0.notes = ["a"] }
        #expect(changed?.tags == ["new"])
        #expect(try db.snippets.find(id: Self.secondID)?.notes == ["a"])
        #expect(try db.snippets.count(where: { $0.tags.contains("new") }) == 1)

        // Stored text that is not an array of the field's elements is an error, not a crash.
        try db.writer.write { try $0.execute(sql: #"UPDATE snippet SET counts = '[1.5]' WHERE title = 'empty'"#) }
        #expect(throws: StrataDecodingError.self) { try db.snippets.find(id: Self.secondID) }
        try db.writer.write { try $0.execute(sql: #"UPDATE snippet SET counts = '[1,' WHERE title = 'empty'"#) }
        #expect(throws: StrataDecodingError.self) { try db.snippets.find(id: Self.secondID) }
        try db.writer.write { try $0.execute(sql: #"UPDATE snippet SET counts = '[]', moods = '["sad"]' WHERE title = 'empty'"#) }
        #expect(throws: StrataDecodingError.self) { try db.snippets.find(id: Self.secondID) }
    }

    @Test("SQLite: a migration adds array fields to a table with rows: [] for the default, NULL for the optional")
    func sqliteMigration() throws {
        let queue = try DatabaseQueue()
        try TagboardDatabase.migrator.migrate(queue, to: 1)
        try queue.write {
            try $0.execute(
                sql: """
                    INSERT INTO snippet (id, title, tags, counts, totals, small, weights, flags, refs, moods, stars, scores)
                    VALUES (?, 'old', '["kept"]', '[1]', '[]', '[]', '[]', '[]', '[]', '["calm"]', '[1]', '[5]')
                    """, arguments: [Data(SQLiteStorage.bytes(of: Self.firstID))])
        }
        let db = try TagboardDatabase(writer: queue)
        let old = try #require(try db.snippets.find(id: Self.firstID))
        #expect(old.tags == ["kept"])
        #expect(old.labels == [])
        #expect(old.grades == nil)
        #expect(old.ratios == [], "the v1 default")
        #expect(old.reminders == [] && old.prices == [] && old.chunks == nil, "v3's fields")
        #expect(try db.snippets.count(where: { $0.labels.isEmpty }) == 1)
        #expect(try db.snippets.count(where: { $0.reminders.isEmpty }) == 1)
    }

    @Test("PostgreSQL: every element type round-trips, as a native array, with contains and isEmpty filters")
    func postgres() async throws {
        let server = try await TestPostgresServer.forTest()
        try await server.withDatabase { session in
            try await TagboardPostgresDatabase.migrator.migrate(session.connection)
            let db = TagboardPostgresAccess(session.connection)
            let inserted = try await db.snippets.insert(contentsOf: [Self.full, Self.empty])
            #expect(Self.full.strataStored != Self.full, "a reminder below the microsecond")
            #expect(Self.full.strataStored.stamps[0] != Self.full.stamps[0] && Self.full.strataStored.stamps[1] == Self.full.stamps[1])
            #expect(Self.full.strataStored.firstSeen != Self.full.firstSeen, "a value type stored as a Date, rounded too")
            #expect(inserted.first == Self.full.strataStored)
            #expect(try await db.snippets.find(id: Self.firstID) == Self.full.strataStored)
            #expect(try await db.snippets.find(id: Self.secondID) == Self.empty)
            let rows = try await session.connection.query(
                "SELECT array_to_string(tags, '|'), cardinality(notes), notes IS NULL, pg_typeof(refs)::text FROM snippet ORDER BY title",
                logger: .init(label: "test")
            ).get().rows
            let empty = try rows[0].decode((String?, Int?, Bool, String).self)
            #expect(empty.0 == "" && empty.2 == true && empty.3 == "uuid[]")
            let full = try rows[1].decode((String?, Int?, Bool, String).self)
            #expect(full.0 == Self.awkward.joined(separator: "|"))
            #expect(full.1 == 0 && full.2 == false, "[] is an empty array, not NULL")
            let native = try await session.connection.query(
                """
                SELECT array_to_string(ARRAY(SELECT to_char(r AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS.US') FROM unnest(reminders) r), '|'),
                    array_to_string(prices, '|'), array_to_string(ARRAY(SELECT encode(c, 'hex') FROM unnest(chunks) c), '|'),
                    pg_typeof(reminders)::text, pg_typeof(prices)::text, pg_typeof(chunks)::text
                FROM snippet WHERE title = 'full'
                """, logger: .init(label: "test")
            ).get().rows
            let stored = try native[0].decode((String, String, String, String, String, String).self)
            #expect(stored.0 == "2024-01-31 12:00:00.500000|2000-12-31 23:59:59.750000|2024-01-31 12:00:00.123457")
            #expect(stored.1 == "12345678901234567890.123456789012345678|-0.0000001|0|19.99")
            #expect(stored.2 == "000100ff||" + Data((0...255).map { UInt8($0) }).map { String(format: "%02x", $0) }.joined())
            #expect(stored.3 == "timestamp with time zone[]" && stored.4 == "numeric[]" && stored.5 == "bytea[]")
            #expect(try await db.snippets.count(where: { $0.reminders.contains(Self.reminders[2]) }) == 1, "bound to the microsecond")
            #expect(try await db.snippets.count(where: { $0.stamps.contains(Stamp(rawValue: Self.reminders[2])) }) == 1)
            #expect(try await db.snippets.count(where: { $0.reminders.contains(Self.reminders[0].addingTimeInterval(1e-6)) }) == 0)
            #expect(try await db.snippets.count(where: { $0.prices.contains(Self.prices[0]) }) == 1)
            #expect(try await db.snippets.count(where: { $0.prices.contains(Decimal(string: "19.990")!) }) == 1)
            #expect(try await db.snippets.count(where: { $0.prices.contains(Decimal(string: "19.9")!) }) == 0)
            #expect(try await db.snippets.count(where: { $0.chunks.contains(Data([0, 1, 0, 255])) }) == 1)
            #expect(try await db.snippets.count(where: { $0.chunks.contains(Data()) }) == 1)
            #expect(try await db.snippets.count(where: { $0.chunks.contains(Data([0, 1, 0])) }) == 0)
            #expect(try await db.snippets.count(where: { $0.prices.isEmpty }) == 1)
            // NUMERIC's own forms: trailing zeros of a scale, groups of zeros around the point.
            _ = try await session.connection.query(
                "UPDATE snippet SET prices = '{19.990,100000000,0.00000001,-0.000,1234.5678,-99990000.00010000}' WHERE title = 'empty'",
                logger: .init(label: "test")
            ).get()
            let shapes = ["19.99", "100000000", "0.00000001", "0", "1234.5678", "-99990000.0001"].map { Decimal(string: $0)! }
            #expect(try await db.snippets.find(id: Self.secondID)?.prices == shapes)
            _ = try await session.connection.query("UPDATE snippet SET prices = '{}' WHERE title = 'empty'", logger: .init(label: "test")).get()
            #expect(try await db.snippets.count(where: { $0.chunks.isNull }) == 1)
            await #expect(throws: (any Error).self, "Decimal.nan has no NUMERIC form") {
                _ = try await db.snippets.insert(Snippet(id: UUID(), title: "nan", prices: [.nan]))
            }
            // What no Decimal equals: NaN, an infinity, 40 significant digits (past a Decimal's 128-bit mantissa), a magnitude past its range.
            let huge = "1" + String(repeating: "0", count: 200)
            for value in ["'{NaN}'", "'{1.5,Infinity}'", "'{1234567890123456789012345678901234567891}'", "'{\(huge)}'", "'{0.\(huge)1}'"] {
                _ = try await session.connection.query(
                    "UPDATE snippet SET prices = \(unescaped: value) WHERE title = 'empty'", logger: .init(label: "test")
                ).get()
                await #expect(throws: StrataDecodingError.self, "\(value)") { try await db.snippets.find(id: Self.secondID) }
            }
            _ = try await session.connection.query(
                "UPDATE snippet SET prices = '{}', chunks = ARRAY[NULL]::bytea[] WHERE title = 'empty'", logger: .init(label: "test")
            ).get()
            await #expect(throws: StrataDecodingError.self, "a NULL element") { try await db.snippets.find(id: Self.secondID) }
            _ = try await session.connection.query(
                "UPDATE snippet SET chunks = NULL WHERE title = 'empty'", logger: .init(label: "test")
            ).get()

            for tag in Self.awkward {
                #expect(try await db.snippets.count(where: { $0.tags.contains(tag) }) == 1, "\(tag)")
            }
            #expect(try await db.snippets.count(where: { $0.tags.contains("swif") }) == 0)
            #expect(try await db.snippets.count(where: { $0.counts.contains(Int.min) }) == 1)
            #expect(try await db.snippets.count(where: { $0.small.contains(Int16.max) }) == 1)
            #expect(try await db.snippets.count(where: { $0.weights.contains(2.5) }) == 1)
            #expect(try await db.snippets.count(where: { $0.flags.contains(false) }) == 1)
            #expect(try await db.snippets.count(where: { $0.refs.contains(Self.reference) }) == 1)
            #expect(try await db.snippets.count(where: { $0.moods.contains(.curious) }) == 1)
            #expect(try await db.snippets.count(where: { $0.stars.contains(.three) }) == 1)
            #expect(try await db.snippets.count(where: { $0.scores.contains(Score(rawValue: -1)) }) == 1)
            #expect(try await db.snippets.count(where: { $0.grades.contains(85) }) == 1)
            #expect(try await db.snippets.count(where: { $0.tags.isEmpty }) == 1)
            #expect(try await db.snippets.count(where: { $0.notes.isEmpty }) == 1, "[] is empty; NULL is not")
            #expect(try await db.snippets.count(where: { $0.notes.isNull }) == 1)

            let changed = try await db.snippets.updateChanges(Self.empty) { $0.tags = ["new"]; $0.notes = ["a"] }
            #expect(changed?.tags == ["new"])
            #expect(try await db.snippets.find(id: Self.secondID)?.notes == ["a"])
            _ = try await session.connection.query(
                "UPDATE snippet SET moods = '{sad}' WHERE title = 'empty'", logger: .init(label: "test")
            ).get()
            await #expect(throws: StrataDecodingError.self) { try await db.snippets.find(id: Self.secondID) }
        }
    }

    @Test("PostgreSQL: a migration adds array fields to a table with rows: '{}' for the default, NULL for the optional")
    func postgresMigration() async throws {
        let server = try await TestPostgresServer.forTest()
        try await server.withDatabase { session in
            try await TagboardPostgresDatabase.migrator.migrate(session.connection, to: 1)
            _ = try await session.connection.query(
                """
                INSERT INTO snippet (id, title, tags, counts, totals, small, weights, flags, refs, moods, stars, scores)
                VALUES ('\(unescaped: Self.firstID.uuidString)', 'old', '{kept}', '{1}', '{}', '{}', '{}', '{}', '{}', '{calm}', '{1}', '{5}')
                """, logger: .init(label: "test")
            ).get()
            try await TagboardPostgresDatabase.migrator.migrate(session.connection)
            let db = TagboardPostgresAccess(session.connection)
            let old = try #require(try await db.snippets.find(id: Self.firstID))
            #expect(old.tags == ["kept"])
            #expect(old.labels == [])
            #expect(old.grades == nil)
            #expect(old.ratios == [])
            #expect(old.reminders == [] && old.prices == [] && old.chunks == nil, "v3's fields")
        }
    }
}
