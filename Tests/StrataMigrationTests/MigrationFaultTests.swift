import Foundation
import GRDB
import StrataCore
import StrataIntrospection
import StrataSQLite
import StrataTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A migration that fails half-way leaves the database exactly at the previous version, and says why.
@Suite struct MigrationFaultTests {
    static let versions = [
        """
        model: Shop
        version: 1
        entities:
          Customer:
            fields:
              id: { type: Int64, autoincrement: true }
              email: String
              name: String
        """,
        """
        model: Shop
        version: 2
        entities:
          Customer:
            fields:
              id: { type: Int64, autoincrement: true }
              email: { type: String, unique: true }
              name: String
              vip: { type: Bool, default: false }
        """,
    ]

    @Test func uniqueOverDuplicatesFailsAndLeavesSQLiteAtV1() throws {
        let (history, _) = try Models.temporary("Shop", versions: Self.versions)
        let migrator = Models.migrator(history)
        let queue = try DatabaseQueue()
        try migrator.migrate(queue, to: 1)
        try queue.write { db in
            try db.execute(sql: #"INSERT INTO "customer" ("email", "name") VALUES ('a@x', 'A'), ('b@x', 'B'), ('a@x', 'A again')"#)
        }
        let schemaBefore = try queue.read { db in try SQLiteIntrospector.schema(of: db) }
        let rowsBefore = try queue.read { db in try Row.fetchAll(db, sql: #"SELECT * FROM "customer" ORDER BY "id""#) }

        let error = #expect(throws: DatabaseError.self) { try migrator.migrate(queue) }
        #expect(error?.message?.contains("UNIQUE constraint failed: strata_new_customer.email") == true, "\(String(describing: error))")
        #expect(try migrator.currentVersion(in: queue) == 1)
        #expect(try queue.read { db in try SQLiteIntrospector.schema(of: db) } == schemaBefore)
        #expect(try queue.read { db in try Row.fetchAll(db, sql: #"SELECT * FROM "customer" ORDER BY "id""#) } == rowsBefore)
        #expect(try queue.read { db in try db.tableExists("strata_new_customer") } == false)

        // Once the data is fixed, the same migration goes through.
        try queue.write { db in try db.execute(sql: #"UPDATE "customer" SET "email" = 'a2@x' WHERE "name" = 'A again'"#) }
        #expect(try migrator.migrate(queue).map(\.version) == [2])
    }

    @Test func uniqueOverDuplicatesFailsAndLeavesPostgresAtV1() async throws {
        let server = try await TestPostgresServer.forTest()
        let (history, _) = try Models.temporary("Shop", versions: Self.versions)
        let plan = try #require(Generator.migrationPlans(for: history).first)
        try await server.withDatabase { session in
            try await session.executeScript(SQLSchemaRenderer.initialMigrationFile(for: try #require(history.version(1)), dialect: .postgres), inTransaction: true)
            try await session.execute(#"INSERT INTO "customer" ("email", "name") VALUES ('a@x', 'A'), ('a@x', 'A again')"#)
            let before = try await PostgresIntrospector.schema(of: session)
            await #expect(throws: (any Error).self) {
                try await session.executeScript(MigrationSQLRenderer.file(for: plan, dialect: .postgres), inTransaction: true)
            }
            #expect(try await PostgresIntrospector.schema(of: session) == before)
            #expect(try await session.textRows(sql: #"SELECT count(*)::text FROM "customer""#) == [["2"]])
        }
    }

    @Test func strataMigrateRefusesAnEditedHistoryAndANewerDatabaseAndLeavesThemUntouched() throws {
        let (_, folder) = try Models.temporary("Shop", versions: Self.versions)
        let database = URL(fileURLWithPath: folder).appendingPathComponent("shop.sqlite").path
        let applied = try CLI.strata(["migrate", "--database", database, "--schemas", folder])
        #expect(applied.status == 0, "\(applied.stderr)")
        #expect(applied.stdout.contains("migrated from version 0 to 2"))
        #expect(try CLI.strata(["migrate", "--database", database, "--schemas", folder]).stdout.contains("nothing to apply"))

        // v2 edited after it was applied: its SQL no longer matches the ledger.
        let v2 = URL(fileURLWithPath: folder).appendingPathComponent("Shop/v2.yaml")
        try Self.versions[1].replacingOccurrences(of: "default: false", with: "default: true").write(to: v2, atomically: true, encoding: .utf8)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: database))
        let edited = try CLI.strata(["migrate", "--database", database, "--schemas", folder])
        #expect(edited.status == 1)
        #expect(edited.stderr.contains("checksum"), "\(edited.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: database)) == bytes)

        // A model that only knows v1 meets a v2 database.
        try FileManager.default.removeItem(at: v2)
        let newer = try CLI.strata(["migrate", "--database", database, "--schemas", folder])
        #expect(newer.status == 1)
        #expect(newer.stderr.contains("newer than the latest version"), "\(newer.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: database)) == bytes)
    }

    @Test func strataMigrateExits4WhenAVersionFailsAndIsRolledBack() throws {
        let (_, folder) = try Models.temporary("Shop", versions: Self.versions)
        let database = URL(fileURLWithPath: folder).appendingPathComponent("failing.sqlite").path
        #expect(try CLI.strata(["migrate", "--database", database, "--schemas", folder, "--to", "1"]).status == 0)
        let queue = try DatabaseQueue(path: database)
        try queue.write { db in
            try db.execute(sql: #"INSERT INTO "customer" ("email", "name") VALUES ('a@x', 'A'), ('a@x', 'A again')"#)
        }
        try queue.close()
        let bytes = try Data(contentsOf: URL(fileURLWithPath: database))
        let failed = try CLI.strata(["migrate", "--database", database, "--schemas", folder])
        #expect(failed.status == 4, "\(failed.stderr)")
        #expect(failed.stderr.contains("the migration failed and was rolled back"), "\(failed.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: database)) == bytes)
    }

    /// SIGKILL: nothing in strata runs, SQLite's journal rolls back on the next open. SIGINT
    /// (Ctrl-C): strata interrupts the statement, rolls the version back itself and says so.
    @Test(
        "strata migrate stopped while a rebuild copies its rows leaves the database at the version before",
        arguments: [SIGKILL, SIGINT])
    func stoppedMidRebuildLeavesSQLiteAtTheVersionBefore(signal: Int32) throws {
        let (_, folder) = try Models.temporary("Shop", versions: Self.versions)
        let database = URL(fileURLWithPath: folder).appendingPathComponent("killed.sqlite").path
        #expect(try CLI.strata(["migrate", "--database", database, "--schemas", folder, "--to", "1"]).status == 0)
        // Enough rows that copying them into the rebuilt table (v2 makes email unique) takes a while.
        let rows = 400_000
        let queue = try DatabaseQueue(path: database)
        try queue.write { db in
            let insert = try db.makeStatement(sql: #"INSERT INTO "customer" ("email", "name") VALUES (?, ?)"#)
            for row in 0..<rows { try insert.execute(arguments: ["c\(row)@example.com", "customer \(row)"]) }
        }
        func state(_ queue: DatabaseQueue) throws -> (schema: String, rows: Int, sum: Int) {
            try queue.read { db in
                (
                    try String.fetchAll(db, sql: "SELECT sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY name")
                        .joined(separator: "\n"),
                    try Int.fetchOne(db, sql: #"SELECT count(*) FROM "customer""#) ?? -1,
                    try Int.fetchOne(db, sql: #"SELECT sum(length("email") + "id") FROM "customer""#) ?? -1
                )
            }
        }
        let before = try state(queue)
        try queue.close()

        let running = try CLI.start(["migrate", "--database", database, "--schemas", folder])
        var stderr = ""
        while !stderr.contains("copying the rows of customer") {
            let chunk = running.stderr.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            stderr += String(decoding: chunk, as: UTF8.self)
        }
        #expect(stderr.contains("Shop: v2: copying the rows of customer into its rebuilt table…"), "\(stderr)")
        kill(running.process.processIdentifier, signal)
        let stopped = CLI.finish(running)
        if signal == SIGKILL {
            #expect(running.process.terminationReason == .uncaughtSignal, "it finished before the kill: \(stopped.stderr)")
        } else {
            #expect(stopped.status == 130, "\(stopped.stderr)")
            #expect(
                stopped.stderr.hasSuffix(
                    "error: \(database): interrupted (SIGINT): the database is at version 1 of Shop; no version was left half-applied\n"
                ), "\(stopped.stderr)")
            #expect(!stopped.stdout.contains("migrated"), "\(stopped.stdout)")
        }

        // Opening it again rolls the unfinished transaction back: version 1, every row, no rebuilt table.
        let reopened = try DatabaseQueue(path: database)
        #expect(try Models.migrator(try Models.load("Shop", in: folder)).currentVersion(in: reopened) == 1)
        let after = try state(reopened)
        #expect(after.schema == before.schema)
        #expect(after.rows == rows && after.sum == before.sum)
        #expect(try reopened.read { db in try String.fetchOne(db, sql: "PRAGMA integrity_check") } == "ok")
        try reopened.close()
        // And the same migration then goes through.
        let again = try CLI.strata(["migrate", "--database", database, "--schemas", folder])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stdout.contains("migrated from version 1 to 2"), "\(again.stdout)")
    }

    @Test func dryRunPrintsTheSQLAndCreatesNothing() throws {
        let (_, folder) = try Models.temporary("Shop", versions: Self.versions)
        let database = URL(fileURLWithPath: folder).appendingPathComponent("dry.sqlite").path
        let result = try CLI.strata(["migrate", "--database", database, "--schemas", folder, "--dry-run"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains(#"CREATE TABLE "customer""#))
        #expect(result.stdout.contains(#"CREATE TABLE "strata_new_customer""#))
        #expect(!FileManager.default.fileExists(atPath: database))
    }
}
