import Foundation
import GRDB
import StrataCoreDataStore
import StrataSQLite
import StrataTestSupport
import Testing

/// Moving the rows of the TODO app's Core Data store into a Strata database, with the runtime API
/// an app calls on first launch (`CoreDataStoreImporter`) and the generated MyTODO code imported
/// from the app's Core Data model.
@Suite struct CoreDataStoreImportTests {
    static let stores = ImportedCoreDataModelTests.root.appendingPathComponent("Tests/Fixtures/CoreData/Stores")

    let folder: URL
    let importer: CoreDataStoreImporter

    init() throws {
        folder = TestScratch.path("strata-store")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let mapping = try Data(
            contentsOf: ImportedCoreDataModelTests.folder.appendingPathComponent("Schemas/MyTODO/coredata-mapping.json")
        )
        importer = try CoreDataStoreImporter(mappingJSON: mapping, migrator: MyTODODatabase.migrator)
    }

    /// Builds the store a fixture script describes (the layout Core Data writes).
    private func store(_ script: String, wal: Bool = false) throws -> String {
        let path = folder.appendingPathComponent("\(script).sqlite").path
        let sql = try String(contentsOf: Self.stores.appendingPathComponent("\(script).sql"), encoding: .utf8)
        if wal {
            // The rows stay in the -wal file: copy the three files while the writer is still open.
            let pool = try DatabasePool(path: folder.appendingPathComponent("writer.sqlite").path)
            try pool.write { db in try db.execute(sql: sql) }
            for suffix in ["", "-wal", "-shm"] {
                try FileManager.default.copyItem(
                    atPath: folder.appendingPathComponent("writer.sqlite").path + suffix, toPath: path + suffix)
            }
            try pool.close()
        } else {
            try DatabaseQueue(path: path).write { db in try db.execute(sql: sql) }
        }
        return path
    }

    private var database: String { folder.appendingPathComponent("MyTODO.sqlite").path }

    @Test func everyRowAndValueOfAV2StoreMovesAndIsMigratedToV3() throws {
        let store = try store("MyTODO-2")
        let before = try Data(contentsOf: URL(fileURLWithPath: store))
        #expect(try importer.storeVersion(at: store) == 2)
        #expect(try importer.importStore(at: store, intoDatabaseAt: database) == .imported(version: 2, rows: 3))
        #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == before, "the store was written")

        let todo = try MyTODODatabase(path: database)
        let items = try todo.cdtodoItems.fetchAll(orderBy: { [$0.title.ascending] })
        #expect(
            items == [
                CDTODOItem(
                    id: try #require(UUID(uuidString: "6F1C3A2E-5B7D-4C8E-9A0B-1C2D3E4F5061")),
                    detail: "Milk, eggs, bread", isDone: true,
                    priority: 2, title: "Buy groceries"),
                CDTODOItem(
                    id: try #require(UUID(uuidString: "FFEEDDCC-BBAA-4988-9776-655443322110")), detail: "",
                    isDone: false, priority: 2,
                    title: "Call the plumber"),
                CDTODOItem(
                    id: try #require(UUID(uuidString: "0A1B2C3D-4E5F-4071-8293-A4B5C6D7E8F9")),
                    detail: "Chapter 3: \"the importer\" — with ümlauts", isDone: false, priority: 2,
                    title: "Write the book"),
            ])
        #expect(try MyTODODatabase.migrator.currentVersion(in: todo.writer) == 3)

