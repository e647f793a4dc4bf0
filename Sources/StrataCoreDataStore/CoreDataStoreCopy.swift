import GRDB
import StrataCoreDataMapping

/// Copies every row of a store at one mapping version into a Strata database at that version:
/// `Z_PK` as generated keys, attribute columns (dates, UUIDs, data and booleans are stored as
/// Strata stores them already; decimals become text), to-one relationships as the destination's
/// key, ordered positions from `Z_FOK_<INVERSE>`, and the pairs of many-to-many relationships
/// from their join tables; each column found through the version's ``CoreDataStoreSchema``.
///
/// Every row is checked before it is copied (its `Z_ENT` names an entity the version maps; a UUID
/// is 16 bytes), and every entity's row count in the new database is checked against the store's
/// afterwards: a difference throws, and the caller's transaction is rolled back.
struct CoreDataStoreCopy {
    let store: CoreDataStore
    let version: CoreDataMapping.Version
    let schema: CoreDataStoreSchema
    /// The store's path, for messages.
    let path: String

    /// The schema name under which the store is attached to the new database's connection, if it
    /// is: then rows whose values need no change in Swift are copied by `INSERT … SELECT`, after the
    /// same checks as SQL queries; otherwise (or for those that do) they are read through the
    /// store's own connection and inserted one by one.
    var attached: String?

    /// The Strata key of each object, by `Z_PK`, for entities whose key is an attribute (read
    /// when the store is not attached).
    private var keys: [String: [Int64: DatabaseValue]] = [:]
    /// Where the key of each entity whose key is an attribute is in the store: its table, column
    /// and `Z_ENT`.
    private var keySources: [String: (table: String, column: String, number: Int64)] = [:]

    init(store: CoreDataStore, version: CoreDataMapping.Version, schema: CoreDataStoreSchema, path: String) {
        self.store = store
        self.version = version
        self.schema = schema
        self.path = path
    }

