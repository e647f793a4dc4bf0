import Foundation
import GRDB
import StrataCore
import StrataPostgres
import StrataSQLite
import StrataTestSupport
import Testing

/// Full-text search (`search:`) on the Notes fixture model (v2 adds it over `title`, v3 changes
/// it to `title, body` in English, v4 renames the searched `title` to `heading`): ranked results,
/// the `matches` filter, hostile user text, rows kept in step by updates and deletes, and rows
/// written before each migration found after it, on SQLite and PostgreSQL alike.
@Suite("Full-text search: Notes on SQLite and PostgreSQL")
struct NotesSearchTests {
    /// The notes every test writes: `guide` says "swift" three times in a short heading, `mention`
    /// once among many words; `server` holds both "swift" and "nio" and is archived; `runner`
    /// says "runs" (english: the stem of "running").
    static let notes = [
        Note(heading: "Swift swift swift guide", body: nil),
        Note(heading: "Cooking notes", body: "a long text about kitchens, ovens, pans, knives, spices, one swift mention, bread"),
        Note(heading: "Server with Swift NIO", body: "event loops", isArchived: true),
        Note(heading: "Morning", body: "She runs every day"),
    ]

    /// What user text cannot do: widen or break the query. Each text with what it finds (indexes of ``notes``).
    static let hostile: [(text: String, found: [Int])] = [
        ("", []), ("   ", []), ("\"", []), ("*", []), ("-", []), ("AND", []), ("NEAR(", []), ("(", []),
        ("swift\" OR \"kotlin", []), ("title:swift", []), ("swift*", [0, 1, 2]), ("-swift", [0, 1, 2]),
        ("NEAR(swift nio)", []), ("^swift", [0, 1, 2]), ("'; DROP TABLE note; --", []), ("swift\u{0}nio", [2]),
    ]

    @Test("SQLite: ranked, filtered, limited; matches in any filter; hostile text; updates and deletes kept in step")
    func sqlite() throws {
        let db = try NotesDatabase.inMemory()
        let stored = try db.notes.insert(contentsOf: Self.notes)
        let ids = stored.map(\.id)

        let swift = try db.notes.search("swift")
        #expect(Set(swift.map(\.id)) == Set([ids[0], ids[1], ids[2]]))
        #expect(swift.first?.id == ids[0], "more and denser matches first")
        #expect(try db.notes.search("swift", where: { $0.isArchived == false }).map(\.id) == [ids[0], ids[1]])
        #expect(try db.notes.search("SWIFT nio").map(\.id) == [ids[2]])
        #expect(try db.notes.search("swift", limit: 1).map(\.id) == [ids[0]])
        #expect(try db.notes.search("running").map(\.id) == [ids[3]], "english stems")
        #expect(try db.notes.count(where: { $0.matches("swift") && $0.isArchived == false }) == 2)
        #expect(try db.notes.fetchAll(where: { $0.matches("") }).isEmpty)
        for (text, found) in Self.hostile {
            #expect(Set(try db.notes.search(text).map(\.id)) == Set(found.map { ids[$0] }), "\(text)")
            #expect(try db.notes.count(where: { $0.matches(text) }) == found.count, "\(text)")
        }

        var guide = try #require(stored.first)
        guide.heading = "Kotlin guide"
        #expect(try db.notes.update(guide))
        #expect(Set(try db.notes.search("swift").map(\.id)) == Set([ids[1], ids[2]]))
        #expect(try db.notes.search("kotlin").map(\.id) == [ids[0]])
        #expect(try db.notes.delete(id: try #require(ids[2])))
        #expect(try db.notes.search("swift").map(\.id) == [ids[1]])
        #expect(try db.notes.updateAll(where: { $0.matches("swift") }, set: { [$0.body.set("plain")] }) == 1)
        #expect(try db.notes.search("swift").isEmpty)
        #expect(try db.notes.search("plain").map(\.id) == [ids[1]])
        // The index agrees with the rows (FTS5's own check of an external-content table).
        try db.writer.write { db in try db.execute(sql: "INSERT INTO note_search(note_search, rank) VALUES ('integrity-check', 1)") }
    }

