import Foundation
import GRDB
import StrataSQLite
import StrataTestSupport
import Testing

/// A small model with three versions, written by hand: what generated `<Model>Migrations` hold.
private enum Notes {
    static let v1 = StrataMigration(
        version: 1,
        sql: #"CREATE TABLE "note" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "text" TEXT NOT NULL);"#,
        checksum: "c1"
    )
    static let v2 = StrataMigration(
        version: 2,
        sql: #"ALTER TABLE "note" ADD COLUMN "done" INTEGER NOT NULL DEFAULT 0;"#,
        checksum: "c2"
    )
    static let v3 = StrataMigration(
        version: 3,
        sql: #"CREATE TABLE "tag" ("id" INTEGER PRIMARY KEY, "note" INTEGER NOT NULL REFERENCES "note" ("id"));"#,
        checksum: "c3"
    )
    static let migrator = SQLiteMigrator(model: "Notes", migrations: [v1, v2, v3])

    static func tables(_ writer: some DatabaseWriter) throws -> [String] {
        try writer.read { db in
            try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        }
    }
}

@Suite("Migration ledger")
struct MigratorTests {
    @Test("a new database gets every version, each recorded in the ledger")
    func migratesEmptyDatabase() throws {
        let queue = try DatabaseQueue()
        #expect(try Notes.migrator.pending(in: queue).map(\.version) == [1, 2, 3])
        let applied = try Notes.migrator.migrate(queue)
        #expect(applied.map(\.version) == [1, 2, 3])
        #expect(try Notes.migrator.currentVersion(in: queue) == 3)
        let ledger = try queue.read { db in try MigrationLedger.entries(db) }
        #expect(ledger.map(\.version) == [1, 2, 3])
        #expect(ledger.map(\.checksum) == ["c1", "c2", "c3"])
        #expect(ledger.allSatisfy { $0.model == "Notes" && $0.appliedAt > 0 })
        #expect(try Notes.tables(queue) == ["note", "sqlite_sequence", "strata_migrations", "strata_storage", "tag"])
    }

    @Test("re-running applies nothing")
    func rerunIsNoOp() throws {
        let queue = try DatabaseQueue()
        try Notes.migrator.migrate(queue)
        #expect(try Notes.migrator.migrate(queue).isEmpty)
        #expect(try Notes.migrator.pending(in: queue).isEmpty)
    }

    @Test("migrating in steps, to a target version, then to the latest")
    func migratesToTarget() throws {
        let queue = try DatabaseQueue()
        #expect(try Notes.migrator.migrate(queue, to: 1).map(\.version) == [1])
        try queue.write { db in try db.execute(sql: #"INSERT INTO "note" ("text") VALUES ('kept')"#) }
        #expect(try Notes.migrator.pending(in: queue).map(\.version) == [2, 3])
        #expect(try Notes.migrator.migrate(queue).map(\.version) == [2, 3])
        let row = try queue.read { db in try Row.fetchOne(db, sql: #"SELECT "text", "done" FROM "note""#) }
        #expect(row?["text"] == "kept")
        #expect(row?["done"] == 0)
    }

    @Test("a database newer than the model is refused and left untouched")
    func refusesNewerDatabase() throws {
        let queue = try DatabaseQueue()
        try Notes.migrator.migrate(queue)
        let older = SQLiteMigrator(model: "Notes", migrations: [Notes.v1, Notes.v2])
        #expect(throws: StrataMigrationError.databaseIsNewer(
            model: "Notes", databaseVersion: 3, latestKnownVersion: 2, firstIncompatibleVersion: 3, reason: nil))
        {
            try older.migrate(queue)
        }
        #expect(throws: StrataMigrationError.self) { try older.pending(in: queue) }
        #expect(try queue.read { db in try MigrationLedger.entries(db) }.count == 3)
    }

    @Test("a version applied with another checksum is refused before anything is written")
    func refusesEditedHistory() throws {
        let queue = try DatabaseQueue()
        try Notes.migrator.migrate(queue, to: 1)
        var edited = Notes.v1
        edited.checksum = "edited"
        let migrator = SQLiteMigrator(model: "Notes", migrations: [edited, Notes.v2, Notes.v3])
        #expect(
            throws: StrataMigrationError.checksumMismatch(
                model: "Notes", version: 1, recorded: "c1", expected: "edited")
        ) {
            try migrator.migrate(queue)
        }
        #expect(try Notes.tables(queue) == ["note", "sqlite_sequence", "strata_migrations", "strata_storage"])
        #expect(try Notes.migrator.currentVersion(in: queue) == 1)
    }

    @Test("a database of another model is refused")
    func refusesOtherModel() throws {
        let queue = try DatabaseQueue()
        try Notes.migrator.migrate(queue, to: 1)
        let other = SQLiteMigrator(model: "Other", migrations: [Notes.v1])
        #expect(throws: StrataMigrationError.otherModel(expected: "Other", found: "Notes")) {
            try other.migrate(queue)
        }
    }

