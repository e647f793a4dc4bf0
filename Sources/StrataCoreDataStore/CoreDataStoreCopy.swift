import GRDB
import StrataStorage

/// Copies every row of a store at one mapping version into a Strata database at that version:
/// `Z_PK` as generated keys, `Z<ATTRIBUTE>` columns (dates, UUIDs, data and booleans are stored
/// as Strata stores them already; decimals become text), to-one relationships as the
/// destination's key, ordered positions from `Z_FOK_<INVERSE>`, and the pairs of many-to-many
/// relationships from their `Z_<n><RELATIONSHIP>` join tables.
struct CoreDataStoreCopy {
    let store: CoreDataStore
    let version: CoreDataMapping.Version

    /// The Strata key of each object, by `Z_PK`, for entities whose key is an attribute.
    private var keys: [String: [Int64: DatabaseValue]] = [:]

    init(store: CoreDataStore, version: CoreDataMapping.Version) {
        self.store = store
        self.version = version
    }

    /// Copies the rows into `db` (inside the caller's transaction); returns how many.
    mutating func run(into db: Database) throws -> Int {
        for entity in version.entities where entity.join != nil && entity.join?.inverse == nil {
            throw CoreDataStoreImportError.unsupported(
                "to-many relationship \(entity.join?.entity ?? "").\(entity.join?.relationship ?? "") has no inverse: its Core Data join table is not read"
            )
        }
        try readKeys()
        var count = 0
        for entity in version.entities {
            if entity.join == nil {
                count += try copyEntity(entity, into: db)
            } else {
                count += try copyJoin(entity, into: db)
            }
        }
        return count
    }

    private func number(_ entity: String) throws -> Int64 {
        guard let number = store.entityNumbers[entity] else {
            throw CoreDataStoreImportError.unsupported("entity '\(entity)' is not in the store's Z_PRIMARYKEY")
        }
        return number
    }

    /// The key of every object of entities whose key is one of their attributes.
    private mutating func readKeys() throws {
        for entity in version.entities {
            guard let name = entity.coreDataEntity, let root = entity.coreDataRoot,
                let key = entity.fields.first, key.source == .attribute, let property = key.property
            else { continue }
            let sql = "SELECT Z_PK, \(CoreDataStore.zName(property)) FROM \(CoreDataStore.zName(root)) WHERE Z_ENT = ?"
            let rows = try store.queue.read { db in try Row.fetchAll(db, sql: sql, arguments: [try number(name)]) }
            var map: [Int64: DatabaseValue] = [:]
            for row in rows {
                if let pk: Int64 = row[0] { map[pk] = row[1] }
            }
            keys[entity.entity] = map
        }
    }

    /// The Strata key of the object `pk` of `entity`.
    private func key(of entity: String, pk: DatabaseValue) -> DatabaseValue {
        guard let map = keys[entity] else { return pk }
        guard let number = Int64.fromDatabaseValue(pk) else { return .null }
        return map[number] ?? .null
    }

    private func copyEntity(_ entity: CoreDataMapping.Entity, into db: Database) throws -> Int {
        guard let name = entity.coreDataEntity, let root = entity.coreDataRoot, let table = entity.table else {
            return 0
        }
        var selected: [String] = []
        for field in entity.fields {
            switch field.source {
            case .primaryKey, .joinSource, .joinDestination: selected.append("Z_PK")
            case .attribute, .toOne: selected.append(CoreDataStore.zName(field.property ?? field.field))
            case .order: selected.append("Z_FOK_" + (field.property ?? "").uppercased())
            }
        }
        let sql =
            "SELECT \(selected.joined(separator: ", ")) FROM \(CoreDataStore.zName(root)) WHERE Z_ENT = ? ORDER BY Z_PK"
        let rows = try store.queue.read { db in try Row.fetchAll(db, sql: sql, arguments: [try number(name)]) }
        let insert = try db.makeStatement(
            sql: insertSQL(table: table, columns: entity.fields.map { $0.column ?? $0.field }))
        for row in rows {
            var values: [DatabaseValue] = []
            for (index, field) in entity.fields.enumerated() {
                let value: DatabaseValue = row[index]
                switch field.source {
                case .toOne: values.append(value.isNull ? .null : key(of: field.type ?? "", pk: value))
                case .order: values.append(value.isNull ? 0.databaseValue : value)
                case .attribute where field.type == "Decimal": values.append(Self.decimalText(value))
                default: values.append(value)
                }
            }
            try insert.execute(arguments: StatementArguments(values))
        }
        return rows.count
    }

    private func copyJoin(_ entity: CoreDataMapping.Entity, into db: Database) throws -> Int {
        guard let join = entity.join, let inverse = join.inverse, let table = entity.table, entity.fields.count >= 2
        else { return 0 }
        let source = try number(join.entity)
        let destination = try number(join.destination)
        let sourceColumn = "Z_\(source)\(inverse.uppercased())"
        let destinationColumn = "Z_\(destination)\(join.relationship.uppercased())"
        let candidates = ["Z_\(source)\(join.relationship.uppercased())", "Z_\(destination)\(inverse.uppercased())"]
        guard
            let joinTable = candidates.first(where: {
                store.columns[$0]?.isSuperset(of: [sourceColumn, destinationColumn]) == true
            })
        else {
            throw CoreDataStoreImportError.unsupported(
                "the store has no join table of \(join.entity).\(join.relationship) (looked for \(candidates.joined(separator: " and ")) with columns \(sourceColumn) and \(destinationColumn))"
            )
        }
        let position = join.ordered ? store.columns[joinTable]?.filter { $0.hasPrefix("Z_FOK_") }.sorted().first : nil
        let sql =
            "SELECT \(sourceColumn), \(destinationColumn)\(position.map { ", \($0)" } ?? "") FROM \(joinTable) ORDER BY 1, 2"
        let rows = try store.queue.read { db in try Row.fetchAll(db, sql: sql) }
        let columns = entity.fields.map { $0.column ?? $0.field }
        let insert = try db.makeStatement(
            sql: insertSQL(table: table, columns: Array(columns.prefix(join.ordered ? 3 : 2))))
        for row in rows {
            var values = [key(of: join.entity, pk: row[0]), key(of: join.destination, pk: row[1])]
            if join.ordered {
                let value: DatabaseValue = position == nil ? .null : row[2]
                values.append(value.isNull ? 0.databaseValue : value)
            }
            try insert.execute(arguments: StatementArguments(values))
        }
        return rows.count
    }

    private func insertSQL(table: String, columns: [String]) -> String {
        let quoted = columns.map(CoreDataStoreImporter.quoted)
        return
            "INSERT INTO \(CoreDataStoreImporter.quoted(table)) (\(quoted.joined(separator: ", "))) VALUES (\(columns.map { _ in "?" }.joined(separator: ", ")))"
    }

    /// A Core Data decimal (stored as a number) as Strata stores a `Decimal`: its text.
    static func decimalText(_ value: DatabaseValue) -> DatabaseValue {
        switch value.storage {
        case .int64(let integer): String(integer).databaseValue
        case .double(let double): "\(double)".databaseValue
        default: value
        }
    }
}
