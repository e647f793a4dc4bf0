import Foundation
import GRDB
import StrataCore
import StrataCoreDataImport
import StrataCoreDataStore
import StrataSQLite
import StrataTestSupport
import Testing

/// The two ways `CoreDataStoreImporter` copies rows give the same database and the same errors:
/// by SQL from the store attached read-only (`copiesBySQL`, the default), and row by row through
/// Swift (where SQLite cannot attach a store read-only). On the Journal store (a hierarchy in one
/// table, a UUID key attribute that to-ones and join pairs are translated to, an ordered to-many,
/// an ordered many-to-many, a decimal), the Pets store (references and join tables to an abstract
/// entity's concrete entities) and the Accounts store (a generated key beside an `id` attribute).
@Suite struct CoreDataStoreCopyPathsTests {
    let folder: URL
    let importer: CoreDataStoreImporter
    let script: String

    init() throws { try self.init(model: "Journal") }

    init(model: String) throws {
        folder = TestScratch.path("strata-copy-paths")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let fixtures = ImportedCoreDataModelTests.root.appendingPathComponent("Tests/Fixtures/CoreData")
        let schemas = folder.appendingPathComponent("Schemas").path
        _ = try CoreDataImporter.write(
            CoreDataImporter.run(fixtures.appendingPathComponent("\(model).xcdatamodel").path, options: .init()),
            schemas: schemas)
        let (history, _, diagnostics) = SchemaLoader.loadModel(named: model, in: schemas)
        let loaded = try #require(history, "\(diagnostics)")
        let migrator = SQLiteMigrator(
            model: model,
            migrations: MigrationSources.sqlite(for: loaded).map {
                StrataMigration(
                    version: $0.version, sql: $0.sql, checksum: $0.checksum, legacyChecksum: $0.legacyChecksum,
                    dateColumns: $0.dateColumns)
            })
        importer = try CoreDataStoreImporter(
            mappingJSON: Data(contentsOf: URL(fileURLWithPath: schemas + "/\(model)/coredata-mapping.json")),
            migrator: migrator)
        script = try String(
            contentsOf: fixtures.appendingPathComponent("Stores/\(model).sql"), encoding: .utf8)
    }

    /// Imports the Journal store changed by `change` both ways; returns each database's rows, or
    /// the error's description.
    private func importBothWays(_ name: String, change: String = "") throws -> [String] {
        let store = folder.appendingPathComponent("\(name).sqlite").path
        try DatabaseQueue(path: store).write { db in try db.execute(sql: script + change) }
        return try [true, false].map { bySQL in
            var importer = importer
            importer.copiesBySQL = bySQL
            let database = folder.appendingPathComponent("\(name)-\(bySQL).sqlite").path
            do {
                try importer.importStore(at: store, intoDatabaseAt: database)
            } catch {
                #expect(!FileManager.default.fileExists(atPath: database))
                return "\(error)"
            }
            return try DatabaseQueue(path: database).read { db in
                try String.fetchAll(
                    db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'strata_%' ORDER BY name"
                ).map { table in
                    let rows = try Row.fetchAll(db, sql: "SELECT * FROM \"\(table)\" ORDER BY 1, 2")
                    return "\(table): " + rows.map { "\($0)" }.joined(separator: " ")
                }.joined(separator: "\n")
            }
        }
    }

    @Test func everyRowIsTheSameBothWays() throws {
        let results = try importBothWays("journal")
        #expect(results[0] == results[1])
        #expect(results[0].contains("Standup notes"), "\(results[0])")
        #expect(results[0].contains("12.5"), "the decimal as text: \(results[0])")
    }

    @Test(arguments: [("Pets", "\"Ann\""), ("Accounts", "\"mastodon.social\"")])
    func everyRowOfAnotherStoreIsTheSameBothWays(model: String, value: String) throws {
        let results = try Self(model: model).importBothWays(model)
        #expect(results[0] == results[1])
        #expect(results[0].contains(value), "\(results[0])")
    }

    @Test func aReferenceToAnAbstractEntityThatNamesNoObjectStopsBothWays() throws {
        let results = try Self(model: "Pets").importBothWays(
            "pets-bad", change: "UPDATE ZOWNER SET ZFAVORITE = 42 WHERE Z_PK = 2;")
        #expect(results[0] == results[1])
        #expect(results[0].contains("has ZFAVORITE = 42, which names no object of 'Cat', 'Dog'"), "\(results[0])")
    }

    /// The store is attached by a `file:` URI: a path with a space, `?`, `#` and `%` is read, and
    /// nothing is created beside the store.
    @Test func aStorePathWithURICharactersIsReadAndLeftAlone() throws {
        let name = "my store?v=1#2 100%"
        let results = try importBothWays(name)
        #expect(results[0] == results[1])
        #expect(results[0].contains("Standup notes"), "\(results[0])")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix("my store") }
        #expect(files.sorted() == ["\(name)-false.sqlite", "\(name)-true.sqlite", "\(name).sqlite"])
    }

    @Test(
        "a bad row stops both ways with the same error",
        arguments: [
            ("uuid", "UPDATE ZFOLDER SET ZID = X'0102' WHERE Z_PK = 1;", "2-byte value"),
            ("zent", "UPDATE ZENTRY SET Z_ENT = 9 WHERE Z_PK = 2;", "Z_ENT 9"),
            ("to-one", "UPDATE ZENTRY SET ZFOLDER = 7 WHERE Z_PK = 2;", "ZFOLDER = 7"),
            ("pair", "INSERT INTO Z_4LABELS VALUES (2, 9, 0);", "Z_4LABELS"),
        ])
    func aBadRowStopsBothWaysWithTheSameError(name: String, change: String, expected: String) throws {
        let results = try importBothWays(name, change: change)
        #expect(results[0] == results[1])
        #expect(results[0].contains(expected), "\(results[0])")
    }
}