    @Test("a failing version is rolled back with its ledger row; earlier versions stay applied")
    func failingVersionRollsBack() throws {
        let queue = try DatabaseQueue()
        let broken = StrataMigration(version: 2, sql: #"ALTER TABLE "missing" ADD COLUMN "x" INTEGER;"#, checksum: "b2")
        let migrator = SQLiteMigrator(model: "Notes", migrations: [Notes.v1, broken])
        #expect(throws: DatabaseError.self) { try migrator.migrate(queue) }
        #expect(try Notes.migrator.currentVersion(in: queue) == 1)
        #expect(try queue.read { db in try MigrationLedger.entries(db) }.map(\.version) == [1])
    }

    @Test("foreign keys are off while a version rebuilds a table, and checked before it commits")
    func foreignKeysDuringMigration() throws {
        let queue = try DatabaseQueue()
        try Notes.migrator.migrate(queue)
        try queue.write { db in
            try db.execute(sql: #"INSERT INTO "note" ("id", "text") VALUES (1, 'a')"#)
            try db.execute(sql: #"INSERT INTO "tag" ("id", "note") VALUES (1, 1)"#)
        }
        // The table rebuild of sqlite.org: drop and recreate the referenced table, keeping rows.
        let rebuild = StrataMigration(
            version: 4,
            sql: """
                CREATE TABLE "note_new" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "text" TEXT NOT NULL);
                INSERT INTO "note_new" ("id", "text") SELECT "id", "text" FROM "note";
                DROP TABLE "note";
                ALTER TABLE "note_new" RENAME TO "note";
                """,
            checksum: "c4"
        )
        let migrator = SQLiteMigrator(model: "Notes", migrations: [Notes.v1, Notes.v2, Notes.v3, rebuild])
        try migrator.migrate(queue)
        #expect(try queue.read { db in try Int.fetchOne(db, sql: #"SELECT count(*) FROM "tag""#) } == 1)
        #expect(try queue.read { db in try Bool.fetchOne(db, sql: "PRAGMA foreign_keys") } == true)

        let orphaning = StrataMigration(version: 5, sql: #"DELETE FROM "note";"#, checksum: "c5")
        let failing = SQLiteMigrator(model: "Notes", migrations: [Notes.v1, Notes.v2, Notes.v3, rebuild, orphaning])
        #expect(throws: StrataMigrationError.foreignKeyViolation(model: "Notes", version: 5, table: "tag")) {
            try failing.migrate(queue)
        }
        #expect(try queue.read { db in try Int.fetchOne(db, sql: #"SELECT count(*) FROM "note""#) } == 1)
    }

    @Test("target versions that do not exist or go backwards are refused")
    func invalidTargets() throws {
        let queue = try DatabaseQueue()
        try Notes.migrator.migrate(queue, to: 2)
        #expect(throws: StrataMigrationError.unknownTargetVersion(model: "Notes", target: 7, latestKnownVersion: 3)) {
            try Notes.migrator.migrate(queue, to: 7)
        }
        #expect(throws: StrataMigrationError.cannotDowngrade(model: "Notes", databaseVersion: 2, target: 1)) {
            try Notes.migrator.migrate(queue, to: 1)
        }
        let gappy = SQLiteMigrator(model: "Notes", migrations: [Notes.v1, Notes.v3])
        #expect(throws: StrataMigrationError.invalidMigrationList(model: "Notes", versions: [1, 3])) {
            try gappy.migrate(queue)
        }
    }

    @Test("a database file opened as a pool (WAL) migrates the same way")
    func migratesPool() throws {
        let folder = TestScratch.path("strata")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("notes.sqlite").path
        do {
            let pool = try DatabasePool(path: path)
            #expect(try Notes.migrator.migrate(pool).count == 3)
            #expect(try pool.read { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") } == "wal")
        }
        let reopened = try DatabasePool(path: path)
        #expect(try Notes.migrator.migrate(reopened).isEmpty)
        #expect(try Notes.migrator.currentVersion(in: reopened) == 3)
    }
}
