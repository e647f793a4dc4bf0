import Foundation
import GRDB
import StrataSQLite
import StrataStorage

/// Moves the rows of a Core Data SQLite store into a new Strata database, once: what an app that
/// adopts Strata calls on first launch, and what `strata import coredata-store` runs.
///
/// ```swift
/// let mapping = try Data(contentsOf: Bundle.main.url(forResource: "coredata-mapping", withExtension: "json")!)
/// let importer = try CoreDataStoreImporter(mappingJSON: mapping, migrator: MyTODODatabase.migrator)
/// try importer.importStore(at: storeURL.path, intoDatabaseAt: databaseURL.path)
/// let database = try MyTODODatabase(path: databaseURL.path)
/// ```
///
/// The store is opened read-only (its `-wal` file included) and never written. Its version is
/// worked out from its tables and columns; its rows are copied into a database at that version
/// in one transaction, which is then migrated to the latest version. The database is built next
/// to `path` and moved there only when everything succeeded: all rows or none. A second call,
/// once the database exists, does nothing and says so.
public struct CoreDataStoreImporter: Sendable {
    /// What the import did.
    public enum Outcome: Equatable, Sendable {
        /// The rows were moved: the store was at `version`; `rows` rows were copied.
        case imported(version: Int, rows: Int)
        /// The database already holds the rows of a store (imported at `version`): nothing was done.
        case alreadyImported(version: Int)
    }

    /// The table that records the import in the new database.
    public static let markerTable = "strata_coredata_import"

    /// The mapping `strata import coredata` wrote (`coredata-mapping.json`).
    public let mapping: CoreDataMapping
    /// The model's migrator (the generated `<Model>Database.migrator`).
    public let migrator: StrataMigrator

    /// Creates an importer.
    public init(mapping: CoreDataMapping, migrator: StrataMigrator) {
        self.mapping = mapping
        self.migrator = migrator
    }

    /// Creates an importer from the text of `coredata-mapping.json`.
    public init(mappingJSON: Data, migrator: StrataMigrator) throws {
        self.init(mapping: try JSONDecoder().decode(CoreDataMapping.self, from: mappingJSON), migrator: migrator)
    }

    /// The version a store is at; throws when it matches no version of the model.
    public func storeVersion(at storePath: String) throws -> Int {
        try CoreDataStoreLayout.version(of: try CoreDataStore(path: storePath), mapping: mapping, path: storePath).version
    }

    /// Moves the rows of the store at `storePath` into a new Strata database at `path`.
    @discardableResult
    public func importStore(at storePath: String, intoDatabaseAt path: String) throws -> Outcome {
        if FileManager.default.fileExists(atPath: path) {
            if let version = try Self.importedVersion(model: mapping.model, databaseAt: path) { return .alreadyImported(version: version) }
            throw CoreDataStoreImportError.copyFailed("'\(path)' already exists and holds no imported store: the rows go into a new database")
        }
        let store = try CoreDataStore(path: storePath)
        let version = try CoreDataStoreLayout.version(of: store, mapping: mapping, path: storePath)
        let building = path + ".importing"
        Self.remove(building)
        do {
            let queue = try DatabaseQueue(path: building)
            try migrator.migrate(queue, to: version.version)
            var copy = CoreDataStoreCopy(store: store, version: version)
            let rows = try queue.writeWithoutTransaction { db in
                try db.execute(sql: "PRAGMA foreign_keys = OFF")
                defer { try? db.execute(sql: "PRAGMA foreign_keys = ON") }
                var rows = 0
                try db.inTransaction {
                    rows = try copy.run(into: db)
                    try db.execute(
                        sql: """
                            CREATE TABLE "\(Self.markerTable)" ("model" TEXT NOT NULL PRIMARY KEY, "store_uuid" TEXT NOT NULL, \
                            "version" INTEGER NOT NULL, "rows" INTEGER NOT NULL, "imported_at" REAL NOT NULL)
                            """)
                    try db.execute(
                        sql: "INSERT INTO \"\(Self.markerTable)\" VALUES (?, ?, ?, ?, ?)",
                        arguments: [mapping.model, store.uuid, version.version, rows, Date().timeIntervalSince1970])
                    try db.checkForeignKeys()
                    return .commit
                }
                return rows
            }
            try migrator.migrate(queue)
            try queue.close()
            try FileManager.default.moveItem(atPath: building, toPath: path)
            return .imported(version: version.version, rows: rows)
        } catch let error as CoreDataStoreImportError {
            Self.remove(building)
            throw error
        } catch {
            Self.remove(building)
            throw CoreDataStoreImportError.copyFailed("\(error)")
        }
    }

    /// The version a database's imported store was at; nil when it holds no imported store.
    static func importedVersion(model: String, databaseAt path: String) throws -> Int? {
        var configuration = Configuration()
        configuration.readonly = true
        let queue = try DatabaseQueue(path: path, configuration: configuration)
        return try queue.read { db in
            guard try db.tableExists(markerTable) else { return nil }
            return try Int.fetchOne(db, sql: "SELECT version FROM \"\(markerTable)\" WHERE model = ?", arguments: [model])
        }
    }

    private static func remove(_ path: String) {
        for suffix in ["", "-wal", "-shm", "-journal"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }
}
