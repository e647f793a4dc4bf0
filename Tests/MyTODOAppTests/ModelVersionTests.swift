import Foundation
import MyTODO
import MyTODOV1
import StrataRuntime
import Testing

/// The test the tutorial promised and never showed: a store written by the v1 app, opened by
/// the v3 app. `MyTODOV1` is the code Strata generates from `Schemas/MyTODO/v1.yaml` alone: the
/// app as it shipped at version 1.
@Suite("TODO app: a v1 database opened by v3 code")
struct ModelVersionTests {
    private func temporaryDatabasePath() throws -> (folder: URL, path: String) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mytodo-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return (folder, folder.appendingPathComponent("MyTODO.sqlite").path)
    }

    @Test("rows written by v1 code read back with v3 types: isDone false, priority middle")
    func v1DatabaseOpensWithV3Code() throws {
        let (folder, path) = try temporaryDatabasePath()
        defer { try? FileManager.default.removeItem(at: folder) }

        let written: [MyTODOV1.TODOItem]
        do {
            let v1 = try MyTODOV1.MyTODODatabase(path: path)
            written = try v1.todoItems.insert(contentsOf: [
                MyTODOV1.TODOItem(title: "Buy milk", detail: "2 bottles"),
                MyTODOV1.TODOItem(title: "Call Bob", detail: ""),
            ])
            #expect(try MyTODOV1.MyTODODatabase.migrator.currentVersion(in: v1.writer) == 1)
        }

        let v3 = try MyTODO.MyTODODatabase(path: path)
        #expect(try MyTODO.MyTODODatabase.migrator.currentVersion(in: v3.writer) == 3)
        let items = try v3.todoItems.fetchAll(orderBy: { [$0.title.ascending] })
        #expect(
            items
                == written.map { old in
                    MyTODO.TODOItem(id: old.id, title: old.title, detail: old.detail, isDone: false, priority: .middle)
                }
        )
        // The v3 app goes on using the migrated store.
        let sorted = try v3.todoItems.fetchAll(
            where: { $0.isDone == false },
            orderBy: { [$0.priority.descending, $0.title.ascending] }
        )
        #expect(sorted.count == 2)
        try v3.todoItems.update(items[0], isDone: true, priority: .highest)
        #expect(try v3.todoItems.count(where: { $0.isDone == true && $0.priority == .highest }) == 1)
    }

    @Test("the v1 app refuses the database once v3 migrated it, and leaves it untouched")
    func v1CodeRefusesNewerDatabase() throws {
        let (folder, path) = try temporaryDatabasePath()
        defer { try? FileManager.default.removeItem(at: folder) }
        _ = try MyTODO.MyTODODatabase(path: path)
        #expect(
            throws: StrataMigrationError.databaseIsNewer(model: "MyTODO", databaseVersion: 3, latestKnownVersion: 1)
        ) {
            _ = try MyTODOV1.MyTODODatabase(path: path)
        }
        #expect(try MyTODO.MyTODODatabase(path: path).todoItems.count() == 0)
    }

    @Test("MyTODOV1 is generated from the same v1.yaml as the app's history")
    func v1FixtureMatchesSchema() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let shipped = try String(contentsOf: root.appendingPathComponent("Schemas/MyTODO/v1.yaml"), encoding: .utf8)
        let fixture = try String(
            contentsOf: root.appendingPathComponent("Tests/MyTODOV1/Schemas/MyTODO/v1.yaml"),
            encoding: .utf8
        )
        #expect(fixture == shipped)
        // The same migration as the ledger sees it: version, checksum, statements. (MyTODO is built by
        // the plugin, MyTODOV1 committed from `strata generate`: their headers name different commands.)
        let v1 = try #require(MyTODOV1.MyTODOMigrations.all.first)
        let app = try #require(MyTODO.MyTODOMigrations.all.first)
        func statements(_ sql: String) -> [Substring] { sql.split(separator: "\n").filter { !$0.hasPrefix("--") } }
        #expect(v1.version == app.version)
        #expect(v1.checksum == app.checksum)
        #expect(statements(v1.sql) == statements(app.sql))
    }
}
