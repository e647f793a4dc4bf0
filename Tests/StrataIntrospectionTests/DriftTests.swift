import Foundation
import GRDB
import StrataCore
import StrataIntrospection
import StrataSQLite
import StrataTestSupport
import Testing

/// `strata drift`: a database migrated by Strata, then changed by hand (an index, a column), is
/// reported with exit status 1 naming the change; untouched, it exits 0; a database without a
/// ledger is a clear error (exit 2). On SQLite and on a real PostgreSQL server, through the
/// executable, and through ``DriftCheck`` directly.
@Suite(.serialized) struct DriftTests {
    /// `strata` with `arguments` and the repository's MyTODO model.
    static func strata(_ arguments: [String]) throws -> CLI.Result {
        try CLI.strata(arguments + ["--schemas", Models.schemas])
    }

    @Test func aSQLiteDatabaseChangedByHandHasDrifted() throws {
        let folder = try TestDatabases.folder()
        let path = folder.appendingPathComponent("app.sqlite").path
        let migrated = try Self.strata(["migrate", "--database", path])
        #expect(migrated.status == 0, "\(migrated.stderr)")

        let clean = try Self.strata(["drift", "--database", path])
        #expect(clean.status == 0, "\(clean.stdout)\(clean.stderr)")
        #expect(clean.stdout.contains("no drift: the schema is MyTODO v3's"), "\(clean.stdout)")

        let queue = try DatabaseQueue(path: path)
        try queue.write { try $0.execute(sql: "CREATE INDEX hand_made ON todo_item (title)") }
        let index = try Self.strata(["drift", "--database", path])
        #expect(index.status == 1, "\(index.stdout)\(index.stderr)")
        #expect(index.stdout.contains("drifted from MyTODO v3 (1 difference)"), "\(index.stdout)")
        #expect(index.stdout.contains(#"table "todo_item": index "hand_made" not expected"#), "\(index.stdout)")

        try queue.write { try $0.execute(sql: "DROP INDEX hand_made; ALTER TABLE todo_item ADD COLUMN note TEXT") }
        let json = try Self.strata(["drift", "--database", path, "--format", "json"])
        #expect(json.status == 1)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(object["drifted"] as? Bool == true && object["version"] as? Int == 3)
        let differences = object["differences"] as? [String] ?? []
        #expect(differences.count == 1 && differences.first?.contains("note") == true, "\(differences)")

        // The library call says the same.
        let history = try Models.load("MyTODO", in: Models.schemas)
        let report = try queue.read { try DriftCheck.check($0, history: history) }
        #expect(report.version == 3 && report.hasDrifted && report.dialect == .sqlite)
    }

    @Test func aSQLiteDatabaseWithoutALedgerIsAClearError() throws {
        let folder = try TestDatabases.folder()
        let path = try TestDatabases.sqliteDatabase("CREATE TABLE todo_item (id BLOB PRIMARY KEY)", in: folder)
        let result = try Self.strata(["drift", "--database", path])
        #expect(result.status == 2)
        #expect(result.stderr.contains("has no migration ledger (strata_migrations) with versions of MyTODO"), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
        let missing = try Self.strata(["drift", "--database", folder.appendingPathComponent("none.sqlite").path])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("no such database file"), "\(missing.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("none.sqlite").path))
        let history = try Models.load("MyTODO", in: Models.schemas)
        #expect(throws: DriftError.self) { try DatabaseQueue(path: path).read { try DriftCheck.check($0, history: history) } }
    }

    @Test func aPostgreSQLDatabaseChangedByHandHasDrifted() async throws {
        let server = try await TestPostgresServer.forTest()
        try await server.withDatabase { session in
            let url = session.url.description
            let none = try Self.strata(["drift", "--postgres", url])
            #expect(none.status == 2)
            #expect(none.stderr.contains("has no migration ledger"), "\(none.stderr)")

            let migrated = try Self.strata(["migrate", "--postgres", url])
            #expect(migrated.status == 0, "\(migrated.stderr)")
            let clean = try Self.strata(["drift", "--postgres", url])
            #expect(clean.status == 0, "\(clean.stdout)\(clean.stderr)")

            try await session.executeScript("CREATE INDEX hand_made ON todo_item (title)")
            let index = try Self.strata(["drift", "--postgres", url])
            #expect(index.status == 1, "\(index.stdout)\(index.stderr)")
            #expect(index.stdout.contains(#"index "hand_made" not expected"#), "\(index.stdout)")

            try await session.executeScript("DROP INDEX hand_made; ALTER TABLE todo_item ALTER COLUMN title DROP DEFAULT")
            let column = try Self.strata(["drift", "--postgres", url])
            #expect(column.status == 1, "\(column.stdout)\(column.stderr)")
            #expect(column.stdout.contains(#"column "title""#), "\(column.stdout)")

            let history = try Models.load("MyTODO", in: Models.schemas)
            let report = try await DriftCheck.check(session, history: history)
            #expect(report.version == 3 && report.dialect == .postgres && report.differences.count == 1, "\(report.differences)")
        }
    }
}
