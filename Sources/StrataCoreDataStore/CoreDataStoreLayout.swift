import Foundation
import StrataCoreDataMapping

/// Which version of a mapping a store is at: the one version whose layout accounts for every
/// entity, table and column the store has, with compatible declared types. Never a guess: a store
/// that no version accounts for, or more than one, is refused.
enum CoreDataStoreLayout {
    /// Core Data's own tables, which every store has (`Z_MODELCACHE` only from framework 637 on),
    /// and the tables of its persistent history and CloudKit mirroring: not entity data.
    static func isCoreDataTable(_ name: String) -> Bool {
        ["Z_PRIMARYKEY", "Z_METADATA", "Z_MODELCACHE"].contains(name) || name.hasPrefix("ANSCK")
            || ["ACHANGE", "ATRANSACTION", "ATRANSACTIONSTRING"].contains(name)
    }

    /// The Core Data model of `version`: its own description, or one pieced together from its
    /// entities for a mapping written before the description was added (then `isComplete` is false).
    static func model(of version: CoreDataMapping.Version) -> (model: CoreDataMapping.Model, isComplete: Bool) {
        if let model = version.coreDataModel { return (model, true) }
        var entities: [String: CoreDataMapping.ModelEntity] = [:]
        var order: [String] = []
        func entity(_ name: String) -> CoreDataMapping.ModelEntity {
            if let found = entities[name] { return found }
            order.append(name)
            return CoreDataMapping.ModelEntity(
                name: name, parent: nil, isAbstract: false, attributes: [], relationships: [], indexes: [])
        }
        for mapped in version.entities {
            guard let name = mapped.coreDataEntity else { continue }
            var item = entity(name)
            if let root = mapped.coreDataRoot, root != name {
                // The chain between is not recorded: the root's table holds the rows all the same.
                item.parent = root
                if entities[root] == nil { entities[root] = entity(root) }
            }
            for field in mapped.fields {
                guard let property = field.property else { continue }
                switch field.source {
                case .attribute:
                    item.attributes.append(.init(name: property, type: coreDataType(strataType: field.type)))
                case .toOne:
                    item.relationships.append(
                        .init(
                            name: property, destination: field.type ?? "", inverse: nil, isToMany: false,
                            isOrdered: false))
                default: break
                }
            }
            entities[name] = item
        }
        for mapped in version.entities {
            guard let name = mapped.coreDataEntity else { continue }
            for field in mapped.fields where field.source == .order {
                // An ordered to-many of the destination of this entity's to-one `property`.
                guard let property = field.property,
                    let destination = mapped.fields.first(where: { $0.source == .toOne && $0.property == property })?
                        .type
                else { continue }
                var owner = entity(destination)
                owner.relationships.append(
                    .init(
                        name: "\u{0}\(name).\(property)", destination: name, inverse: property, isToMany: true,
                        isOrdered: true))
                entities[destination] = owner
            }
        }
        for mapped in version.entities {
            guard let join = mapped.join, let inverse = join.inverse else { continue }
            var source = entity(join.entity)
            source.relationships.append(
                .init(
                    name: join.relationship, destination: join.destination, inverse: inverse, isToMany: true,
                    isOrdered: join.ordered))
            entities[join.entity] = source
            var destination = entity(join.destination)
            if !destination.relationships.contains(where: { $0.name == inverse }) {
                destination.relationships.append(
                    .init(
                        name: inverse, destination: join.entity, inverse: join.relationship, isToMany: true,
                        isOrdered: false))
            }
            entities[join.destination] = destination
        }
        // A flattened entity's fields include the inherited ones, and which entity of a hierarchy
        // declares what is not recorded: every column of a hierarchy goes to its root, once.
        for name in order {
            guard let item = entities[name], let root = item.parent, var rootEntity = entities[root] else { continue }
            for attribute in item.attributes where !rootEntity.attributes.contains(where: { $0.name == attribute.name })
            {
                rootEntity.attributes.append(attribute)
            }
            for relationship in item.relationships
            where !relationship.isToMany && !rootEntity.relationships.contains(where: { $0.name == relationship.name })
            {
                rootEntity.relationships.append(relationship)
            }
            entities[root] = rootEntity
            entities[name]?.attributes = []
            entities[name]?.relationships.removeAll { !$0.isToMany }
        }
        return (CoreDataMapping.Model(entities: order.compactMap { entities[$0] }), false)
    }

