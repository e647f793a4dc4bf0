/// The renames one side of a rebase made since the merge base: entity names, and field names
/// per entity, each from its name in the base to its name on that side.
struct SnapshotRenames: Sendable, Equatable {
    /// Base entity name to its new name.
    var entities: [String: String] = [:]
    /// Base entity name, then base field name, to the field's new name.
    var fields: [String: [String: String]] = [:]

    /// The renames a version's `renamedFrom` hints make from the version before it (`node` is
    /// the version; names of the previous version are the base names).
    init(hintsOf node: VersionNode) {
        for entity in node["entities"]?.pairs ?? [] {
            let base = entity.value["renamedFrom"]?.text ?? entity.key
            if base != entity.key { entities[base] = entity.key }
            for field in entity.value["fields"]?.pairs ?? [] {
                if let from = field.value["renamedFrom"]?.text, from != field.key {
                    fields[base, default: [:]][from] = field.key
                }
            }
        }
    }

    init() {}

    /// The name of base entity `entity` on this side.
    func entity(_ entity: String) -> String { entities[entity] ?? entity }

    /// The name of base field `field` of base entity `entity` on this side.
    func field(_ field: String, of entity: String) -> String { fields[entity]?[field] ?? field }

    /// The renames from this side's names back to the base's.
    var inverse: (entities: [String: String], fields: [String: [String: String]]) {
        var entityMap: [String: String] = [:]
        for (base, new) in entities { entityMap[new] = base }
        var fieldMap: [String: [String: String]] = [:]
        for (base, renamed) in fields {
            var map: [String: String] = [:]
            for (from, to) in renamed { map[to] = from }
            fieldMap[self.entity(base)] = map
        }
        return (entityMap, fieldMap)
    }

    /// The renames of consecutive versions (`steps`, each from the version before it) composed,
    /// from the names of `base` (the version before the first step).
    static func composed(_ steps: [SnapshotRenames], from base: VersionNode) -> SnapshotRenames {
        var entityNames: [String: String] = [:]
        var fieldNames: [String: [String: String]] = [:]
        for entity in base["entities"]?.pairs ?? [] {
            entityNames[entity.key] = entity.key
            for field in entity.value["fields"]?.pairs ?? [] {
                fieldNames[entity.key, default: [:]][field.key] = field.key
            }
        }
        for step in steps {
            for (baseEntity, current) in entityNames {
                if let renamedFields = step.fields[current] {
                    for (baseField, currentField) in fieldNames[baseEntity] ?? [:] {
                        if let new = renamedFields[currentField] { fieldNames[baseEntity]?[baseField] = new }
                    }
                }
                if let new = step.entities[current] { entityNames[baseEntity] = new }
            }
        }
        var result = SnapshotRenames()
        for (baseEntity, current) in entityNames where current != baseEntity { result.entities[baseEntity] = current }
        for (baseEntity, map) in fieldNames {
            for (baseField, current) in map where current != baseField {
                result.fields[baseEntity, default: [:]][baseField] = current
            }
        }
        return result
    }
}

extension VersionNode {
    /// The node with entities and fields renamed: `entities` maps entity names, `fields` maps
    /// field names per entity (keyed by the entity's name before the rename). Field types,
    /// `hasMany`, `indexes` and `primaryKey` that name them follow.
    func renaming(entities: [String: String], fields: [String: [String: String]]) -> VersionNode {
        guard !entities.isEmpty || !fields.isEmpty, var entityList = self["entities"] else { return self }
        func renameType(_ node: VersionNode) -> VersionNode {
            guard case .scalar(var scalar) = node else { return node }
            let (type, optional) = SchemaParser.splitOptional(scalar.text)
            guard let renamed = entities[type] else { return node }
            scalar.text = renamed + (optional ? "?" : "")
            return .scalar(scalar)
        }
        func renameFieldNames(_ node: VersionNode, of entity: String) -> VersionNode {
            guard let map = fields[entity], !map.isEmpty else { return node }
            switch node {
            case .scalar(var scalar):
                scalar.text = map[scalar.text] ?? scalar.text
                return .scalar(scalar)
            case .sequence(let items, let origin):
                return .sequence(items.map { renameFieldNames($0, of: entity) }, origin)
            case .mapping:
                var node = node
                if let list = node["fields"] { node["fields"] = renameFieldNames(list, of: entity) }
                return node
            }
        }
        guard case .mapping(let pairs, let origin) = entityList else { return self }
        entityList = .mapping(
            pairs.map { pair in
                let name = pair.key
                var entity = pair.value
                if var fieldList = entity["fields"], case .mapping(let fieldPairs, let fieldOrigin) = fieldList {
                    fieldList = .mapping(
                        fieldPairs.map { field in
                            var value = field.value
                            if value.isMapping, let type = value["type"] { value["type"] = renameType(type) }
                            if case .scalar = value { value = renameType(value) }
                            return Pair(
                                key: fields[name]?[field.key] ?? field.key, value: value, keyOrigin: field.keyOrigin)
                        }, fieldOrigin)
                    entity["fields"] = fieldList
                }
                if let keys = entity["primaryKey"] { entity["primaryKey"] = renameFieldNames(keys, of: name) }
                if let indexes = entity["indexes"] { entity["indexes"] = renameFieldNames(indexes, of: name) }
                if let search = entity["search"] { entity["search"] = renameFieldNames(search, of: name) }
                if let hasMany = entity["hasMany"], case .mapping(let manyPairs, let manyOrigin) = hasMany {
                    entity["hasMany"] = .mapping(
                        manyPairs.map { many in
                            var value = many.value
                            if let target = value["entity"]?.text {
                                if let via = value["via"] { value["via"] = renameFieldNames(via, of: target) }
                                value["entity"] = renameType(value["entity"] ?? .plain(target))
                            }
                            return Pair(key: many.key, value: value, keyOrigin: many.keyOrigin)
                        }, manyOrigin)
                }
                return Pair(key: entities[name] ?? name, value: entity, keyOrigin: pair.keyOrigin)
            }, origin)
        var node = self
        node["entities"] = entityList
        return node
    }
}
