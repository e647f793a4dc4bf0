import Foundation
import GRDB
import StrataCore
import StrataIntrospection
import StrataTestSupport
import StrataVerification
import Testing

/// Every generated SQLite migration file of every fixture model applies, one file at a time, on
/// a connection with foreign keys ON (GRDB's default, and how many tools apply SQL files): in the
/// `sqlite3` command-line client and through GRDB. Files that drop tables switch foreign keys off
/// themselves (outside a transaction that is possible); rows seeded at v1 keep every reference
/// valid (`PRAGMA foreign_key_check`), and the result is the model's latest schema.
@Suite struct MigrationFileTests {
    /// The SQLite migration files of a model, oldest first.
    static func migrationFiles(_ history: SchemaHistory) -> [String] {
        MigrationSources.sqlite(for: history).map(\.sql)
    }

    /// The v1 rows: one per table (unique columns of every model take it), references valid.
    static func seed(_ history: SchemaHistory) throws -> String {
        let first = try #require(history.version(1))
        return RowSeeder(rowsPerTable: 1).inserts(for: first, dialect: .sqlite).map { $0 + ";" }.joined(separator: "\n")
    }

    static func temporaryDatabase() -> String {
        TestScratch.path("strata", suffix: ".sqlite").path
    }

    static func expectLatestSchema(_ database: String, _ history: SchemaHistory, _ how: String) throws {
        let queue = try DatabaseQueue(path: database)
        let violations = try queue.read { db in try Row.fetchAll(db, sql: "PRAGMA foreign_key_check") }
        #expect(violations.isEmpty, "\(history.model) through \(how): foreign key violations \(violations)")
        let actual = try queue.read { db in try SQLiteIntrospector.schema(of: db) }
        let latest = try #require(history.latest)
        let report = SchemaComparison(comparesColumnOrder: false).report(
            expected: ExpectedSchema.of(latest, dialect: .sqlite), actual: actual)
        #expect(report.isEmpty, "\(history.model) through \(how):\n\(report)")
    }

    @Test(arguments: SQLTestModels.all)
    func sqlite3AppliesEveryFileWithForeignKeysOn(_ source: SQLTestModels.Source) throws {
        guard let sqlite3 = ProcessRunner.locate("sqlite3") else {
            if TestPostgresServer.isCI { Issue.record("sqlite3 is not installed, and CI=true requires it") }
            try Test.cancel("skipped: the sqlite3 command-line client is not installed")
        }
        let history = try SQLTestModels.history(source)
        let database = Self.temporaryDatabase()
        defer { try? FileManager.default.removeItem(atPath: database) }
        let files = Self.migrationFiles(history)
        for (offset, file) in files.enumerated() {
            let result = try ProcessRunner.run(
                [sqlite3, "-bail", "-batch", "-cmd", "PRAGMA foreign_keys = ON", database], input: file)
            #expect(result.status == 0, "\(source.model) v\(offset + 1).sql failed in sqlite3:\n\(result.output)")
            if offset == 0 {
                let seeded = try ProcessRunner.run(
                    [sqlite3, "-bail", "-batch", "-cmd", "PRAGMA foreign_keys = ON", database],
                    input: try Self.seed(history))
                #expect(seeded.status == 0, "seeding \(source.model):\n\(seeded.output)")
            }
        }
        try Self.expectLatestSchema(database, history, "sqlite3")
    }

    @Test(arguments: SQLTestModels.all)
    func grdbAppliesEveryFileWithForeignKeysOn(_ source: SQLTestModels.Source) throws {
        let history = try SQLTestModels.history(source)
        let database = Self.temporaryDatabase()
        defer { try? FileManager.default.removeItem(atPath: database) }
        let queue = try DatabaseQueue(path: database)
        for (offset, file) in Self.migrationFiles(history).enumerated() {
            try queue.writeWithoutTransaction { db in
                try db.execute(sql: "PRAGMA foreign_keys = ON")
                #expect(try Bool.fetchOne(db, sql: "PRAGMA foreign_keys") == true)
                do {
                    try db.execute(sql: file)
                } catch {
                    Issue.record(
                        "\(source.model) v\(offset + 1).sql failed through GRDB with foreign keys on: \(error)")
                }
                if offset == 0 {
                    try db.inTransaction {
                        try db.execute(sql: try Self.seed(history)); return .commit
                    }
                }
            }
        }
        try queue.close()
        try Self.expectLatestSchema(database, history, "GRDB")
    }

    @Test func filesThatDropTablesSayWhyAndSwitchForeignKeysOff() throws {
        let history = try SQLTestModels.history(.init(model: "Evolution", folder: SQLTestModels.sharedModels))
        let files = Self.migrationFiles(history)
        let dropping = files.filter { $0.contains("\nDROP TABLE ") }
        #expect(!dropping.isEmpty)
        for file in files {
            let drops = file.contains("\nDROP TABLE ")
            #expect(file.contains("\nPRAGMA foreign_keys = OFF;\n") == drops)
            #expect(file.contains("Afterwards run PRAGMA foreign_key_check (it must return no rows)") == drops)
            if drops {
                // The pragma is the first statement: nothing runs before foreign keys are off.
                let body = file.split(separator: "\n").filter { !$0.hasPrefix("--") && !$0.isEmpty }
                #expect(body.first == "PRAGMA foreign_keys = OFF;")
            }
        }
        // Without the pragma, a connection with foreign keys on cannot apply them all.
        let queue = try DatabaseQueue()
        var failed = false
        queue.writeWithoutTransaction { db in
            for file in files {
                do {
                    try db.execute(sql: "PRAGMA foreign_keys = ON")
                    try db.execute(sql: file.replacingOccurrences(of: "PRAGMA foreign_keys = OFF;\n", with: ""))
                    if file == files.first { try db.execute(sql: try Self.seed(history)) }
                } catch {
                    failed = true
                    break
                }
            }
        }
        #expect(failed, "the files apply with foreign keys on even without the pragma: the test proves nothing")
    }
}
