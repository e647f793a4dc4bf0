import Foundation
import GRDB
import GRDBSQLite

/// A Core Data SQLite store, opened read-only: its entity numbers (`Z_PRIMARYKEY`), its UUID
/// (`Z_METADATA`), and the columns (with their declared types) and indexes of its tables.
///
/// A store in WAL mode is read from a private copy of the store and its `-wal` file (in the
/// temporary folder, removed by ``close()``), so that rows not yet checkpointed are read, a
/// read-only store or folder can be read, and nothing is ever created or changed beside the store.
final class CoreDataStore {
    /// The store's connection (read-only).
    let queue: DatabaseQueue
    /// `Z_ENT` of each entity, by name.
    let entityNumbers: [String: Int64]
    /// The parent (`Z_SUPER`) of each entity that has one, by name.
    let parents: [String: String]
    /// The store's `Z_UUID`.
    let uuid: String
    /// The declared type (upper-cased) of every column (upper-cased), by upper-cased table name.
    let columns: [String: [String: String]]
    /// The columns of every index made with CREATE INDEX, by upper-cased table name.
    let indexes: [String: Set<[String]>]
    /// The private copy of a WAL store, if any.
    private let copy: String?

    /// The file the rows are read from: the store, or its private copy.
    let readPath: String

    /// Opens the store at `path` read-only (a WAL store's `-wal` file is read too); throws
    /// ``CoreDataStoreImportError`` when it is not a Core Data SQLite store.
    init(path: String) throws {
        guard FileManager.default.isReadableFile(atPath: path) else {
            throw CoreDataStoreImportError.notACoreDataStore(
                path: path,
                reason: FileManager.default.fileExists(atPath: path) ? "it cannot be read" : "there is no such file")
        }
        copy = try Self.privateCopy(of: path)
        readPath = copy ?? path
        var configuration = Configuration()
        configuration.readonly = copy == nil  // the private copy may be written: it is read in WAL mode
        do {
            queue = try DatabaseQueue(path: copy ?? path, configuration: configuration)
            var columns: [String: [String: String]] = [:]
            var indexes: [String: Set<[String]>] = [:]
            try queue.read { db in
                let tables = try String.fetchAll(
                    db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
                for table in tables {
                    var declared: [String: String] = [:]
                    for column in try db.columns(in: table) {
                        declared[column.name.uppercased()] = column.type.uppercased()
                    }
                    columns[table.uppercased()] = declared
                    for index in try db.indexes(on: table) where !index.name.hasPrefix("sqlite_autoindex") {
                        indexes[table.uppercased(), default: []].insert(index.columns.map { $0.uppercased() })
                    }
                }
            }
            self.columns = columns
            self.indexes = indexes
            guard columns["Z_PRIMARYKEY"] != nil, columns["Z_METADATA"] != nil else {
                throw CoreDataStoreImportError.notACoreDataStore(
                    path: path, reason: "it has no Z_PRIMARYKEY and Z_METADATA tables")
            }
            let rows = try queue.read { db in
                try Row.fetchAll(db, sql: "SELECT Z_ENT, Z_NAME, Z_SUPER FROM Z_PRIMARYKEY")
            }
            var numbers: [String: Int64] = [:]
            var names: [Int64: String] = [:]
            for row in rows {
                if let name: String = row["Z_NAME"], let number: Int64 = row["Z_ENT"] {
                    numbers[name] = number
                    names[number] = name
                }
            }
            var parents: [String: String] = [:]
            for row in rows {
                if let name: String = row["Z_NAME"], let parent: Int64 = row["Z_SUPER"], parent != 0 {
                    parents[name] = names[parent] ?? "#\(parent)"
                }
            }
            entityNumbers = numbers
            self.parents = parents
            uuid = try queue.read { db in try String.fetchOne(db, sql: "SELECT Z_UUID FROM Z_METADATA LIMIT 1") } ?? ""
        } catch let error as CoreDataStoreImportError {
            Self.remove(copy)
            throw error
        } catch let error as DatabaseError {
            Self.remove(copy)
            throw CoreDataStoreImportError.notACoreDataStore(path: path, reason: error.message ?? "\(error)")
        } catch {
            Self.remove(copy)
            throw error
        }
    }

    deinit { Self.remove(copy) }

    /// Closes the store and removes its private copy.
    func close() {
        try? queue.close()
        Self.remove(copy)
    }

    /// Attaches the store to `db` as `schema`, read-only, so that rows are copied by SQL
    /// (`INSERT … SELECT`) without passing through Swift; false when it cannot be attached
    /// read-only (a SQLite built without URI filenames, for a store that is not a private copy):
    /// the caller then reads rows through ``queue``. Outside a transaction only.
    func attach(to db: Database, as schema: String) throws -> Bool {
        let file: String
        if copy != nil {
            file = readPath  // the private copy: never the user's file
        } else if sqlite3_compileoption_used("USE_URI") == 1 {
            file = "file:" + Self.uriPath(readPath) + "?mode=ro"
        } else {
            return false
        }
        try db.execute(sql: "ATTACH DATABASE ? AS \(schema)", arguments: [file])
        return true
    }

    /// `path` as the path of a `file:` URI: `%`, `?` and `#` percent-encoded.
    static func uriPath(_ path: String) -> String {
        var out = ""
        for character in path.unicodeScalars {
            switch character {
            case "%": out += "%25"
            case "?": out += "%3f"
            case "#": out += "%23"
            default: out.unicodeScalars.append(character)
            }
        }
        return out
    }

    /// `Z<NAME>`: the table of an entity, or the column of a property.
    static func zName(_ name: String) -> String { "Z" + name.uppercased() }

    /// For a store in WAL mode (bytes 18 and 19 of its header are 2): a copy of it and its `-wal`
    /// file in a new folder of the temporary directory; nil otherwise.
    private static func privateCopy(of path: String) throws -> String? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        let header = (try? handle.read(upToCount: 20)) ?? Data()
        try? handle.close()
        guard header.count == 20, header.starts(with: Data("SQLite format 3".utf8)),
            header[header.startIndex + 18] == 2 || header[header.startIndex + 19] == 2
        else { return nil }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "strata-store-\(UUID().uuidString)")
        let copy = folder.appendingPathComponent("store.sqlite").path
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: path, toPath: copy)
            if FileManager.default.fileExists(atPath: path + "-wal") {
                try FileManager.default.copyItem(atPath: path + "-wal", toPath: copy + "-wal")
            }
            // A read-only store's copies are read-only too: make them the copy's own.
            for file in [copy, copy + "-wal"] where FileManager.default.fileExists(atPath: file) {
                try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file)
            }
        } catch {
            remove(copy)
            throw CoreDataStoreImportError.notACoreDataStore(
                path: path, reason: "it is a WAL store and cannot be copied to be read: \(error.localizedDescription)")
        }
        return copy
    }

    private static func remove(_ copy: String?) {
        guard let copy else { return }
        try? FileManager.default.removeItem(atPath: (copy as NSString).deletingLastPathComponent)
    }
}