    /// The Core Data type whose column a Strata field's values come from.
    private static func coreDataType(strataType: String?) -> String {
        switch strataType {
        case "Int16", "Int32", "Int64", "Int", "Bool": "Integer 64"
        case "Date": "Date"
        case "Double", "Float": "Double"
        case "Decimal": "Decimal"
        case "String", "URL": "URI"  // VARCHAR, or BLOB for a URI attribute
        case "Data", "UUID": "Binary"
        default: ""
        }
    }

    /// What differs between the store and `schema`: an empty list when the schema accounts for
    /// every entity, table and column of the store; and how many extra integer columns a schema
    /// pieced together from an older mapping let pass (the other side of a one-to-one).
    static func differences(_ store: CoreDataStore, _ schema: CoreDataStoreSchema, version: Int)
        -> (differences: [String], tolerated: Int)
    {
        var differences: [String] = []
        var tolerated = 0
        // Entities: Core Data's own record of them, Z_PRIMARYKEY.
        let modelEntities = Set(schema.entities.keys)
        let storeEntities = Set(store.entityNumbers.keys)
        let missing = modelEntities.subtracting(storeEntities).sorted()
        if !missing.isEmpty { differences.append("no entity \(list(missing)) in Z_PRIMARYKEY") }
        if schema.isComplete {
            let extra = storeEntities.subtracting(modelEntities).sorted()
            if !extra.isEmpty { differences.append("Z_PRIMARYKEY has entity \(list(extra)), which v\(version) lacks") }
            for name in modelEntities.intersection(storeEntities).sorted()
            where schema.entities[name]?.parent != store.parents[name] {
                differences.append(
                    "entity '\(name)' has parent \(store.parents[name].map { "'\($0)'" } ?? "none") in the store, \(schema.entities[name]?.parent.map { "'\($0)'" } ?? "none") in v\(version)"
                )
            }
        }
        // Tables.
        var joinTables: [String: CoreDataStoreSchema.JoinTable] = [:]
        for join in schema.joins {
            if let name = join.names.first(where: { store.columns[$0] != nil }) {
                joinTables[name] = join
            } else {
                differences.append(
                    "no join table \(join.names[0]) of \(join.entities[0]).\(join.relationships[1]) <-> \(join.entities[1]).\(join.relationships[0])"
                )
            }
        }
        for (table, expected) in schema.tables.sorted(by: { $0.key < $1.key }) {
            guard let actual = store.columns[table] else {
                differences.append("no table \(table)")
                continue
            }
            let optional = schema.optionalColumns[table] ?? []
            let lacking = expected.keys.filter { actual[$0] == nil }.sorted()
            let unexpected = actual.filter { column, _ in expected[column] == nil && !optional.contains(column) }
            let extra = unexpected.filter { column, type in
                schema.isComplete || !(type == "INTEGER" && !column.hasPrefix("Z_"))
                    || isNumbered(column, after: expected.keys)
            }.keys.sorted()
            tolerated += unexpected.count - extra.count
            let mistyped = expected.filter { column, types in
                guard let type = actual[column] else { return false }
                return !types.isEmpty && !types.contains(baseType(type))
            }.keys.sorted()
            if !lacking.isEmpty { differences.append("table \(table) lacks \(list(lacking, quoted: false))") }
            if !extra.isEmpty {
                differences.append("table \(table) has \(list(extra, quoted: false)), which v\(version) lacks")
            }
            for column in mistyped {
                differences.append(
                    "\(table).\(column) is \(actual[column] ?? ""), v\(version) has \(expected[column]?.sorted().joined(separator: " or ") ?? "")"
                )
            }
        }
        for (table, join) in joinTables.sorted(by: { $0.key < $1.key }) {
            let actual = Set(store.columns[table]?.keys.map { $0 } ?? [])
            let lacking = Set(join.columns).subtracting(actual).sorted()
            let extra = actual.subtracting(join.columns).subtracting(join.orderColumns).sorted()
            if !lacking.isEmpty { differences.append("join table \(table) lacks \(list(lacking, quoted: false))") }
            if !extra.isEmpty {
                differences.append("join table \(table) has \(list(extra, quoted: false)), which v\(version) lacks")
            }
        }
        let known = Set(schema.tables.keys).union(joinTables.keys).union(schema.unreadTables)
        let unknown = store.columns.keys.filter { !known.contains($0) && !isCoreDataTable($0) }.sorted()
        if !unknown.isEmpty {
            differences.append("table \(list(unknown, quoted: false)) is not a table of v\(version)")
        }
        return (differences, tolerated)
    }

