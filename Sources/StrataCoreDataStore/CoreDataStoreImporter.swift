import Foundation
import GRDB
import StrataCoreDataMapping
import StrataSQLite
import StrataStorage

/// Moves the rows of a Core Data SQLite store into a Strata database, once: what an app that
/// adopts Strata calls on first launch (through the generated `<Model>Database.importCoreDataStore(at:)`
/// of a model imported from Core Data), and what `strata import coredata-store` runs.
///
/// ```swift
/// let database = try MyTODODatabase(path: databasePath)
/// try database.importCoreDataStore(at: storeURL)      // CoreDataStoreImporter(mappingJSON:migrator:) inside
/// ```
///
/// The store is opened read-only (its `-wal` file included) and never written. Its version is
/// recognised from its entities, tables, columns and their types (a store that fits no version,
/// or several alike, is refused); its rows are checked and copied into a scratch database at that
/// version in one transaction, which is then migrated to the latest version, and either moved
/// into place (``importStore(at:intoDatabaseAt:)``) or inserted into an open database in one
/// transaction (``importStore(at:into:)``): all rows or none. A second call does nothing and says so.
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
    public let migrator: SQLiteMigrator
    /// The version to take when a store fits several versions alike (their tables, columns and
    /// indexes are the same: a version that only changed an attribute's optionality or default).
    /// It must be one that the store fits; nil refuses such a store (``CoreDataStoreImportError/ambiguousLayout(path:model:versions:)``).
    public var chosenVersion: Int?

    /// True (the default) copies rows by SQL (`INSERT … SELECT`) from the store attached read-only
    /// to the new database, every row checked by queries first; false reads each row into Swift,
    /// checks it and inserts it, as happens anyway where SQLite cannot attach the store read-only
    /// (built without URI filenames). Both give the same database and the same errors; the first
    /// is several times faster on large stores.
    public var copiesBySQL = true

    /// Creates an importer.
    public init(mapping: CoreDataMapping, migrator: SQLiteMigrator) {
        self.mapping = mapping
        self.migrator = migrator
    }

    /// Creates an importer from the text of `coredata-mapping.json`.
    public init(mappingJSON: Data, migrator: SQLiteMigrator) throws {
        self.init(mapping: try JSONDecoder().decode(CoreDataMapping.self, from: mappingJSON), migrator: migrator)
    }

    /// The version a store is at; throws when it matches no version of the model.
    public func storeVersion(at storePath: String) throws -> Int {
        let store = try CoreDataStore(path: storePath)
        defer { store.close() }
        return try CoreDataStoreLayout.version(of: store, mapping: mapping, path: storePath, chosen: chosenVersion)
            .version.version
    }

    /// Moves the rows of the store at `storePath` into a new Strata database at `path`.
    @discardableResult
    public func importStore(at storePath: String, intoDatabaseAt path: String) throws -> Outcome {
        if FileManager.default.fileExists(atPath: path) {
            let imported: Int?
            do {
                imported = try Self.importedVersion(model: mapping.model, databaseAt: path)
            } catch let error as DatabaseError {
                throw CoreDataStoreImportError.copyFailed(
                    "'\(path)' already exists and cannot be read as a SQLite database (\(error.message ?? "\(error)")): the rows go into a new database"
                )
            }
            if let version = imported {
                return .alreadyImported(version: version)
            }
            throw CoreDataStoreImportError.copyFailed(
                "'\(path)' already exists and holds no imported store: the rows go into a new database")
        }
        let building = path + ".importing"
        let (version, rows) = try build(from: storePath, at: building)
        do {
            try FileManager.default.moveItem(atPath: building, toPath: path)
        } catch {
            Self.remove(building)
            throw CoreDataStoreImportError.copyFailed("cannot move the database into place: \(error)")
        }
        return .imported(version: version, rows: rows)
    }

    /// Moves the rows of the store at `storePath` into the open database behind `writer`, which
    /// must be at the latest version and hold no rows of the model yet (a database the generated
    /// `<Model>Database` has just created): the rows are copied into a scratch database at the
    /// store's version, migrated, then inserted into `writer`'s in one transaction.
    @discardableResult
    public func importStore(at storePath: String, into writer: some DatabaseWriter) throws -> Outcome {
        let latest = mapping.versions.last?.entities.compactMap(\.table) ?? []
        let existing = try writer.read { db -> (imported: Int?, rows: Bool) in
            let imported =
                try db.tableExists(Self.markerTable)
                ? try Int.fetchOne(
                    db, sql: "SELECT version FROM \"\(Self.markerTable)\" WHERE model = ?", arguments: [mapping.model])
                : nil
            let rows = try latest.contains { table in
                try db.tableExists(table)
                    && (try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM \(Self.quoted(table)))") ?? false)
            }
            return (imported, rows)
        }
        if let version = existing.imported { return .alreadyImported(version: version) }
        if existing.rows {
            throw CoreDataStoreImportError.copyFailed(
                "the database already holds rows of \(mapping.model): the store's rows go into an empty database")
        }
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
            "strata-coredata-\(UUID().uuidString).sqlite"
        ).path
        defer { Self.remove(scratch) }
        let (version, rows) = try build(from: storePath, at: scratch)
        do {
            try writer.writeWithoutTransaction { db in
                try db.execute(sql: "ATTACH DATABASE ? AS strata_import", arguments: [scratch])
                defer { try? db.execute(sql: "DETACH DATABASE strata_import") }
                try db.execute(sql: "PRAGMA foreign_keys = OFF")
                defer { try? db.execute(sql: "PRAGMA foreign_keys = ON") }
                try db.inTransaction {
                    for table in latest {
                        let columns = try db.columns(in: table).map { Self.quoted($0.name) }.joined(separator: ", ")
                        try db.execute(
                            sql:
                                "INSERT INTO main.\(Self.quoted(table)) (\(columns)) SELECT \(columns) FROM strata_import.\(Self.quoted(table))"
                        )
                    }
                    try db.execute(
                        sql:
                            "CREATE TABLE main.\"\(Self.markerTable)\" AS SELECT * FROM strata_import.\"\(Self.markerTable)\""
                    )
                    try db.checkForeignKeys()
                    return .commit
                }
            }
        } catch {
            throw CoreDataStoreImportError.copyFailed("\(error)")
        }
        return .imported(version: version, rows: rows)
    }

    /// Builds a database of the store's rows at `path`: at the store's version, copied in one
    /// transaction, migrated to the latest version. Removes it on failure.
    private func build(from storePath: String, at path: String) throws -> (version: Int, rows: Int) {
        let store = try CoreDataStore(path: storePath)
        defer { store.close() }
        let (version, schema) = try CoreDataStoreLayout.version(
            of: store, mapping: mapping, path: storePath, chosen: chosenVersion)
        Self.remove(path)
        do {
            let queue = try DatabaseQueue(path: path)
            try migrator.migrate(queue, to: version.version)
            var copy = CoreDataStoreCopy(store: store, version: version, schema: schema, path: storePath)
            let rows = try queue.writeWithoutTransaction { db in
                // A 16 MiB page cache on this connection of the import's own (SQLite's default is
                // 2 MB): the foreign key check after the copy reads every parent table by key, and
                // the new tables' pages stay in memory until the commit instead of spilling. Files
                // are read memory-mapped (up to 256 MiB): no system call per page.
                try db.execute(sql: "PRAGMA cache_size = -16384")
                try db.execute(sql: "PRAGMA mmap_size = 268435456")
                try db.execute(sql: "PRAGMA foreign_keys = OFF")
                defer { try? db.execute(sql: "PRAGMA foreign_keys = ON") }
                // Read-only: rows are copied by SQL.
                if copiesBySQL, try store.attach(to: db, as: Self.storeSchema) {
                    copy.attached = Self.storeSchema
                    try db.execute(sql: "PRAGMA \(Self.storeSchema).mmap_size = 268435456")
                }
                defer { if copy.attached != nil { try? db.execute(sql: "DETACH DATABASE \(Self.storeSchema)") } }
                var rows = 0
                try db.inTransaction {
                    // Every reference is checked by the copy (foreign keys, each violation named).
                    rows = try copy.run(into: db)
                    try db.execute(
                        sql: """
                            CREATE TABLE "\(Self.markerTable)" ("model" TEXT NOT NULL PRIMARY KEY, "store_uuid" TEXT NOT NULL, \
                            "version" INTEGER NOT NULL, "rows" INTEGER NOT NULL, "imported_at" REAL NOT NULL)
                            """)
                    try db.execute(
                        sql: "INSERT INTO \"\(Self.markerTable)\" VALUES (?, ?, ?, ?, ?)",
                        arguments: [mapping.model, store.uuid, version.version, rows, Date().timeIntervalSince1970])
                    return .commit
                }
                return rows
            }
            try migrator.migrate(queue)
            try queue.close()
            return (version.version, rows)
        } catch let error as CoreDataStoreImportError {
            Self.remove(path)
            throw error
        } catch {
            Self.remove(path)
            throw CoreDataStoreImportError.copyFailed("\(error)")
        }
    }

    /// The name the store is attached under while its rows are copied.
    static let storeSchema = "strata_coredata_store"

    /// A quoted SQL identifier.
    static func quoted(_ name: String) -> String { SQLIdentifier.quoted(name) }

    /// The version a database's imported store was at; nil when it holds no imported store.
    static func importedVersion(model: String, databaseAt path: String) throws -> Int? {
        var configuration = Configuration()
        configuration.readonly = true
        let queue = try DatabaseQueue(path: path, configuration: configuration)
        return try queue.read { db in
            guard try db.tableExists(markerTable) else { return nil }
            return try Int.fetchOne(
                db, sql: "SELECT version FROM \"\(markerTable)\" WHERE model = ?", arguments: [model])
        }
    }

    private static func remove(_ path: String) {
        for suffix in ["", "-wal", "-shm", "-journal"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }
}
