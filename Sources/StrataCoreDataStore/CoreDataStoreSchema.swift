import StrataCoreDataMapping

/// The tables and columns a store written by one model version has, as Core Data lays them out
/// (`LAYOUT.md` of the corpus): one table `Z<ROOT>` per inheritance hierarchy with `Z_PK`,
/// `Z_ENT`, `Z_OPT` and a column per stored attribute and to-one relationship of every entity in it
/// (a name that two entities of a hierarchy declare gets a number: `ZPENDINGSTATE1`), one-to-one
/// relationships keyed on both sides, `Z_FOK_<INVERSE>` ordering columns, and a join table
/// `Z_<n><RELATIONSHIP>` per many-to-many pair.
struct CoreDataStoreSchema {
    /// A many-to-many join table: two columns, each holding the `Z_PK`s of one side's objects.
    struct JoinTable {
        /// The names the table may have: the one Core Data writes, then the other order.
        var names: [String]
        /// The two columns, `Z_<n><RELATIONSHIP>`.
        var columns: [String]
        /// For each column, the entity whose objects it holds: the one that declares the other
        /// side's relationship (abstract or not).
        var entities: [String]
        /// For each column, the relationship that points at its objects.
        var relationships: [String]
        /// The ordering columns it may have (`Z_FOK_<column without Z_>`), for an ordered side.
        var orderColumns: [String]
    }

    /// The entities (abstract ones too), by name.
    let entities: [String: CoreDataMapping.ModelEntity]
    /// True when built from the model itself; false when pieced together from an older mapping
    /// (no abstract entities, no one-to-one inverse columns): then extra integer columns are allowed.
    let isComplete: Bool
    /// Every entity table: its columns and the declared types each may have (empty: any).
    private(set) var tables: [String: [String: Set<String>]] = [:]
    /// Columns an entity table may have besides those (a to-one's destination entity number).
    private(set) var optionalColumns: [String: Set<String>] = [:]
    /// The column of each property, by entity (the declaring one) and property.
    private(set) var columns: [String: [String: String]] = [:]
    /// The `Z_FOK_` column of each to-one relationship that is the inverse of an ordered to-many one.
    private(set) var orderColumns: [String: [String: String]] = [:]
    /// The join tables.
    private(set) var joins: [JoinTable] = []
    /// The tables of to-many relationships without an inverse (`Z_<n><RELATIONSHIP>`), whose
    /// columns are not known: accounted for, never read.
    private(set) var unreadTables: Set<String> = []
    /// Each table's indexes (lists of columns) from `indexed` attributes, fetch indexes and constraints.
    private(set) var indexes: [String: Set<[String]>] = [:]

    /// The layout of `model`; `numbers` are the store's entity numbers (`Z_PRIMARYKEY`).
    init(model: CoreDataMapping.Model, numbers: [String: Int64], isComplete: Bool) {
        var entities: [String: CoreDataMapping.ModelEntity] = [:]
        for entity in model.entities where entities[entity.name] == nil { entities[entity.name] = entity }
        self.entities = entities
        self.isComplete = isComplete
        for root in Self.sorted(model.entities.filter { $0.parent == nil || entities[$0.parent ?? ""] == nil }) {
            layOut(root: root, model: model)
        }
        layOutJoins(model: model, numbers: numbers)
    }

    /// Entities in Core Data's numbering order among siblings: by name, case-insensitively.
    private static func sorted(_ entities: [CoreDataMapping.ModelEntity]) -> [CoreDataMapping.ModelEntity] {
        entities.sorted { ($0.name.lowercased(), $0.name) < ($1.name.lowercased(), $1.name) }
    }

