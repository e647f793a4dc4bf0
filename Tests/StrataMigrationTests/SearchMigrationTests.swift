import Foundation
import GRDB
import StrataCore
import StrataPostgres
import StrataSQLite
import StrataTestSupport
import Testing

/// Migrations of full-text search run on both databases with rows in the table: v2 drops a
/// searched field (PostgreSQL drops the search column before the field's column; SQLite rebuilds
/// the table, so the triggers are made again) and v3 drops the search.
@Suite struct SearchMigrationTests {
    static let versions = [
        """
        model: Notes
        version: 1
        entities:
          Note:
            fields:
              id: { type: Int64, autoincrement: true }
              title: String
              body: String?
            search: [title, body]
        """,
        """
        model: Notes
        version: 2
        entities:
          Note:
            fields:
              id: { type: Int64, autoincrement: true }
              title: { type: String, default: "untitled" }
            search: { fields: [title], language: english }
        migration:
          allowDataLoss: [Note.body]
          allowLocks: [Note]
        """,
        """
        model: Notes
        version: 3
        entities:
          Note:
            fields:
              id: { type: Int64, autoincrement: true }
              title: { type: String, default: "untitled" }
        """,
    ]

    static let rows = [
        "INSERT INTO note (title, body) VALUES ('Running in the rain', 'wet shoes')",
        "INSERT INTO note (title, body) VALUES ('Dry toast', 'rain later')",
    ]

    @Test func sqliteChangesAndDropsTheSearchWithRows() throws {
        let history = try Models.temporary("Notes", versions: Self.versions).history
        let migrator = Models.migrator(history)
        let queue = try DatabaseQueue()
        try migrator.migrate(queue, to: 1)
        try queue.write { db in for row in Self.rows { try db.execute(sql: row) } }
        func found(_ query: String) throws -> [Int64] {
            try queue.read { db in
                try Int64.fetchAll(db, sql: "SELECT rowid FROM note_search WHERE note_search MATCH ? ORDER BY rowid", arguments: [query])
            }
        }
        #expect(try found("rain") == [1, 2])
        try migrator.migrate(queue, to: 2)
        #expect(try found("rain") == [1], "only the title is searched")
        #expect(try found("run") == [1], "english stems")
        try queue.write { db in
            try db.execute(sql: "INSERT INTO note (title) VALUES ('Rain check')")
            try db.execute(sql: "UPDATE note SET title = 'Sunny' WHERE id = 1")
            try db.execute(sql: "INSERT INTO note_search(note_search, rank) VALUES ('integrity-check', 1)")
        }
        #expect(try found("rain") == [3], "the rebuilt table's triggers keep the search in step")
        try migrator.migrate(queue, to: 3)
        let left = try queue.read { db in
            try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE name LIKE '%search%' ORDER BY name")
        }
        #expect(left.isEmpty, "\(left)")
        try queue.write { db in try db.execute(sql: "INSERT INTO note (title) VALUES ('After')") }
        #expect(try queue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM note") } == 4)
    }

    @Test func postgresChangesAndDropsTheSearchWithRows() async throws {
        let history = try Models.temporary("Notes", versions: Self.versions).history
        let migrator = PostgresMigrator(
            model: history.model, migrations: MigrationSources.postgres(for: history).map(StrataMigration.init))
        let server = try await TestPostgresServer.forTest()
        try await server.withDatabase { session in
            try await migrator.migrate(session.connection, to: 1)
            for row in Self.rows { try await session.execute(row) }
            func found(_ words: String) async throws -> [String] {
                try await session.textRows(
                    sql: "SELECT id::text FROM note WHERE note_search @@ plainto_tsquery('english', '\(words)') ORDER BY id"
                ).map { $0.first.flatMap { $0 } ?? "" }
            }
            try await migrator.migrate(session.connection, to: 2)
            #expect(try await found("rain") == ["1"], "only the title is searched")
            #expect(try await found("run") == ["1"], "english stems")
            try await session.execute("UPDATE note SET title = 'Sunny' WHERE id = 1")
            #expect(try await found("rain").isEmpty)
            try await migrator.migrate(session.connection, to: 3)
            let left = try await session.textRows(
                sql: "SELECT column_name::text FROM information_schema.columns WHERE table_name = 'note' ORDER BY ordinal_position")
            #expect(left.map { $0.first.flatMap { $0 } ?? "" } == ["id", "title"])
        }
    }

    /// v1's Note, searched, becomes Memo (table memo): the search is made again under the new name.
    static let renamed = [
        versions[0],
        """
        model: Notes
        version: 2
        entities:
          Memo:
            renamedFrom: Note
            fields:
              id: { type: Int64, autoincrement: true }
              title: String
              body: String?
            search: [title, body]
        migration:
          allowLocks: [Memo]
        """,
    ]

    @Test func aRenamedEntityKeepsItsSearchOnBothDatabases() async throws {
        let history = try Models.temporary("Notes", versions: Self.renamed).history
        try Self.renamedOnSQLite(history)
        let migrator = PostgresMigrator(
            model: history.model, migrations: MigrationSources.postgres(for: history).map(StrataMigration.init))
        let server = try await TestPostgresServer.forTest()
        try await server.withDatabase { session in
            try await migrator.migrate(session.connection, to: 1)
            for row in Self.rows { try await session.execute(row) }
            try await migrator.migrate(session.connection)
            let found = try await session.textRows(
                sql: "SELECT id::text FROM memo WHERE memo_search @@ plainto_tsquery('simple', 'rain') ORDER BY id")
            #expect(found.map { $0.first.flatMap { $0 } ?? "" } == ["1", "2"])
            let indexes = try await session.textRows(sql: "SELECT indexname::text FROM pg_indexes WHERE tablename = 'memo' ORDER BY 1")
            #expect(indexes.map { $0.first.flatMap { $0 } ?? "" }.contains("memo_search_idx"))
        }
    }

    static func renamedOnSQLite(_ history: SchemaHistory) throws {
        let queue = try DatabaseQueue()
        try Models.migrator(history).migrate(queue, to: 1)
        try queue.write { db in for row in Self.rows { try db.execute(sql: row) } }
        try Models.migrator(history).migrate(queue)
        let found = try queue.read { db in
            try Int64.fetchAll(db, sql: "SELECT rowid FROM memo_search WHERE memo_search MATCH 'rain' ORDER BY rowid")
        }
        #expect(found == [1, 2])
        let names = try queue.read { db in
            try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE name LIKE '%note%' ORDER BY name")
        }
        #expect(names.isEmpty, "\(names)")
        try queue.write { db in try db.execute(sql: "INSERT INTO memo (title) VALUES ('rain again')") }
        #expect(try queue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM memo_search WHERE memo_search MATCH 'rain'") } == 3)
    }
}
