extension SchemaParser {
    /// The primary key: the entity's `primaryKey: [a, b]`, the fields marked `primaryKey: true`,
    /// or the field named `id`.
    mutating func resolvePrimaryKey(of entity: Entity, _ node: YAMLNode?) -> [String] {
        let marked = entity.fields.filter(\.isPrimaryKeyMarker).map(\.name)
        if let node {
            guard let names = reader.stringList(node, "'primaryKey' of entity '\(entity.name)'") else { return [] }
            if !marked.isEmpty {
                reader.error(
                    "entity '\(entity.name)' declares its primary key twice: here and with 'primaryKey: true' on a field",
                    at: node)
            }
            var key: [String] = []
            for (name, location) in names {
                if entity.field(named: name) == nil {
                    reader.diagnostics.error(
                        "primary key names unknown field '\(name)' of '\(entity.name)'"
                            + Suggestion.didYouMean(name, in: entity.fields.map(\.name)), at: location)
                } else if key.contains(name) {
                    reader.diagnostics.error("field '\(name)' appears twice in the primary key", at: location)
                } else {
                    key.append(name)
                }
            }
            if names.isEmpty { reader.error("'primaryKey' must name at least one field", at: node) }
            return key
        }
        if !marked.isEmpty { return marked }
        if entity.field(named: "id") != nil { return ["id"] }
        if !entity.fields.isEmpty {
            reader.diagnostics.error(
                "entity '\(entity.name)' has no primary key: add a field named 'id', mark one with 'primaryKey: true', or list them in 'primaryKey'",
                at: entity.location)
        }
        return []
    }

    mutating func parseIndexes(_ node: YAMLNode, of entity: Entity) -> [Index] {
        guard let items = reader.sequence(node, "'indexes' of entity '\(entity.name)'") else { return [] }
        var indexes: [Index] = []
        for item in items {
            var fieldsNode = item
            var index = Index(
                name: "", hasExplicitName: false, fields: [], isUnique: false, location: reader.location(item))
            if case .mapping = item {
                guard let entries = reader.mapping(item, "an index") else { continue }
                reader.checkKeys(entries, allowed: Self.indexKeys, in: "an index")
                guard let fields = entries.first(where: { $0.key == "fields" }) else {
                    reader.error("an index needs 'fields'", at: item)
                    continue
                }
                fieldsNode = fields.value
                for entry in entries {
                    switch entry.key {
                    case "unique": index.isUnique = reader.bool(entry.value, "'unique'") ?? false
                    case "concurrently": index.isConcurrent = reader.bool(entry.value, "'concurrently'") ?? false
                    case "where": index.condition = reader.dialectSQL(entry.value, "'where' of an index")
                    case "name":
                        if let name = reader.nonEmptyString(entry.value, "the index name") {
                            index.name = name
                            index.hasExplicitName = true
                        }
                    default: break
                    }
                }
            }
            guard let names = reader.stringList(fieldsNode, "the fields of an index") else { continue }
            if names.isEmpty { reader.error("an index needs at least one field", at: fieldsNode) }
            for (name, location) in names {
                if entity.field(named: name) == nil {
                    reader.diagnostics.error(
                        "index names unknown field '\(name)' of '\(entity.name)'"
                            + Suggestion.didYouMean(name, in: entity.fields.map(\.name)), at: location)
                } else if index.fields.contains(name) {
                    reader.diagnostics.error("field '\(name)' appears twice in this index", at: location)
                } else {
                    index.fields.append(name)
                }
            }
            if !index.hasExplicitName {
                let columns = index.fields.compactMap { entity.field(named: $0)?.column }
                index.name = Index.defaultName(table: entity.table, columns: columns, isUnique: index.isUnique)
            }
            if !index.fields.isEmpty { indexes.append(index) }
        }
        return indexes
    }

    mutating func parseHasMany(_ node: YAMLNode, of entity: Entity) -> [HasMany] {
        guard let entries = reader.mapping(node, "'hasMany' of entity '\(entity.name)'") else { return [] }
        var result: [HasMany] = []
        for entry in entries {
            let what = "hasMany '\(entry.key)'"
            guard let options = reader.mapping(entry.value, "\(what) (a mapping with 'entity' and 'via')") else {
                continue
            }
            reader.checkKeys(options, allowed: SchemaKeys.hasMany, in: what)
            let target = options.first { $0.key == "entity" }.flatMap { reader.nonEmptyString($0.value, "'entity'") }
            let throughOption = options.first { $0.key == "through" }
            let through = throughOption.flatMap { reader.nonEmptyString($0.value, "'through'") }
            var via = options.first { $0.key == "via" }.flatMap { reader.nonEmptyString($0.value, "'via'") }
            if through != nil, via == nil { via = "" }
            guard let target, let via else {
                reader.diagnostics.error(
                    "\(what) needs 'entity' and 'via' (or 'through', a join entity, for a many-to-many)", at: entry.keyLocation)
                continue
            }
            let viaLocation = options.first { $0.key == "via" }.map { reader.location($0.value) } ?? entry.keyLocation
            let entityLocation =
                options.first { $0.key == "entity" }.map { reader.location($0.value) } ?? entry.keyLocation
            // Whether `target` and `via` exist is checked by the validator, which sees every entity.
            result.append(
                HasMany(
                    name: entry.key, entity: target, via: via, location: entry.keyLocation,
                    entityLocation: entityLocation, viaLocation: viaLocation, through: through,
                    throughLocation: throughOption.map { reader.location($0.value) }))
        }
        return result
    }
}
