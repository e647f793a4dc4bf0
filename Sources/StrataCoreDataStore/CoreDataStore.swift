import GRDB

/// A Core Data SQLite store, opened read-only: its entity numbers (`Z_PRIMARYKEY`), its UUID
/// (`Z_METADATA`) and the columns of its tables.
struct CoreDataStore {
    /// The store's connection (read-only).
    let queue: DatabaseQueue
    /// `Z_ENT` of each entity, by name.
    let entityNumbers: [String: Int64]
    /// The store's `Z_UUID`.
    let uuid: String
    /// The columns of every table, upper-cased, by upper-cased table name.
    let columns: [String: Set<String>]

    /// Opens the store at `path` read-only (a WAL store's `-wal` file is read too); throws
    /// ``CoreDataStoreImportError`` when it is not a Core Data SQLite store.
    init(path: String) throws {
        var configuration = Configuration()
        configuration.readonly = true
        do {
            queue = try DatabaseQueue(path: path, configuration: configuration)
            let tables = try queue.read { db in
                try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'")
            }
            var columns: [String: Set<String>] = [:]
            try queue.read { db in
                for table in tables {
                    columns[table.uppercased()] = Set(try db.columns(in: table).map { $0.name.uppercased() })
                }
            }
            self.columns = columns
            guard columns["Z_PRIMARYKEY"] != nil, columns["Z_METADATA"] != nil else {
                throw CoreDataStoreImportError.notACoreDataStore(
                    path: path, reason: "it has no Z_PRIMARYKEY and Z_METADATA tables")
            }
            let rows = try queue.read { db in try Row.fetchAll(db, sql: "SELECT Z_ENT, Z_NAME FROM Z_PRIMARYKEY") }
            var numbers: [String: Int64] = [:]
            for row in rows {
                if let name: String = row["Z_NAME"], let number: Int64 = row["Z_ENT"] { numbers[name] = number }
            }
            entityNumbers = numbers
            uuid = try queue.read { db in try String.fetchOne(db, sql: "SELECT Z_UUID FROM Z_METADATA LIMIT 1") } ?? ""
        } catch let error as CoreDataStoreImportError {
            throw error
        } catch let error as DatabaseError {
            throw CoreDataStoreImportError.notACoreDataStore(path: path, reason: error.message ?? "\(error)")
        }
    }

    /// `Z<NAME>`: the table of an entity, or the column of a property.
    static func zName(_ name: String) -> String { "Z" + name.uppercased() }
}
