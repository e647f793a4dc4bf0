import Foundation
import GRDB
import StrataTestSupport
import Testing

/// `strata migrate` next to another writer: it waits (saying so), then applies what is still
/// pending; two processes started together apply each version once and both succeed.
@Suite(.serialized) struct ConcurrentMigrateTests {
    static let schemas = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Schemas").path

    static func temporaryDatabase() -> String {
        TestScratch.path("concurrent", suffix: ".sqlite").path
    }

    /// Starts `strata migrate` on `database` without waiting for it.
    static func startMigrate(_ database: String) throws -> CLI.Running {
        try CLI.start(["migrate", "--database", database, "--schemas", schemas, "--model", "MyTODO"])
    }

    static func finish(_ started: CLI.Running) -> CLI.Result { CLI.finish(started) }

    static func ledgerVersions(_ database: String) throws -> [Int] {
        try DatabaseQueue(path: database).read { db in
            try Int.fetchAll(db, sql: #"SELECT "version" FROM "strata_migrations" ORDER BY "version""#)
        }
    }

    @Test("migrate waits for a connection that holds the write lock, says so, then migrates")
    func waitsForTheWriteLock() throws {
        let database = Self.temporaryDatabase()
        defer { try? FileManager.default.removeItem(atPath: database) }
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        holder.arguments = ["sqlite3", database]
        let input = Pipe()
        holder.standardInput = input
        holder.standardOutput = FileHandle.nullDevice
        try holder.run()
        input.fileHandleForWriting.write(Data("CREATE TABLE \"other\" (\"x\"); BEGIN IMMEDIATE; INSERT INTO \"other\" VALUES (1);\n".utf8))
        Thread.sleep(forTimeInterval: 0.5)
        let migrate = try Self.startMigrate(database)
        Thread.sleep(forTimeInterval: 1.5)
        #expect(migrate.process.isRunning, "migrate did not wait for the lock")
        input.fileHandleForWriting.write(Data("COMMIT;\n.quit\n".utf8))
        try input.fileHandleForWriting.close()
        holder.waitUntilExit()
        let result = Self.finish(migrate)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("another process is writing to the database; waiting for it to finish"), "\(result.stderr)")
        #expect(try Self.ledgerVersions(database) == [1, 2, 3])
    }

    @Test("two migrate processes started together apply each version once, and both succeed")
    func twoProcessesAtOnce() throws {
        for _ in 0..<3 {
            let database = Self.temporaryDatabase()
            defer { try? FileManager.default.removeItem(atPath: database) }
            let first = try Self.startMigrate(database)
            let second = try Self.startMigrate(database)
            let results = [Self.finish(first), Self.finish(second)]
            for result in results { #expect(result.status == 0, "\(result.stderr)") }
            #expect(try Self.ledgerVersions(database) == [1, 2, 3])
        }
    }

    @Test("a database that would vanish (empty path, :memory:) is a usage error", arguments: ["", ":memory:", " "])
    func refusesVanishingDatabases(_ path: String) throws {
        let result = Self.finish(try Self.startMigrate(path))
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr.contains("--database must name a database file"), "\(result.stderr)")
    }
}