    /// The entity and its subentities, pre-order (Core Data's `Z_ENT` order).
    private func hierarchy(_ root: CoreDataMapping.ModelEntity, model: CoreDataMapping.Model)
        -> [CoreDataMapping.ModelEntity]
    {
        var result = [root]
        var seen: Set<String> = [root.name]
        var index = 0
        while index < result.count {
            let children = Self.sorted(
                model.entities.filter { $0.parent == result[index].name && !seen.contains($0.name) })
            for child in children { seen.insert(child.name) }
            // Pre-order: the children of result[index] come right after it, before its next sibling.
            result.insert(contentsOf: children, at: index + 1)
            index += 1
        }
        return result
    }

    private mutating func layOut(root: CoreDataMapping.ModelEntity, model: CoreDataMapping.Model) {
        let table = CoreDataStore.zName(root.name)
        var tableColumns: [String: Set<String>] = ["Z_PK": ["INTEGER"], "Z_ENT": ["INTEGER"], "Z_OPT": ["INTEGER"]]
        for entity in hierarchy(root, model: model) {
            func unique(_ base: String) -> String {
                var name = base
                var number = 1
                while tableColumns[name] != nil {
                    name = base + String(number)
                    number += 1
                }
                return name
            }
            for attribute in entity.attributes {
                let column = unique(CoreDataStore.zName(attribute.name))
                tableColumns[column] = Self.declaredTypes(coreDataType: attribute.type)
                columns[entity.name, default: [:]][attribute.name] = column
            }
            for relationship in entity.relationships where !relationship.isToMany {
                let column = unique(CoreDataStore.zName(relationship.name))
                tableColumns[column] = ["INTEGER"]
                columns[entity.name, default: [:]][relationship.name] = column
                if let destination = entities[relationship.destination],
                    destination.isAbstract || model.entities.contains(where: { $0.parent == destination.name })
                {
                    // Core Data may keep the destination's entity number beside its Z_PK.
                    let name = relationship.name.uppercased()
                    optionalColumns[table, default: []].formUnion(
                        (1...9).flatMap { ["Z\($0)\(name)", "Z\($0)_\(name)"] })
                }
            }
        }
        // Ordering columns of ordered to-many relationships whose inverse is a to-one of this table.
        for entity in model.entities {
            for relationship in entity.relationships where relationship.isToMany && relationship.isOrdered {
                guard let inverseName = relationship.inverse,
                    let (owner, inverse) = declaration(of: inverseName, from: relationship.destination),
                    !inverse.isToMany, columns[owner]?[inverseName].map({ tableColumns[$0] != nil }) == true
                else { continue }
                let column = "Z_FOK_" + inverseName.uppercased()
                tableColumns[column] = ["INTEGER"]
                orderColumns[owner, default: [:]][inverseName] = column
            }
        }
        tables[table] = tableColumns
        for entity in hierarchy(root, model: model) {
            for index in entity.indexes {
                let resolved = index.compactMap { column(of: $0, in: entity.name) }
                if resolved.count == index.count { indexes[table, default: []].insert(resolved) }
            }
        }
    }

    /// The entity among `entity` and its ancestors that declares the relationship `name`.
    func declaration(of name: String, from entity: String) -> (String, CoreDataMapping.ModelRelationship)? {
        var current = entities[entity]
        var seen: Set<String> = []
        while let entity = current, seen.insert(entity.name).inserted {
            if let relationship = entity.relationships.first(where: { $0.name == name }) {
                return (entity.name, relationship)
            }
            current = entity.parent.flatMap { entities[$0] }
        }
        return nil
    }

    /// The column of `property` for objects of `entity` (declared by it or an ancestor).
    func column(of property: String, in entity: String) -> String? {
        lookUp(columns, property, from: entity)
    }

    /// The `Z_FOK_` column of the to-one `property` of `entity` (declared by it or an ancestor).
    func orderColumn(of property: String, in entity: String) -> String? {
        lookUp(orderColumns, property, from: entity)
    }

