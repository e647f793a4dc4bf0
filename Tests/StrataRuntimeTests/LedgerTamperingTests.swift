import Foundation
import GRDB
import StrataSQLite
import StrataTestSupport
import Testing

/// A ledger written by something other than Strata is a refusal naming the row and column, and
/// the database file stays byte for byte as it was (regression: typed row subscripts crashed).
@Suite("Migration ledger: tampered values")
struct LedgerTamperingTests {
    static let migrator = SQLiteMigrator(
        model: "Notes",
        migrations: [
            StrataMigration(version: 1, sql: #"CREATE TABLE "note" ("id" INTEGER PRIMARY KEY);"#, checksum: "c1"),
            StrataMigration(version: 2, sql: #"ALTER TABLE "note" ADD COLUMN "text" TEXT;"#, checksum: "c2"),
        ])

    /// A database file at v1 whose ledger row is then changed by `tamper`.
    static func tamperedFile(_ tamper: String) throws -> String {
        let path = TestScratch.path("ledger", suffix: ".sqlite").path
        let queue = try DatabaseQueue(path: path)
        _ = try migrator.migrate(queue, to: 1)
        try queue.write { db in try db.execute(sql: tamper) }
        try queue.close()
        return path
    }

    @Test(
        "a value of another type is refused with its row and column, and nothing is written",
        arguments: [
            (#"UPDATE "strata_migrations" SET "applied_at" = 'yesterday'"#, "applied_at", "the text 'yesterday'"),
            (#"UPDATE "strata_migrations" SET "version" = 'two'"#, "version", "the text 'two'"),
            (#"UPDATE "strata_migrations" SET "version" = 1e30"#, "version", "the real 1e+30"),
            (#"UPDATE "strata_migrations" SET "checksum" = X'00FF'"#, "checksum", "a blob of 2 bytes"),
            (#"UPDATE "strata_migrations" SET "model" = X'4E6F746573'"#, "model", "a blob of 5 bytes"),
        ])
    func refusesTamperedValues(tamper: String, column: String, found: String) throws {
        let path = try Self.tamperedFile(tamper)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let queue = try DatabaseQueue(path: path)
        #expect {
            _ = try Self.migrator.migrate(queue)
        } throws: { error in
            guard case .unreadableLedger(let row, let reported, let value) = error as? StrataMigrationError else { return false }
            return row == 1 && reported == column && value == found
        }
        #expect(throws: StrataMigrationError.self) { _ = try Self.migrator.currentVersion(in: queue) }
        try queue.close()
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    @Test("a table by the ledger's name without its columns is refused, and nothing is written")
    func refusesAnotherTable() throws {
        let path = try Self.tamperedFile(
            #"DROP TABLE "strata_migrations"; CREATE TABLE "strata_migrations" ("something" TEXT)"#)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let queue = try DatabaseQueue(path: path)
        #expect {
            _ = try Self.migrator.migrate(queue)
        } throws: { error in
            guard case .unreadableLedgerTable = error as? StrataMigrationError else { return false }
            return "\(error)".contains("no such column")
        }
        try queue.close()
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }
}