        // A second call does nothing, and says so.
        #expect(try importer.importStore(at: store, intoDatabaseAt: database) == .alreadyImported(version: 2))
        #expect(try todo.cdtodoItems.count() == 3)
    }

    @Test func theGeneratedDatabaseImportsTheStoreOnFirstLaunch() throws {
        let store = try store("MyTODO-2")
        let todo = try MyTODODatabase(path: database)
        #expect(try todo.importCoreDataStore(at: URL(fileURLWithPath: store)) == .imported(version: 2, rows: 3))
        #expect(
            try todo.cdtodoItems.fetchAll(orderBy: { [$0.title.ascending] }).map(\.title) == [
                "Buy groceries", "Call the plumber", "Write the book",
            ])
        #expect(try todo.cdtodoItems.fetchAll().map(\.priority) == [2, 2, 2])
        // A later launch: nothing to do.
        #expect(try todo.importCoreDataStore(at: URL(fileURLWithPath: store)) == .alreadyImported(version: 2))
        #expect(try todo.cdtodoItems.count() == 3)
        // A database that already has rows of its own is refused, untouched.
        let other = try MyTODODatabase.inMemory()
        try other.cdtodoItems.insert(CDTODOItem(title: "mine"))
        #expect(throws: CoreDataStoreImportError.self) {
            try other.importCoreDataStore(at: URL(fileURLWithPath: store))
        }
        #expect(try other.cdtodoItems.count() == 1)
        // A store of another model leaves the database empty.
        let empty = try MyTODODatabase.inMemory()
        #expect(throws: CoreDataStoreImportError.self) {
            try empty.importCoreDataStore(at: URL(fileURLWithPath: try self.store("OtherModel")))
        }
        #expect(try empty.cdtodoItems.count() == 0)
    }

    @Test func aV1StoreGetsTheDefaultsOfLaterVersions() throws {
        let store = try store("MyTODO-1")
        #expect(try importer.importStore(at: store, intoDatabaseAt: database) == .imported(version: 1, rows: 1))
        let item = try #require(try MyTODODatabase(path: database).cdtodoItems.fetchAll().first)
        #expect(item.title == "An old item")
        #expect(item.isDone == false)
        #expect(item.priority == 2)
    }

    @Test func rowsStillInTheWriteAheadLogAreRead() throws {
        let store = try store("MyTODO-2", wal: true)
        #expect(FileManager.default.fileExists(atPath: store + "-wal"))
        #expect(try importer.importStore(at: store, intoDatabaseAt: database) == .imported(version: 2, rows: 3))
    }

    @Test func aStoreOfAnotherModelOrNotSQLiteIsRefusedAndNothingIsWritten() throws {
        let other = try store("OtherModel")
        #expect {
            try importer.importStore(at: other, intoDatabaseAt: database)
        } throws: { error in
            guard case .unknownLayout(_, let model, let reason) = error as? CoreDataStoreImportError else {
                return false
            }
            return model == "MyTODO" && reason.contains("no entity 'CDTODOItem' in Z_PRIMARYKEY")
        }
        let text = folder.appendingPathComponent("notes.txt")
        try Data("not a database, just text that is long enough to be read as a header".utf8).write(to: text)
        #expect {
            try importer.importStore(at: text.path, intoDatabaseAt: database)
        } throws: { error in
            guard case .notACoreDataStore = error as? CoreDataStoreImportError else { return false }
            return true
        }
        let plain = folder.appendingPathComponent("plain.sqlite").path
        try DatabaseQueue(path: plain).write { db in try db.execute(sql: "CREATE TABLE t (x)") }
        #expect(throws: CoreDataStoreImportError.self) { try importer.importStore(at: plain, intoDatabaseAt: database) }
        #expect(!FileManager.default.fileExists(atPath: database))
        #expect(!FileManager.default.fileExists(atPath: database + ".importing"))
    }

    @Test func aRowThatCannotBeCopiedLeavesNoRowsAtAll() throws {
        let store = try store("MyTODO-2")
        // The third item has no title, which the model requires: the copy fails at its last row.
        var configuration = Configuration()
        configuration.readonly = false
        try DatabaseQueue(path: store, configuration: configuration).write { db in
            try db.execute(sql: "UPDATE ZCDTODOITEM SET ZTITLE = NULL WHERE Z_PK = 3")
        }
        #expect(throws: CoreDataStoreImportError.self) { try importer.importStore(at: store, intoDatabaseAt: database) }
        #expect(!FileManager.default.fileExists(atPath: database))
        #expect(!FileManager.default.fileExists(atPath: database + ".importing"))
        let open = try MyTODODatabase.inMemory()
        #expect(throws: CoreDataStoreImportError.self) { try open.importCoreDataStore(at: URL(fileURLWithPath: store)) }
        #expect(try open.cdtodoItems.count() == 0)
    }

    @Test func aDatabaseThatExistsWithoutAnImportIsNotTouched() throws {
        let store = try store("MyTODO-2")
        let existing = try MyTODODatabase(path: database)
        try existing.cdtodoItems.insert(CDTODOItem(title: "mine"))
        #expect(throws: CoreDataStoreImportError.self) { try importer.importStore(at: store, intoDatabaseAt: database) }
        #expect(try existing.cdtodoItems.fetchAll().map(\.title) == ["mine"])
    }
}
