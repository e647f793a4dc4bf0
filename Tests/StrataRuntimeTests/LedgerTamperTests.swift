import Foundation
import StrataRuntime
import Testing

/// A ledger edited by hand or damaged is refused with the table, row and column, never a crash,
/// and the database file is left byte for byte as it was.
@Suite("Tampered ledger")
struct LedgerTamperTests {
    static let migrator = StrataMigrator(
        model: "Notes",
        migrations: [
            StrataMigration(version: 1, sql: #"CREATE TABLE "note" ("id" INTEGER PRIMARY KEY);"#, checksum: "c1"),
            StrataMigration(version: 2, sql: #"ALTER TABLE "note" ADD COLUMN "t" TEXT;"#, checksum: "c2"),
        ])

    @Test(arguments: [
        (#"UPDATE strata_migrations SET applied_at = 'yesterday' WHERE version = 1"#, "row 1, column applied_at holds the text 'yesterday'"),
        (#"UPDATE strata_migrations SET version = 'two' WHERE version = 1"#, "column version holds the text 'two'"),
        (#"UPDATE strata_migrations SET version = 1e30 WHERE version = 1"#, "column version holds the real 1e+30"),
        (#"UPDATE strata_migrations SET checksum = x'00ff' WHERE version = 1"#, "row 1, column checksum holds a blob of 2 bytes"),
        (
            #"ALTER TABLE strata_migrations RENAME TO old; CREATE TABLE strata_migrations (model, version, checksum, applied_at); "#
                + #"INSERT INTO strata_migrations SELECT * FROM old; DROP TABLE old; UPDATE strata_migrations SET model = NULL"#, "row 1, column model holds NULL"),
        (#"UPDATE strata_migrations SET version = -5 WHERE version = 1"#, "column version holds the integer -5"),
    ])
    func refusesTamperedValue(tamper: String, expected: String) throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("ledger-\(UUID().uuidString).sqlite").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let partial = StrataMigrator(model: "Notes", migrations: [Self.migrator.migrations[0]])
        do {
            let queue = try DatabaseQueue(path: path)
            try partial.migrate(queue)
            try queue.writeWithoutTransaction { db in
                try db.execute(sql: "PRAGMA ignore_check_constraints = ON")
                try db.execute(sql: tamper)
            }
            try queue.close()
        }
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let queue = try DatabaseQueue(path: path)
        for attempt in [{ _ = try Self.migrator.pending(in: queue) }, { _ = try Self.migrator.migrate(queue) }] {
            do {
                try attempt()
                Issue.record("a tampered ledger was accepted")
            } catch let error as StrataMigrationError {
                #expect(error.description.contains("strata_migrations is damaged"))
                #expect(error.description.contains(expected), "\(error.description)")
            }
        }
        try queue.close()
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }
}
