import Foundation
import GRDB
import StrataCore
import StrataSQLite
import StrataStorage
import StrataTestSupport
import Testing

/// The test the tutorial promised and never showed: a store written by v1 keeps every item when v3 opens it.
@Suite struct MyTODOMigrationTests {
    @Test func sqliteFileWrittenAtV1KeepsEveryItemThroughV3() throws {
        let history = try Models.load("MyTODO", in: Models.schemas)
        let path = TestScratch.path("mytodo", suffix: ".sqlite").path
        let migrator = Models.migrator(history)
        let queue = try DatabaseQueue(path: path)
        #expect(try migrator.migrate(queue, to: 1).map(\.version) == [1])
        let ids = (0..<50).map { _ in UUID() }
        try queue.write { db in
            for (offset, id) in ids.enumerated() {
                try db.execute(
                    sql: #"INSERT INTO "todo_item" ("id", "title", "detail") VALUES (?, ?, ?)"#,
                    arguments: [Data(SQLiteStorage.bytes(of: id)), "item \(offset)", "detail's \(offset)"])
            }
        }
        #expect(try migrator.migrate(queue).map(\.version) == [2, 3])
        #expect(try migrator.migrate(queue).isEmpty, "re-running applies nothing")
        let rows = try queue.read { db in
            try Row.fetchAll(db, sql: #"SELECT "id", "title", "detail", "is_done", "priority" FROM "todo_item" ORDER BY "title""#)
        }
        #expect(rows.count == 50)
        let stored = Set(rows.compactMap { row -> UUID? in
            let data: Data = row["id"]
            return data.withUnsafeBytes { SQLiteStorage.uuid(bytes: $0.baseAddress, count: $0.count) }
        })
        #expect(stored == Set(ids))
        for row in rows {
            #expect((row["is_done"] as Int64) == 0)
            #expect((row["priority"] as Int64) == 2, "Priority.middle")
            #expect((row["detail"] as String).hasPrefix("detail's "))
        }
        #expect(try migrator.currentVersion(in: queue) == 3)
    }

    @Test func postgresDatabaseAtV1KeepsEveryItemThroughV3() async throws {
        let server = try await TestPostgresServer.forTest()
        let history = try Models.load("MyTODO", in: Models.schemas)
        try await server.withDatabase { session in
            try await session.executeScript(SQLSchemaRenderer.initialMigrationFile(for: try #require(history.version(1)), dialect: .postgres), inTransaction: true)
            try await session.execute(
                #"INSERT INTO "todo_item" ("id", "title", "detail") SELECT gen_random_uuid(), 'item ' || n, 'detail ' || n FROM generate_series(1, 50) AS n"#)
            for plan in Generator.migrationPlans(for: history) {
                try await session.executeScript(MigrationSQLRenderer.file(for: plan, dialect: .postgres), inTransaction: true)
            }
            let rows = try await session.textRows(sql: #"SELECT count(*)::text, bool_and(NOT "is_done")::text, min("priority")::text, max("priority")::text FROM "todo_item""#)
            #expect(rows == [["50", "true", "2", "2"]])
        }
    }
}