    /// The indexes the schema's entities declare that the store lacks, or has undeclared (the
    /// indexes Core Data makes itself, on `Z_ENT`, keys and join tables, aside).
    static func indexDifferences(_ store: CoreDataStore, _ schema: CoreDataStoreSchema) -> Int {
        var count = 0
        for table in schema.tables.keys {
            let expected = schema.indexes[table] ?? []
            let keys = Set((schema.tables[table] ?? [:]).filter { $0.value == ["INTEGER"] }.keys)
            let actual = (store.indexes[table] ?? []).filter { columns in
                !(columns.count == 1
                    && (columns[0] == "Z_ENT" || (keys.contains(columns[0]) && !expected.contains(columns))))
            }
            count += expected.symmetricDifference(actual).count
        }
        return count
    }

    /// The version of `mapping` the store is at, with its layout.
    /// `chosen` picks one among versions the store fits alike; it must be one the store fits.
    static func version(of store: CoreDataStore, mapping: CoreDataMapping, path: String, chosen: Int? = nil) throws
        -> (version: CoreDataMapping.Version, schema: CoreDataStoreSchema)
    {
        var results:
            [(version: CoreDataMapping.Version, schema: CoreDataStoreSchema, differences: [String], tolerated: Int)] =
                []
        for version in mapping.versions {
            let (model, isComplete) = model(of: version)
            let schema = CoreDataStoreSchema(model: model, numbers: store.entityNumbers, isComplete: isComplete)
            let found = differences(store, schema, version: version.version)
            results.append((version, schema, found.differences, found.tolerated))
        }
        if let chosen {
            guard let result = results.first(where: { $0.version.version == chosen }) else {
                throw CoreDataStoreImportError.unknownLayout(
                    path: path, model: mapping.model, reason: "the model has no version v\(chosen)")
            }
            guard result.differences.isEmpty else {
                throw CoreDataStoreImportError.unknownLayout(
                    path: path, model: mapping.model,
                    reason: "it is not at v\(chosen) (\(result.version.coreDataVersion)): "
                        + result.differences.prefix(6).joined(separator: "; "))
            }
            return (result.version, result.schema)
        }
        var matches = results.filter(\.differences.isEmpty)
        if let fewest = matches.map(\.tolerated).min() { matches = matches.filter { $0.tolerated == fewest } }
        if matches.count > 1 {
            // Versions with the same tables and columns: their indexes may tell them apart.
            let best = matches.map { indexDifferences(store, $0.schema) }.min() ?? 0
            let narrowed = matches.filter { indexDifferences(store, $0.schema) == best }
            if best == 0 { matches = narrowed }
        }
        if matches.count == 1, let match = matches.first { return (match.version, match.schema) }
        if matches.count > 1 {
            throw CoreDataStoreImportError.ambiguousLayout(
                path: path, model: mapping.model, versions: matches.map(\.version.version))
        }
        let closest = results.sorted { $0.differences.count < $1.differences.count }
        let fewest = closest.first?.differences.count ?? 0
        let named = closest.filter { $0.differences.count == fewest }.prefix(2)
        let reason = named.map { result in
            "closest is v\(result.version.version) (\(result.version.coreDataVersion)): "
                + result.differences.prefix(6).joined(separator: "; ")
                + (result.differences.count > 6 ? "; and \(result.differences.count - 6) more" : "")
        }.joined(separator: "; ")
        throw CoreDataStoreImportError.unknownLayout(
            path: path, model: mapping.model, reason: results.isEmpty ? "the mapping has no versions" : reason)
    }

    /// True for `ZPENDINGSTATE1` next to `ZPENDINGSTATE`: the column of a name that two entities
    /// of a hierarchy declare, which a layout pieced together from an older mapping cannot place.
    private static func isNumbered(_ column: String, after columns: Dictionary<String, Set<String>>.Keys) -> Bool {
        let base = column.reversed().drop { $0.isNumber }.reversed()
        return base.count < column.count && columns.contains(String(base))
    }

    /// `INTEGER` of `INTEGER`, `VARCHAR` of `VARCHAR(255)`.
    private static func baseType(_ type: String) -> String {
        String(type.prefix { $0 != "(" }).trimmingCharacters(in: .whitespaces)
    }

    private static func list(_ names: [String], quoted: Bool = true) -> String {
        names.map { quoted ? "'\($0)'" : $0 }.joined(separator: ", ")
    }
}