    @Test("PostgreSQL: ranked, filtered, limited; matches in any filter; hostile text; updates and deletes kept in step")
    func postgres() async throws {
        let server = try await TestPostgresServer.forTest()
        try await server.withDatabase { session in
            try await NotesPostgresDatabase.migrator.migrate(session.connection)
            let db = NotesPostgresAccess(session.connection)
            let stored = try await db.notes.insert(contentsOf: Self.notes)
            let ids = stored.map(\.id)

            let swift = try await db.notes.search("swift")
            #expect(Set(swift.map(\.id)) == Set([ids[0], ids[1], ids[2]]))
            #expect(swift.first?.id == ids[0], "more and denser matches first")
            #expect(try await db.notes.search("swift", where: { $0.isArchived == false }).map(\.id) == [ids[0], ids[1]])
            #expect(try await db.notes.search("SWIFT nio").map(\.id) == [ids[2]])
            #expect(try await db.notes.search("swift", limit: 1).map(\.id) == [ids[0]])
            #expect(try await db.notes.search("running").map(\.id) == [ids[3]], "english stems")
            #expect(try await db.notes.count(where: { $0.matches("swift") && $0.isArchived == false }) == 2)
            for (text, found) in Self.hostile {
                #expect(Set(try await db.notes.search(text).map(\.id)) == Set(found.map { ids[$0] }), "\(text)")
                #expect(try await db.notes.count(where: { $0.matches(text) }) == found.count, "\(text)")
            }

            var guide = try #require(stored.first)
            guide.heading = "Kotlin guide"
            #expect(try await db.notes.update(guide))
            #expect(Set(try await db.notes.search("swift").map(\.id)) == Set([ids[1], ids[2]]))
            #expect(try await db.notes.search("kotlin").map(\.id) == [ids[0]])
            #expect(try await db.notes.delete(id: try #require(ids[2])))
            #expect(try await db.notes.search("swift").map(\.id) == [ids[1]])
            // The GIN index serves the search.
            try await session.execute("SET enable_seqscan = off")
            let plan = try await session.textRows(
                sql: "EXPLAIN SELECT id FROM note WHERE note_search @@ plainto_tsquery('english'::regconfig, 'swift')")
            #expect(plan.contains { ($0.first ?? nil)?.contains("note_search_idx") == true }, "\(plan)")
        }
    }

    /// Rows of v1 (no search); v2 indexes `title`; v3 `title` and `body` in English; v4 renames `title`.
    static func seedV1(_ insert: (String) throws -> Void) rethrows {
        try insert("INSERT INTO note (title, body, is_archived) VALUES ('Swift concurrency', 'actors and tasks', FALSE)")
        try insert("INSERT INTO note (title, body, is_archived) VALUES ('Groceries', 'apples, running shoes', FALSE)")
    }

    @Test("SQLite: rows written at v1 are found after v2 adds the search, v3 changes it, v4 renames a searched field")
    func sqliteMigrations() throws {
        let queue = try DatabaseQueue()
        let migrator = NotesDatabase.migrator
        try migrator.migrate(queue, to: 1)
        try queue.write { db in try Self.seedV1 { try db.execute(sql: $0) } }
        func found(_ match: String) throws -> [String] {
            try queue.read { db in
                try String.fetchAll(db, sql: "SELECT rowid FROM note_search WHERE note_search MATCH ? ORDER BY rowid", arguments: [match])
            }
        }
        try migrator.migrate(queue, to: 2)
        #expect(try found("swift") == ["1"])
        #expect(try found("actors").isEmpty, "v2 searches the title only")
        try migrator.migrate(queue, to: 3)
        #expect(try found("actors") == ["1"])
        #expect(try found("run") == ["2"], "english stems")
        try migrator.migrate(queue, to: 4)
        let db = try NotesDatabase(writer: queue)
        #expect(try db.notes.search("swift").map(\.heading) == ["Swift concurrency"])
        #expect(try db.notes.search("shoes").map(\.heading) == ["Groceries"])
        var groceries = try #require(try db.notes.search("shoes").first)
        groceries.heading = "Errands"
        try db.notes.update(groceries)
        #expect(try db.notes.search("errands").map(\.id) == [groceries.id])
        #expect(try db.notes.search("groceries").isEmpty)
    }

