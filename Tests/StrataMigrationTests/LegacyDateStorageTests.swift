import Foundation
import GRDB
import StrataChecksum
import StrataCore
import StrataDateSamples
import StrataRuntime
import StrataStorage
import StrataTestSupport
import Testing

/// Databases written by Strata 0.5 (Dates in seconds since 1970, Date defaults rendered so in the
/// migrations their ledger checksums) through `strata migrate` and the migrator.
@Suite struct LegacyDateStorageTests {
    /// Version 1, with a Date default; version 2 adds another.
    static let versions: [String] = {
        let v1 = """
            model: Diary
            version: 1
            entities:
              Entry:
                fields:
                  id: { type: Int64, autoincrement: true }
                  at: Date
                  due: Date?
                  created: { type: Date, default: "2024-01-31T12:00:00.5Z" }
            """
        let v2 = v1.replacingOccurrences(of: "version: 1", with: "version: 2")
            + "\n      reviewed: { type: Date, default: \"2020-02-29T00:00:00.123Z\" }"
        return [v1, v2]
    }()

    /// The SQLite migration into `version` as Strata 0.5 rendered it.
    static func legacySQL(_ history: SchemaHistory, version: Int) throws -> String {
        let legacy = GeneratorConfiguration(sqliteDateFormat: .secondsSince1970)
        if version == 1 {
            return SQLSchemaRenderer.initialMigrationFile(
                for: try #require(history.version(1)), dialect: .sqlite, configuration: legacy)
        }
        let plan = try #require(Generator.migrationPlans(for: history).first { $0.to.version == version })
        return MigrationSQLRenderer.file(for: plan, dialect: .sqlite, configuration: legacy)
    }

    /// A database as Strata 0.5 left it at `version`: its SQL, its ledger with its checksums, and
    /// `dates` in `at` (and every other one in `due`) as seconds since 1970.
    static func legacyDatabase(_ history: SchemaHistory, folder: String, version: Int, dates: [Date]) throws -> String {
        let path = URL(fileURLWithPath: folder).appendingPathComponent("diary-\(UUID().uuidString).sqlite").path
        try DatabaseQueue(path: path).write { db in
            try db.execute(
                sql: """
                    CREATE TABLE "strata_migrations" ("model" TEXT NOT NULL, "version" INTEGER NOT NULL,
                        "checksum" TEXT NOT NULL, "applied_at" REAL NOT NULL, PRIMARY KEY ("model", "version"))
                    """)
            for number in 1...version {
                let sql = try legacySQL(history, version: number)
                try db.execute(sql: sql)
                try db.execute(
                    sql: #"INSERT INTO "strata_migrations" VALUES ('Diary', ?, ?, 1700000000)"#,
                    arguments: [number, MigrationChecksum.of(sql)])
            }
            for (index, date) in dates.enumerated() {
                try db.execute(
                    sql: #"INSERT INTO "entry" ("at", "due") VALUES (?, ?)"#,
                    arguments: [date.timeIntervalSince1970, index % 2 == 0 ? date.timeIntervalSince1970 : nil])
            }
        }
        return path
    }

    /// Every Date column of the entries, as the runtime reads them, in row order.
    static func entries(_ path: String, columns: [String]) throws -> [[Date?]] {
        try DatabaseQueue(path: path).read { db in
            try Row.fetchAll(db, sql: "SELECT \(columns.map { "\"\($0)\"" }.joined(separator: ", ")) FROM \"entry\" ORDER BY \"id\"")
                .map { row in (0..<columns.count).map { (row[$0] as Double?).map(SQLiteStorage.date(seconds:)) } }
        }
    }

    static func date(_ text: String) throws -> Date {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return try #require(formatter.date(from: text))
    }

    @Test func theGeneratorKnowsTheChecksumsOldDatabasesRecordedAndTheDateColumnsOfEachVersion() throws {
        let (history, _) = try Models.temporary("Diary", versions: Self.versions)
        let migrations = Models.migrator(history).migrations
        for migration in migrations {
            let legacy = try Self.legacySQL(history, version: migration.version)
            #expect(migration.legacyChecksum == MigrationChecksum.of(legacy))
            #expect(migration.checksum != MigrationChecksum.of(legacy))
        }
        #expect(try Self.legacySQL(history, version: 1).contains("DEFAULT 1706702400.5"))
        #expect(migrations[0].sql.contains("DEFAULT 728395200.5"))
        #expect(migrations[1].dateColumns.map(\.column) == ["at", "due", "created", "reviewed"])
        // The Showcase fixture's v2 as the generator wrote it before this change.
        let showcase = Models.migrator(try Models.load("Showcase", in: Models.fixtures)).migrations
        #expect(showcase[0].legacyChecksum == nil)
        #expect(showcase[1].legacyChecksum == "83d098476ffdc47f9cb1f7855c665d1d637564a0c289cff95a3651c4bd3a5c00")
    }

    @Test func strataMigrateConvertsAnOldDatabaseOnceThenAppliesTheNewVersions() throws {
        let (history, folder) = try Models.temporary("Diary", versions: Self.versions)
        let dates = Array(DateSamples.all.prefix(1_000))
        let path = try Self.legacyDatabase(history, folder: folder, version: 1, dates: dates)
        let columns = ["at", "due", "created"]
        let old = try DatabaseQueue(path: path).read { db in
            try Row.fetchAll(db, sql: #"SELECT "at", "due", "created" FROM "entry" ORDER BY "id""#).map { row in
                (0..<3).map { (row[$0] as Double?).map { Date(timeIntervalSince1970: $0) } }
            }
        }

        let dryRun = try CLI.strata(["migrate", "--database", path, "--schemas", folder, "--dry-run"])
        #expect(dryRun.status == 0, "\(dryRun.stderr)")
        #expect(dryRun.stdout.contains(#"UPDATE "entry" SET "at" = "at" - 978307200"#))
        #expect(dryRun.stdout.contains("-- version 2"))
        #expect(try Self.entries(path, columns: columns).count == dates.count)
        let json = try CLI.strata(["migrate", "--database", path, "--schemas", folder, "--dry-run", "--format", "json"])
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        let conversion = object?["dateConversion"] as? [String: Any]
        #expect(conversion?["version"] as? Int == 1)
        #expect((conversion?["statements"] as? [String])?.count == 3)

        let applied = try CLI.strata(["migrate", "--database", path, "--schemas", folder])
        #expect(applied.status == 0, "\(applied.stderr)")
        #expect(applied.stderr.contains("converted the Dates of v1 (3 columns)"), "\(applied.stderr)")
        #expect(applied.stdout.contains("migrated from version 1 to 2"), "\(applied.stdout)")
        let converted = try Self.entries(path, columns: columns + ["reviewed"])
        // The Dates old Strata read, the old default among them; v2's default in the new format.
        #expect(converted.map { Array($0.prefix(3)) } == old)
        #expect(converted.allSatisfy { $0[2] == (try? Self.date("2024-01-31T12:00:00.5Z")) })
        #expect(converted.allSatisfy { $0[3] == (try? Self.date("2020-02-29T00:00:00.123Z")) })

        let again = try CLI.strata(["migrate", "--database", path, "--schemas", folder])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stdout.contains("nothing to apply"))
        #expect(!again.stderr.contains("converted"))
        #expect(try Self.entries(path, columns: columns + ["reviewed"]) == converted)
    }

    @Test func anOldDatabaseAtTheLatestVersionIsConvertedWithTheColumnsOfThatVersion() throws {
        let (history, folder) = try Models.temporary("Diary", versions: Self.versions)
        let path = try Self.legacyDatabase(history, folder: folder, version: 2, dates: Array(DateSamples.issue))
        let migrator = Models.migrator(history)
        let queue = try DatabaseQueue(path: path)
        #expect(try migrator.currentVersion(in: queue) == 2)
        var events: [String] = []
        let applied = try migrator.migrate(queue) { event in
            if case .didConvertDates(let conversion, _) = event { events.append("v\(conversion.version): \(conversion.columns.count)") }
        }
        #expect(applied.isEmpty)
        #expect(events == ["v2: 4"])
        let rows = try Self.entries(path, columns: ["at", "created", "reviewed"])
        #expect(rows.map { $0[0] } == DateSamples.issue.map { Date(timeIntervalSince1970: $0.timeIntervalSince1970) })
        #expect(rows.allSatisfy { $0[1] == (try? Self.date("2024-01-31T12:00:00.5Z")) })
        #expect(rows.allSatisfy { $0[2] == (try? Self.date("2020-02-29T00:00:00.123Z")) })
        #expect(try migrator.migrate(queue).isEmpty)
        #expect(try migrator.pendingDateConversion(in: queue) == nil)
    }

    @Test func aLedgerOrMarkerThatNoStrataWroteIsRefusedAndTheDatabaseLeftUntouched() throws {
        let (history, folder) = try Models.temporary("Diary", versions: Self.versions)
        let migrator = Models.migrator(history)
        let tamperings: [(String, (StrataMigrationError) -> Bool)] = [
            // Marked as created in the new format, but its ledger holds the old checksum.
            (
                #"CREATE TABLE "strata_storage" ("model" TEXT PRIMARY KEY, "date_format" INTEGER NOT NULL, "since_version" INTEGER NOT NULL); INSERT INTO "strata_storage" VALUES ('Diary', 2, 0)"#,
                { if case .checksumMismatch(_, 1, _, _) = $0 { return true } else { return false } }
            ),
            (
                #"CREATE TABLE "strata_storage" ("model" TEXT PRIMARY KEY, "date_format" INTEGER NOT NULL, "since_version" INTEGER NOT NULL); INSERT INTO "strata_storage" VALUES ('Diary', 'two', 1)"#,
                { if case .unreadableStorageFormat(_, "date_format", _) = $0 { return true } else { return false } }
            ),
            (
                #"CREATE TABLE "strata_storage" ("model" TEXT PRIMARY KEY, "date_format" INTEGER NOT NULL, "since_version" INTEGER NOT NULL); INSERT INTO "strata_storage" VALUES ('Diary', 9, 1)"#,
                { if case .unknownDateFormat("Diary", 9) = $0 { return true } else { return false } }
            ),
            (
                #"CREATE TABLE "strata_storage" ("model" TEXT PRIMARY KEY, "format" INTEGER)"#,
                { if case .unreadableStorageFormatTable = $0 { return true } else { return false } }
            ),
            // No marker but the new checksum: not written by any Strata; never converted.
            (
                #"UPDATE "strata_migrations" SET "checksum" = '\#(migrator.migrations[0].checksum)'"#,
                { if case .checksumMismatch(_, 1, _, _) = $0 { return true } else { return false } }
            ),
        ]
        for (sql, expected) in tamperings {
            let path = try Self.legacyDatabase(history, folder: folder, version: 1, dates: Array(DateSamples.issue.prefix(5)))
            let queue = try DatabaseQueue(path: path)
            try queue.write { db in try db.execute(sql: sql) }
            let before = try Self.entries(path, columns: ["at", "due", "created"])
            let error = #expect(throws: StrataMigrationError.self) { try migrator.migrate(queue) }
            #expect(error.map(expected) == true, "\(sql): \(String(describing: error))")
            #expect(try Self.entries(path, columns: ["at", "due", "created"]) == before)
            #expect(try queue.read { db in try Int.fetchOne(db, sql: #"SELECT max("version") FROM "strata_migrations""#) } == 1)
        }
    }

    @Test func dateKeysExactlyTheEpochsApartConvertWithoutAFalseConflict() throws {
        let (history, folder) = try Models.temporary(
            "Calendar",
            versions: [
                """
                model: Calendar
                version: 1
                entities:
                  Day:
                    primaryKey: day
                    fields:
                      day: Date
                      note: { type: String, default: "" }
                  Event:
                    fields:
                      id: { type: Int64, autoincrement: true }
                      day: Day
                      at: { type: Date, unique: true }
                """
            ])
        let migrator = Models.migrator(history)
        #expect(migrator.migrations[0].dateColumns.map(\.column) == ["day", "day", "at"])
        let path = URL(fileURLWithPath: folder).appendingPathComponent("calendar.sqlite").path
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            let sql = migrator.migrations[0].sql
            try db.execute(sql: sql)
            try db.execute(
                sql: """
                    CREATE TABLE "strata_migrations" ("model" TEXT NOT NULL, "version" INTEGER NOT NULL,
                        "checksum" TEXT NOT NULL, "applied_at" REAL NOT NULL, PRIMARY KEY ("model", "version"));
                    INSERT INTO "strata_migrations" VALUES ('Calendar', 1, ?, 1700000000);
                    -- 2001-01-01 first: shifted alone, it would land on 1970-01-01, still held by the next row.
                    INSERT INTO "day" ("day") VALUES (978307200.0), (0.0);
                    INSERT INTO "event" ("day", "at") VALUES (978307200.0, 978307200.0), (0.0, 0.0);
                    """, arguments: [MigrationChecksum.of(sql)])
        }
        // One UPDATE over the key would fail on the way.
        #expect(throws: DatabaseError.self) {
            try queue.inTransaction {
                try $0.execute(sql: SQLiteDateColumn(table: "day", column: "day").conversionSQL(from: .secondsSince1970))
                return .rollback
            }
        }
        try migrator.migrate(queue)
        let days = try queue.read { db in try Double.fetchAll(db, sql: #"SELECT "day" FROM "day" ORDER BY rowid"#) }
        #expect(days == [0, -978_307_200])
        let events = try queue.read { db in try Row.fetchAll(db, sql: #"SELECT "day", "at" FROM "event" ORDER BY "id""#) }
        #expect(events.map { [$0[0] as Double, $0[1] as Double] } == [[0, 0], [-978_307_200, -978_307_200]])
        #expect(try queue.read { db in try Row.fetchAll(db, sql: "PRAGMA foreign_key_check") }.isEmpty)
        #expect(try migrator.pendingDateConversion(in: queue) == nil)
    }
}
