import Foundation
import GRDB
import StrataCoreDataMapping
import StrataTestSupport
import Testing

/// Every store of the real-world corpus (`../shared/corpus/coredata-stores`, when it exists: CI
/// has it, a clone does not): `strata import coredata` on the model that wrote it, then
/// `strata import coredata-store` on a copy of the store: recognised at the version that wrote it,
/// every entity's rows moved with equal attribute values, every join table's pairs moved.
@Suite struct CoreDataStoreCorpusTests {
    static let corpus = TestPaths.packageRoot.deletingLastPathComponent().appendingPathComponent(
        "shared/corpus/coredata-stores")

    /// A store, the model bundle that wrote it, and the Core Data version it is at.
    struct Case: CustomStringConvertible, Sendable {
        var store: String
        var bundle: String
        var version: String
        var description: String { store }
    }

    static let cases: [Case] = {
        let ddg = "duckduckgo-BrowserServicesKit"
        let bookmarks = "\(ddg)/Sources/Bookmarks/BookmarksModel.xcdatamodeld"
        let jeff = "jeffreybergier-CoreDataMigrationTests/CoreDataMigration"
        let wibosco = "wibosco-CoreDataMigration-Example"
        let wiboscoModel = "\(wibosco)/model/CoreDataMigration_Example.xcdatamodeld"
        var cases = [
            Case(
                store: "bignerdranch-CoreDataStack/Sample Model/Deprecated/TestModel.sqlite",
                bundle: "bignerdranch-CoreDataStack/Sample Model/Deprecated/Sample.xcdatamodeld", version: "TestModel"),
            Case(
                store: "\(ddg)/Tests/DDGSyncTests/Resources/SyncMetadata_V3.sqlite",
                bundle: "\(ddg)/Sources/DDGSync/SyncMetadata.xcdatamodeld", version: "SyncMetadata 3"),
        ]
        for number in 1...5 {
            cases.append(
                Case(
                    store: "\(ddg)/Tests/BookmarksTests/Resources/Bookmarks_V\(number).sqlite", bundle: bookmarks,
                    version: number == 1 ? "BookmarksModel" : "BookmarksModel \(number)"))
        }
        for version in ["v1.0.0", "v1.1.0", "v1.1.2", "v1.2.0", "v2.0.0"] {
            cases.append(
                Case(
                    store: "\(jeff)/CoreDataMigrationTests/Example_\(version).sqlite",
                    bundle: "\(jeff)/CoreDataMigration/Model.xcdatamodeld", version: version))
        }
        for (store, version) in [("1", ""), ("2", " 2"), ("3", " 3"), ("WAL", " 4")] {
            cases.append(
                Case(
                    store: "\(wibosco)/store/CoreDataMigration_Example_\(store).sqlite", bundle: wiboscoModel,
                    version: "CoreDataMigration_Example\(version)"))
        }
        return cases
    }()

    /// A user's clone has no corpus: the tests are then skipped, and said so (`.ci/run`'s corpus
    /// step says so too); CI has it.
    static let corpusIsHere = FileManager.default.fileExists(atPath: corpus.path)

    @Test(.enabled(if: corpusIsHere, "the corpus (../shared/corpus) is not next to this clone"), arguments: cases)
    func theStoreIsRecognisedAndEveryRowMoves(_ item: Case) throws {
        let store = Self.corpus.appendingPathComponent(item.store)
        try #require(FileManager.default.fileExists(atPath: store.path), "the corpus lacks \(item.store)")
        let root = try TestPaths.temporaryFolder()
        let imported = try CLI.strata(
            ["import", "coredata", Self.corpus.appendingPathComponent(item.bundle).path, "--schemas", "Schemas",
             "--model", "Corpus", "--allow-new-required-to-one"], in: root)
        try #require(imported.status == 0, "import coredata: \(imported.stderr)")
        let versionLine = imported.stdout.split(separator: "\n").first {
            $0.hasSuffix(": \(item.version)") || $0.hasSuffix(": \(item.version) (current)")
        }
        let expected = try #require(versionLine?.split(separator: ":").first?.trimmingCharacters(in: .whitespaces))
        for suffix in ["", "-wal"] where FileManager.default.fileExists(atPath: store.path + suffix) {
            try FileManager.default.copyItem(
                atPath: store.path + suffix, toPath: root.appendingPathComponent("store.sqlite").path + suffix)
        }
        let result = try CLI.strata(
            ["import", "coredata-store", "--store", "store.sqlite", "--database", "app.sqlite"], in: root)
        try #require(result.status == 0, "import coredata-store: \(result.stderr)")
        #expect(result.stdout.hasPrefix("Corpus: the store was at \(expected);"), "\(result.stdout)")

        // Every entity's rows, attribute by attribute, and every join table's pairs.
        let mapping = try JSONDecoder().decode(
            CoreDataMapping.self,
            from: Data(contentsOf: root.appendingPathComponent("Schemas/Corpus/\(CoreDataMapping.fileName)")))
        let at = try #require(mapping.versions.first { "v\($0.version)" == expected })
        let latest = try #require(mapping.versions.last)
        let source = try DatabaseQueue(path: root.appendingPathComponent("store.sqlite").path)
        let target = try DatabaseQueue(path: root.appendingPathComponent("app.sqlite").path)
        let numbers = try source.read { db in
            Dictionary(
                try Row.fetchAll(db, sql: "SELECT Z_NAME, Z_ENT FROM Z_PRIMARYKEY").map {
                    ($0[0] as String, $0[1] as Int64)
                }, uniquingKeysWith: { first, _ in first })
        }
        for entity in at.entities {
            guard let now = latest.entities.first(where: { $0.entity == entity.entity }), let table = now.table
            else { continue }
            if let name = entity.coreDataEntity, let root = entity.coreDataRoot, let number = numbers[name] {
                let count = try source.read { db in
                    try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM Z\(root.uppercased()) WHERE Z_ENT = ?", arguments: [number])
                }
                #expect(try target.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \"\(table)\"") } == count, "\(name)")
                for field in entity.fields where field.source == .attribute {
                    guard let property = field.property,
                        let column = now.fields.first(where: { $0.field == field.field && $0.source == .attribute })?.column
                    else { continue }
                    let before = try source.read { db in
                        try DatabaseValue.fetchAll(
                            db, sql: "SELECT Z\(property.uppercased()) FROM Z\(root.uppercased()) WHERE Z_ENT = ?",
                            arguments: [number]
                        ).map { "\($0.storage)" }.sorted()
                    }
                    let after = try target.read { db in
                        try DatabaseValue.fetchAll(db, sql: "SELECT \"\(column)\" FROM \"\(table)\"").map { "\($0.storage)" }
                            .sorted()
                    }
                    #expect(before == after, "\(name).\(property)")
                }
            } else if entity.join != nil {
                let pairs = try target.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \"\(table)\"") }
                let joinTables = try source.read { db in
                    try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name GLOB 'Z_[0-9]*'")
                }
                let stored = try source.read { db in
                    try joinTables.map { try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \($0)") ?? 0 }.reduce(0, +)
                }
                #expect(pairs == stored, "\(entity.entity)")
            }
        }
    }
}