    private func lookUp(_ map: [String: [String: String]], _ property: String, from entity: String) -> String? {
        var current: String? = entity
        var seen: Set<String> = []
        while let name = current, seen.insert(name).inserted {
            if let column = map[name]?[property] { return column }
            current = entities[name]?.parent
        }
        return nil
    }

    /// The root of `entity`'s hierarchy.
    func root(of entity: String) -> String {
        var name = entity
        var seen: Set<String> = [entity]
        while let parent = entities[name]?.parent, entities[parent] != nil, seen.insert(parent).inserted {
            name = parent
        }
        return name
    }

    /// `entity` and every entity under it.
    func family(of entity: String) -> Set<String> {
        Set(
            entities.keys.filter { name in
                var current: String? = name
                var seen: Set<String> = []
                while let item = current, seen.insert(item).inserted {
                    if item == entity { return true }
                    current = entities[item]?.parent
                }
                return false
            })
    }

    /// Many-to-many pairs: each end is (the entity declaring one relationship, the relationship
    /// pointing at it); ends sorted by (entity, relationship); columns `Z_<n(end)><REL(end)>`;
    /// the table `Z_<n(end1)><REL(end2)>` (also accepted: `Z_<n(end2)><REL(end1)>`).
    private mutating func layOutJoins(model: CoreDataMapping.Model, numbers: [String: Int64]) {
        var done: Set<String> = []
        for entity in model.entities {
            for relationship in entity.relationships where relationship.isToMany {
                if relationship.inverse == nil, let number = numbers[entity.name] {
                    unreadTables.insert("Z_\(number)\(relationship.name.uppercased())")
                }
                guard let inverseName = relationship.inverse,
                    let (owner, inverse) = declaration(of: inverseName, from: relationship.destination),
                    inverse.isToMany
                else { continue }
                let key = [entity.name + "." + relationship.name, owner + "." + inverseName].sorted().joined(
                    separator: "|")
                guard done.insert(key).inserted else { continue }
                // End at `entity`: the inverse points at it; end at `owner`: the relationship does.
                var ends = [
                    (entity.name, inverseName, inverse.isOrdered), (owner, relationship.name, relationship.isOrdered),
                ]
                ends.sort { ($0.0, $0.1) < ($1.0, $1.1) }
                guard let first = numbers[ends[0].0], let second = numbers[ends[1].0] else { continue }
                let columns = ["Z_\(first)\(ends[0].1.uppercased())", "Z_\(second)\(ends[1].1.uppercased())"]
                joins.append(
                    JoinTable(
                        names: ["Z_\(first)\(ends[1].1.uppercased())", "Z_\(second)\(ends[0].1.uppercased())"],
                        columns: columns, entities: [ends[0].0, ends[1].0], relationships: [ends[0].1, ends[1].1],
                        orderColumns: columns.map { "Z_FOK_" + $0.dropFirst(2) }))
            }
        }
    }

    /// The join table of the relationship `relationship` of `entity` (declared by it or an ancestor),
    /// and which of its columns holds `entity`'s side.
    func join(of relationship: String, in entity: String) -> (table: JoinTable, sourceIndex: Int)? {
        guard let (owner, declared) = declaration(of: relationship, from: entity), let inverse = declared.inverse
        else { return nil }
        for join in joins {
            for index in 0..<2 where join.entities[index] == owner && join.relationships[index] == inverse {
                return (join, index)
            }
        }
        return nil
    }

    /// The declared types Core Data gives a column of an attribute type (empty: any).
    static func declaredTypes(coreDataType: String) -> Set<String> {
        switch coreDataType {
        case "Integer 16", "Integer 32", "Integer 64", "Boolean": ["INTEGER"]
        case "Date": ["TIMESTAMP"]
        case "Double", "Float": ["FLOAT"]
        case "Decimal": ["DECIMAL"]
        case "String": ["VARCHAR"]
        case "Binary", "Transformable", "UUID": ["BLOB"]
        case "URI": ["VARCHAR", "BLOB"]
        default: []
        }
    }
}