    /// Copies the rows into `db` (inside the caller's transaction); returns how many.
    mutating func run(into db: Database) throws -> Int {
        for entity in version.entities where entity.join != nil && entity.join?.inverse == nil {
            throw CoreDataStoreImportError.unsupported(
                "to-many relationship \(entity.join?.entity ?? "").\(entity.join?.relationship ?? "") has no inverse: its Core Data join table is not read"
            )
        }
        try checkEntityNumbers(in: db)
        try readKeys()
        if attached != nil {
            db.add(
                function: DatabaseFunction("strata_decimal_text", argumentCount: 1, pure: true) { values in
                    Self.decimalText(values[0])
                })
        }
        var count = 0
        var pairs: [String: Int] = [:]
        for entity in version.entities {
            if entity.join == nil {
                count += try copyEntity(entity, into: db)
            } else {
                let (table, copied) = try copyJoin(entity, into: db)
                pairs[table, default: 0] += copied
                count += copied
            }
        }
        try checkReferences(in: db)
        for (table, copied) in pairs.sorted(by: { $0.key < $1.key }) {
            let total = try readStore(db) { db, schema in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(schema)\(table)") } ?? 0
            guard total == copied else {
                throw CoreDataStoreImportError.incompleteCopy(
                    path: path,
                    reason:
                        "join table \(table) has \(total) pairs, and \(copied) name objects of the entities v\(version.version) maps"
                )
            }
        }
        return count
    }

    /// Every reference names a copied object: a to-one key or a join table pair that names an
    /// object the store does not have (Core Data does not enforce its keys) is refused, naming it.
    private func checkReferences(in db: Database) throws {
        guard let violation = try db.foreignKeyViolations().next() else { return }
        try describe(violation, in: db)
        // A violation that cannot be told by row: SQLite's own message.
        try db.checkForeignKeys()
    }

    /// Throws the error that names the row of `violation`, when it can be told.
    private func describe(_ violation: ForeignKeyViolation, in db: Database) throws {
        guard let entity = version.entities.first(where: { $0.table == violation.originTable }),
            let rowID = violation.originRowID,
            let row = try Row.fetchOne(
                db, sql: "SELECT * FROM \(CoreDataStoreImporter.quoted(violation.originTable)) WHERE rowid = ?",
                arguments: [rowID])
        else { return }
        let foreignKey = try db.foreignKeys(on: violation.originTable).first { $0.id == violation.foreignKeyId }
        let columns = foreignKey?.originColumns ?? []
        guard let field = entity.fields.first(where: { columns.contains($0.column ?? $0.field) }) else { return }
        let value: DatabaseValue = row[field.column ?? field.field]
        let destination =
            version.entities.first { $0.table == violation.destinationTable }?.entity
            ?? violation.destinationTable
        if let join = entity.join, let (layout, _) = schema.join(of: join.relationship, in: join.entity),
            let table = layout.names.first(where: { store.columns[$0] != nil })
        {
            throw CoreDataStoreImportError.incompleteCopy(
                path: path,
                reason: "a pair of join table \(table) names \(value), \(try missing(value, of: destination))"
            )
        }
        guard let name = entity.coreDataEntity, let property = field.property,
            let key = entity.fields.first, let keyColumn = key.column ?? Optional(key.field)
        else { return }
        let keyValue: DatabaseValue = row[keyColumn]
        let primaryKey =
            key.source == .primaryKey
            ? Int64.fromDatabaseValue(keyValue)
            : keys[entity.entity]?.first(where: { $0.value == keyValue })?.key
        throw CoreDataStoreImportError.invalidRow(
            path: path, table: table(of: name), primaryKey: primaryKey ?? rowID,
            reason:
                "has \(schema.column(of: property, in: name) ?? property) = \(value), \(try missing(value, of: destination))"
        )
    }

    /// Why the `Z_PK` `value` is no object of the Strata entity `entity`: no row of its table has
    /// it, or the row is of another entity of its hierarchy (which the flattened entity cannot hold).
    private func missing(_ value: DatabaseValue, of entity: String, in storeDB: Database? = nil) throws -> String {
        let name = version.entities.first { $0.entity == entity }?.coreDataEntity ?? entity
        let table = table(of: name)
        let sql = "SELECT Z_ENT FROM \(table) WHERE Z_PK = ?"
        let found: Int64? =
            if store.columns[table] == nil {
                nil
            } else if let storeDB {
                try Int64.fetchOne(storeDB, sql: sql, arguments: [value])
            } else {
                try store.queue.read { db in try Int64.fetchOne(db, sql: sql, arguments: [value]) }
            }
        guard let found, let other = store.entityNumbers.first(where: { $0.value == found })?.key, other != name
        else { return "which names no '\(entity)' object of the store" }
        return
            "a '\(other)' object: a reference to '\(entity)' cannot hold it once the hierarchy of '\(schema.root(of: name))' is flattened into a table per concrete entity"
    }

    private func number(_ entity: String) throws -> Int64 {
        guard let number = store.entityNumbers[entity] else {
            throw CoreDataStoreImportError.unsupported("entity '\(entity)' is not in the store's Z_PRIMARYKEY")
        }
        return number
    }

    /// The store table that holds `entity`'s rows.
    private func table(of entity: String) -> String { CoreDataStore.zName(schema.root(of: entity)) }

    /// `body` on the new database's connection when the store is attached to it (its pages read
    /// memory-mapped, in the copy's transaction), or on the store's own; `schema` prefixes the
    /// store's table names (`strata_coredata_store.` or nothing).
    private func readStore<T>(_ db: Database, _ body: (Database, String) throws -> T) throws -> T {
        if let attached { return try body(db, attached + ".") }
        return try store.queue.read { storeDB in try body(storeDB, "") }
    }

    /// Every row of every entity table has a `Z_ENT` of an entity the version maps to a Strata entity.
    private func checkEntityNumbers(in db: Database) throws {
        var mapped: [String: [Int64]] = [:]
        for entity in version.entities {
            guard entity.join == nil, let name = entity.coreDataEntity, let number = store.entityNumbers[name] else {
                continue
            }
            mapped[table(of: name), default: []].append(number)
        }
        let names = Dictionary(store.entityNumbers.map { ($0.value, $0.key) }, uniquingKeysWith: { first, _ in first })
        for table in schema.tables.keys.sorted() {
            let numbers = (mapped[table] ?? []).map(String.init).joined(separator: ", ")
            let invalid = try readStore(db) { db, schema in
                try Row.fetchOne(
                    db,
                    sql: "SELECT Z_PK, Z_ENT FROM \(schema)\(table) WHERE Z_ENT IS NULL"
                        + (numbers.isEmpty ? "" : " OR Z_ENT NOT IN (\(numbers))") + " ORDER BY Z_PK LIMIT 1")
            }
            guard let row = invalid else { continue }
            let primaryKey: Int64 = row[0] ?? 0
            let found: Int64? = row[1]
            let reason: String
            if let found, let name = names[found] {
                reason =
                    schema.entities[name]?.isAbstract == true
                    ? "has Z_ENT \(found), abstract entity '\(name)', which has no rows of its own"
                    : "has Z_ENT \(found), entity '\(name)', which v\(version.version) does not store in \(table)"
            } else {
                reason = "has Z_ENT \(found.map(String.init) ?? "NULL"), which names no entity of the store"
            }
            throw CoreDataStoreImportError.invalidRow(path: path, table: table, primaryKey: primaryKey, reason: reason)
        }
    }

    /// The store column of `property` of `entity`.
    private func column(of property: String, in entity: String) throws -> String {
        guard let column = schema.column(of: property, in: entity) else {
            throw CoreDataStoreImportError.unsupported(
                "property '\(entity).\(property)' has no column in the store's layout at v\(version.version)")
        }
        return column
    }

    /// The key of every object of entities whose key is one of their attributes.
    private mutating func readKeys() throws {
        for entity in version.entities {
            guard let name = entity.coreDataEntity, let key = entity.fields.first, key.source == .attribute,
                let property = key.property
            else { continue }
            let source = (table: table(of: name), column: try column(of: property, in: name), number: try number(name))
            keySources[entity.entity] = source
            // Copied by SQL, the keys are looked up there.
            if attached != nil { continue }
            let sql = "SELECT Z_PK, \(source.column) FROM \(source.table) WHERE Z_ENT = ?"
            let rows = try store.queue.read { db in try Row.fetchAll(db, sql: sql, arguments: [source.number]) }
            var map: [Int64: DatabaseValue] = [:]
            for row in rows {
                if let pk: Int64 = row[0] { map[pk] = row[1] }
            }
            keys[entity.entity] = map
        }
    }

    /// The SQL of the Strata key of the object whose `Z_PK` is `pk` (an expression) of `entity`,
    /// in the attached store: NULL when there is none.
    private func keySQL(of entity: String, pk: String, attached: String) -> String {
        guard let source = keySources[entity] else { return pk }
        return
            "(SELECT strata_key.\(source.column) FROM \(attached).\(source.table) AS strata_key WHERE strata_key.Z_PK = \(pk) AND strata_key.Z_ENT = \(source.number))"
    }

    /// The Strata key of the object `pk` of `entity`.
    private func key(of entity: String, pk: DatabaseValue) -> DatabaseValue {
        guard let map = keys[entity] else { return pk }
        guard let number = Int64.fromDatabaseValue(pk) else { return .null }
        return map[number] ?? .null
    }

    private func copyEntity(_ entity: CoreDataMapping.Entity, into db: Database) throws -> Int {
        guard let name = entity.coreDataEntity, let table = entity.table else { return 0 }
        let source = self.table(of: name)
        var selected: [String] = []
        for field in entity.fields {
            switch field.source {
            case .primaryKey, .joinSource, .joinDestination: selected.append("Z_PK")
            case .attribute, .toOne: selected.append(try column(of: field.property ?? field.field, in: name))
            case .order:
                guard let column = schema.orderColumn(of: field.property ?? "", in: name) else {
                    throw CoreDataStoreImportError.unsupported(
                        "the order of '\(name).\(field.field)' has no Z_FOK_ column in the store's layout at v\(version.version)"
                    )
                }
                selected.append(column)
            }
        }
        let uuids = Set(
            entity.fields.indices.filter { entity.fields[$0].source == .attribute && entity.fields[$0].type == "UUID" })
        // A to-one relationship to an abstract entity with several concrete subentities is one
        // reference per concrete entity: each object's destination goes in the one of its entity.
        let groups = Dictionary(
            grouping: entity.fields.indices.filter { entity.fields[$0].source == .toOne },
            by: { entity.fields[$0].property ?? "" }
        ).values.filter { $0.count > 1 }.map { $0.sorted() }
        var routed: [Int: Int64] = [:]
        for group in groups {
            for index in group { routed[index] = try number(entity.fields[index].type ?? "") }
        }
        if let attached {
            return try copyEntityBySQL(
                entity, name: name, table: table, source: source, selected: selected, uuids: uuids,
                groups: groups, routed: routed, attached: attached, into: db)
        }
        let sql = "SELECT Z_PK, \(selected.joined(separator: ", ")) FROM \(source) WHERE Z_ENT = ? ORDER BY Z_PK"
        let insert = try db.makeStatement(
            sql: insertSQL(table: table, columns: entity.fields.map { $0.column ?? $0.field }))
        let read = try store.queue.read { storeDB -> Int in
            // The entity of every object of the hierarchies routed references lead to, by Z_PK.
            var entityOf: [String: [Int64: Int64]] = [:]
            for index in routed.keys {
                let root = self.table(of: entity.fields[index].type ?? "")
                guard entityOf[root] == nil else { continue }
                var map: [Int64: Int64] = [:]
                let pairs = try Row.fetchCursor(storeDB, sql: "SELECT Z_PK, Z_ENT FROM \(root)")
                while let pair = try pairs.next() {
                    if let pk: Int64 = pair[0], let ent: Int64 = pair[1] { map[pk] = ent }
                }
                entityOf[root] = map
            }
            let rows = try Row.fetchCursor(storeDB, sql: sql, arguments: [try number(name)])
            var read = 0
            var values: [DatabaseValue] = []
            values.reserveCapacity(entity.fields.count)
            while let row = try rows.next() {
                read += 1
                values.removeAll(keepingCapacity: true)
                for (index, field) in entity.fields.enumerated() {
                    let value: DatabaseValue = row[index + 1]
                    if uuids.contains(index) {
                        try checkUUID(value, row: row, table: source, field: "\(name).\(field.field)")
                    }
                    if let wanted = routed[index] {
                        let root = self.table(of: field.type ?? "")
                        let found = Int64.fromDatabaseValue(value).flatMap { entityOf[root]?[$0] }
                        values.append(found == wanted ? key(of: field.type ?? "", pk: value) : .null)
                        continue
                    }
                    switch field.source {
                    case .toOne where value.isNull: values.append(.null)
                    case .toOne:
                        let key = key(of: field.type ?? "", pk: value)
                        if key.isNull {
                            throw CoreDataStoreImportError.invalidRow(
                                path: path, table: source, primaryKey: row[0] ?? 0,
                                reason:
                                    "has \(selected[index]) = \(value), \(try missing(value, of: field.type ?? "", in: storeDB))"
                            )
                        }
                        values.append(key)
                    case .order: values.append(value.isNull ? 0.databaseValue : value)
                    case .attribute where field.type == "Decimal": values.append(Self.decimalText(value))
                    default: values.append(value)
                    }
                }
                for group in groups {
                    let value: DatabaseValue = row[group[0] + 1]
                    if !value.isNull && group.allSatisfy({ values[$0].isNull }) {
                        let names = group.map { "'\(entity.fields[$0].type ?? "")'" }.joined(separator: ", ")
                        throw CoreDataStoreImportError.invalidRow(
                            path: path, table: source, primaryKey: row[0] ?? 0,
                            reason: "has \(selected[group[0]]) = \(value), which names no object of \(names)")
                    }
                }
                try insert.execute(arguments: StatementArguments(values))
            }
            return read
        }
        try checkCount(of: name, source: source, table: table, read: read, in: db)
        return read
    }

    /// Checked after the fact: the new table holds as many rows as were read, and as the store has
    /// of the entity (`stored`, when already counted).
    private func checkCount(
        of name: String, source: String, table: String, read: Int, stored: Int? = nil, in db: Database
    ) throws {
        let stored =
            try stored
            ?? store.queue.read { db in
                try Int.fetchOne(
                    db, sql: "SELECT COUNT(*) FROM \(source) WHERE Z_ENT = ?", arguments: [try number(name)])
            } ?? 0
        let copied = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(CoreDataStoreImporter.quoted(table))") ?? 0
        guard stored == read, copied == stored else {
            throw CoreDataStoreImportError.incompleteCopy(
                path: path,
                reason:
                    "the store has \(stored) rows of '\(name)', \(read) were read and the new table \(table) holds \(copied)"
            )
        }
    }

    /// ``copyEntity(_:into:)`` by `INSERT … SELECT` from the attached store: keys looked up by
    /// subqueries, decimals turned into text by `strata_decimal_text` (``decimalText(_:)``). The
    /// loop's checks first, as one query: the first row, by `Z_PK`, with a UUID that is not 16
    /// bytes or a to-one that names no object throws the loop's error for that row.
    private func copyEntityBySQL(
        _ entity: CoreDataMapping.Entity, name: String, table: String, source: String, selected: [String],
        uuids: Set<Int>, groups: [[Int]], routed: [Int: Int64], attached: String, into db: Database
    ) throws -> Int {
        let number = try number(name)
        let from = "\(attached).\(source) AS strata_row WHERE strata_row.Z_ENT = ?"
        var values: [String] = []
        var invalid: [String] = []
        for (index, field) in entity.fields.enumerated() {
            let column = "strata_row.\(selected[index])"
            switch field.source {
            case .toOne where routed[index] != nil:
                // The destination's key when the object is of this field's entity, else NULL.
                let destination = field.type ?? ""
                values.append(
                    "CASE (SELECT strata_object.Z_ENT FROM \(attached).\(self.table(of: destination)) AS strata_object "
                        + "WHERE strata_object.Z_PK = \(column)) WHEN \(routed[index] ?? 0) "
                        + "THEN \(keySQL(of: destination, pk: column, attached: attached)) END")
            case .toOne where keySources[field.type ?? ""] != nil:
                let key = keySQL(of: field.type ?? "", pk: column, attached: attached)
                values.append(key)
                invalid.append("(\(column) IS NOT NULL AND \(key) IS NULL)")
            case .order: values.append("coalesce(\(column), 0)")
            case .attribute where field.type == "Decimal": values.append("strata_decimal_text(\(column))")
            default: values.append(column)
            }
            if uuids.contains(index) {
                invalid.append("(\(column) IS NOT NULL AND (typeof(\(column)) <> 'blob' OR length(\(column)) <> 16))")
            }
        }
        for group in groups {
            invalid.append(
                "(strata_row.\(selected[group[0]]) IS NOT NULL AND coalesce(\(group.map { values[$0] }.joined(separator: ", "))) IS NULL)")
        }
        // One scan of the entity's rows: how many the store has, and the first that fails a check.
        let scan = try Row.fetchOne(
            db,
            sql: "SELECT count(*)"
                + (invalid.isEmpty
                    ? ", NULL" : ", min(strata_row.Z_PK) FILTER (WHERE \(invalid.joined(separator: " OR ")))")
                + " FROM \(from)",
            arguments: [number])
        let stored: Int = scan?[0] ?? 0
        if let first: Int64 = scan?[1],
            let row = try Row.fetchOne(
                db,
                sql: "SELECT strata_row.Z_PK, \(values.joined(separator: ", ")), "
                    + entity.fields.indices.map { "strata_row.\(selected[$0])" }.joined(separator: ", ")
                    + " FROM \(from) AND strata_row.Z_PK = ?",
                arguments: [number, first])
        {
            let count = entity.fields.count
            for (index, field) in entity.fields.enumerated() {
                let value: DatabaseValue = row[1 + count + index]
                if uuids.contains(index) {
                    try checkUUID(value, row: row, table: source, field: "\(name).\(field.field)")
                }
                if field.source == .toOne, routed[index] == nil, !value.isNull, (row[1 + index] as DatabaseValue).isNull {
                    let reason = try store.queue.read { storeDB in try missing(value, of: field.type ?? "", in: storeDB) }
                    throw CoreDataStoreImportError.invalidRow(
                        path: path, table: source, primaryKey: row[0] ?? 0,
                        reason: "has \(selected[index]) = \(value), \(reason)")
                }
            }
            for group in groups {
                let value: DatabaseValue = row[1 + count + group[0]]
                if !value.isNull && group.allSatisfy({ (row[1 + $0] as DatabaseValue).isNull }) {
                    let names = group.map { "'\(entity.fields[$0].type ?? "")'" }.joined(separator: ", ")
                    throw CoreDataStoreImportError.invalidRow(
                        path: path, table: source, primaryKey: row[0] ?? 0,
                        reason: "has \(selected[group[0]]) = \(value), which names no object of \(names)")
                }
            }
        }
        let columns = entity.fields.map { CoreDataStoreImporter.quoted($0.column ?? $0.field) }
        try db.execute(
            sql: """
                INSERT INTO main.\(CoreDataStoreImporter.quoted(table)) (\(columns.joined(separator: ", "))) \
                SELECT \(values.joined(separator: ", ")) FROM \(from) ORDER BY strata_row.Z_PK
                """,
            arguments: [number])
        let read = db.changesCount
        try checkCount(of: name, source: source, table: table, read: read, stored: stored, in: db)
        return read
    }

    /// A UUID attribute's value is NULL or 16 bytes.
    private func checkUUID(_ value: DatabaseValue, row: Row, table: String, field: String) throws {
        switch value.storage {
        case .null: return
        case .blob(let data) where data.count == 16: return
        case .blob(let data):
            throw CoreDataStoreImportError.invalidRow(
                path: path, table: table, primaryKey: row[0] ?? 0,
                reason: "has a \(data.count)-byte value for the UUID '\(field)', which takes 16 bytes")
        default:
            throw CoreDataStoreImportError.invalidRow(
                path: path, table: table, primaryKey: row[0] ?? 0,
                reason: "has \(value) for the UUID '\(field)', which takes 16 bytes")
        }
    }

    /// Copies a join entity's pairs; returns the store's join table and how many pairs.
    private func copyJoin(_ entity: CoreDataMapping.Entity, into db: Database) throws -> (String, Int) {
        guard let join = entity.join, let table = entity.table, entity.fields.count >= 2 else { return ("", 0) }
        guard let (layout, sourceIndex) = schema.join(of: join.relationship, in: join.entity),
            let joinTable = layout.names.first(where: { store.columns[$0] != nil })
        else {
            throw CoreDataStoreImportError.unsupported(
                "the store has no join table of \(join.entity).\(join.relationship)")
        }
        let sourceColumn = layout.columns[sourceIndex]
        let destinationColumn = layout.columns[1 - sourceIndex]
        var position: String?
        if join.ordered {
            let property = entity.fields.first { $0.source == .order }?.property
            let ordered = layout.relationships.firstIndex { $0 == property }.map { layout.orderColumns[$0] }
            position =
                [ordered].compactMap { $0 }.first { store.columns[joinTable]?[$0] != nil }
                ?? layout.orderColumns.first { store.columns[joinTable]?[$0] != nil }
        }
        var conditions: [String] = []
        var arguments: [DatabaseValueConvertible] = []
        for (column, name) in [(sourceColumn, join.entity), (destinationColumn, join.destination)]
        where schema.family(of: schema.root(of: name)).count > 1 {
            // Rows of one entity of a hierarchy: the pairs whose object is of this entity.
            conditions.append("\(column) IN (SELECT Z_PK FROM \(self.table(of: name)) WHERE Z_ENT = ?)")
            arguments.append(try number(name))
        }
        let sql =
            "SELECT \(sourceColumn), \(destinationColumn)\(position.map { ", \($0)" } ?? "") FROM \(joinTable)"
            + (conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")) + " ORDER BY 1, 2"
        let columns = entity.fields.map { $0.column ?? $0.field }
        if let attached {
            // By SQL: keys looked up by subqueries, after the loop's check (a pair without an
            // object on one side) as a query.
            let from = "\(attached).\(joinTable) AS strata_pair"
            let pair = ["strata_pair.\(sourceColumn)", "strata_pair.\(destinationColumn)"]
            let scoped = conditions.map { $0.replacingOccurrences(of: " FROM ", with: " FROM \(attached).") }
            let keys = [
                keySQL(of: join.entity, pk: pair[0], attached: attached),
                keySQL(of: join.destination, pk: pair[1], attached: attached),
            ]
            let missingSQL =
                "SELECT \(pair[0]), \(pair[1]), \(keys[0]) FROM \(from) WHERE "
                + (scoped + ["(\(keys[0]) IS NULL OR \(keys[1]) IS NULL)"]).joined(separator: " AND ")
                + " ORDER BY 1, 2 LIMIT 1"
            if let row = try Row.fetchOne(db, sql: missingSQL, arguments: StatementArguments(arguments)) {
                let side = (row[2] as DatabaseValue).isNull ? 0 : 1
                let value: DatabaseValue = row[side]
                let reason = try store.queue.read { storeDB in
                    try missing(value, of: side == 0 ? join.entity : join.destination, in: storeDB)
                }
                throw CoreDataStoreImportError.incompleteCopy(
                    path: path, reason: "a pair of join table \(joinTable) names \(value), \(reason)")
            }
            let values = keys + (join.ordered ? [position.map { "coalesce(\($0), 0)" } ?? "0"] : [])
            let names = columns.prefix(values.count).map(CoreDataStoreImporter.quoted).joined(separator: ", ")
            try db.execute(
                sql: "INSERT INTO main.\(CoreDataStoreImporter.quoted(table)) (\(names)) SELECT \(values.joined(separator: ", ")) FROM \(from)"
                    + (scoped.isEmpty ? "" : " WHERE " + scoped.joined(separator: " AND "))
                    + " ORDER BY \(pair[0]), \(pair[1])",
                arguments: StatementArguments(arguments))
            let count = db.changesCount
            try checkPairs(count, of: join, from: joinTable, into: table, in: db)
            return (joinTable, count)
        }
        let insert = try db.makeStatement(
            sql: insertSQL(table: table, columns: Array(columns.prefix(join.ordered ? 3 : 2))))
        let count = try store.queue.read { storeDB -> Int in
            let rows = try Row.fetchCursor(storeDB, sql: sql, arguments: StatementArguments(arguments))
            var count = 0
            while let row = try rows.next() {
                count += 1
                var values = [key(of: join.entity, pk: row[0]), key(of: join.destination, pk: row[1])]
                if let missing = values.indices.first(where: { values[$0].isNull }) {
                    let value: DatabaseValue = row[missing]
                    throw CoreDataStoreImportError.incompleteCopy(
                        path: path,
                        reason:
                            "a pair of join table \(joinTable) names \(value), \(try self.missing(value, of: missing == 0 ? join.entity : join.destination, in: storeDB))"
                    )
                }
                if join.ordered {
                    let value: DatabaseValue = position == nil ? .null : row[2]
                    values.append(value.isNull ? 0.databaseValue : value)
                }
                try insert.execute(arguments: StatementArguments(values))
            }
            return count
        }
        try checkPairs(count, of: join, from: joinTable, into: table, in: db)
        return (joinTable, count)
    }

    /// Checked after the fact: the new join table holds the `count` pairs read.
    private func checkPairs(
        _ count: Int, of join: CoreDataMapping.Join, from joinTable: String, into table: String, in db: Database
    ) throws {
        let copied = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(CoreDataStoreImporter.quoted(table))") ?? 0
        guard copied == count else {
            throw CoreDataStoreImportError.incompleteCopy(
                path: path,
                reason:
                    "\(count) pairs of \(join.entity).\(join.relationship) were read from \(joinTable) and the new table \(table) holds \(copied)"
            )
        }
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