    @Test("PostgreSQL: rows written at v1 are found after v2 adds the search, v3 changes it, v4 renames a searched field")
    func postgresMigrations() async throws {
        let server = try await TestPostgresServer.forTest()
        try await server.withDatabase { session in
            let migrator = NotesPostgresDatabase.migrator
            try await migrator.migrate(session.connection, to: 1)
            var statements: [String] = []
            Self.seedV1 { statements.append($0) }
            for statement in statements { try await session.execute(statement) }
            func found(_ words: String) async throws -> [String] {
                try await session.textRows(
                    sql: "SELECT id::text FROM note WHERE note_search @@ plainto_tsquery('english', '\(words)') ORDER BY id"
                ).map { $0.first.flatMap { $0 } ?? "" }
            }
            try await migrator.migrate(session.connection, to: 2)
            #expect(try await found("swift") == ["1"])
            #expect(try await found("actors").isEmpty, "v2 searches the title only")
            try await migrator.migrate(session.connection, to: 3)
            #expect(try await found("actors") == ["1"])
            #expect(try await found("run") == ["2"], "english stems")
            try await migrator.migrate(session.connection, to: 4)
            let db = NotesPostgresAccess(session.connection)
            #expect(try await db.notes.search("swift").map(\.heading) == ["Swift concurrency"])
            #expect(try await db.notes.search("shoes").map(\.heading) == ["Groceries"])
            var groceries = try #require(try await db.notes.search("shoes").first)
            groceries.heading = "Errands"
            try await db.notes.update(groceries)
            #expect(try await db.notes.search("errands").map(\.id) == [groceries.id])
        }
    }

    @Test("PostgreSQL: every language search: accepts is a text search configuration of the server")
    func languagesArePostgresConfigurations() async throws {
        let server = try await TestPostgresServer.forTest()
        let names = try await server.withDatabase { session in
            try await session.textRows(sql: "SELECT cfgname::text FROM pg_catalog.pg_ts_config").compactMap { $0.first ?? nil }
        }
        for language in SearchLanguage.allCases {
            #expect(names.contains(language.postgresConfiguration), "\(language)")
        }
    }

    @Test("SQLite and PostgreSQL: matches in a join's filter, on the searched table's alias")
    func matchesInAJoin() async throws {
        let db = try NotesDatabase.inMemory()
        let work = try db.folders.insert(Folder(name: "work"))
        let home = try db.folders.insert(Folder(name: "home"))
        var notes = Self.notes
        for index in notes.indices { notes[index].folder = index == 1 ? home.id : work.id }
        let stored = try db.notes.insert(contentsOf: notes)
        let joined = try db.notes.fetchAll(
            joining: Folder.self, on: \.folder, where: { note, folder in note.matches("swift") && folder.name == "work" },
            orderBy: { note, _ in [note.id.ascending] })
        #expect(joined.map(\.record.id) == [stored[0].id, stored[2].id])

        let server = try await TestPostgresServer.forTest()
        try await server.withDatabase { session in
            try await NotesPostgresDatabase.migrator.migrate(session.connection)
            let db = NotesPostgresAccess(session.connection)
            let work = try await db.folders.insert(Folder(name: "work"))
            let home = try await db.folders.insert(Folder(name: "home"))
            var notes = Self.notes
            for index in notes.indices { notes[index].folder = index == 1 ? home.id : work.id }
            let stored = try await db.notes.insert(contentsOf: notes)
            let joined = try await db.notes.fetchAll(
                joining: Folder.self, on: \.folder, where: { note, folder in note.matches("swift") && folder.name == "work" },
                orderBy: { note, _ in [note.id.ascending] })
            #expect(joined.map(\.record.id) == [stored[0].id, stored[2].id])
        }
    }
}

