extension Schema {
    /// The entities whose key `typedKeys: true` gives a type of its own, with that type's name
    /// (`Customer` -> `CustomerID`): a single key field of a built-in type that can be a key
    /// (text, integers, UUID, URL).
    func typedKeyNames() -> [(entity: String, type: String)] {
        entities.compactMap { entity in
            guard let key = entity.singlePrimaryKey, case .scalar(let scalar) = key.type,
                [.string, .int, .int64, .int32, .int16, .uuid, .url].contains(scalar)
            else { return nil }
            return (entity.name, entity.name + "ID")
        }
    }

    /// True when an entity, an enum or a value type has this name.
    func declaresType(named name: String) -> Bool {
        hasEntity(named: name) || enumDecl(named: name) != nil || valueType(named: name) != nil
    }

    /// The schema as generated Swift sees it with `typedKeys: true`: the key of each entity
    /// ``typedKeyNames()`` lists becomes a value type of its own (`CustomerID`, stored as the
    /// key's type), so that a `Customer`'s key and every reference to it (`Order.customer`) is
    /// a `CustomerID`, never another entity's `Int64`. The SQL is the same: a value type is
    /// stored as its storage type. Without `typedKeys`, the schema itself.
    public func withTypedKeys() -> Schema {
        guard typedKeys else { return self }
        var schema = self
        for (entityName, typeName) in typedKeyNames() where !declaresType(named: typeName) {
            guard let index = schema.entityIndex(named: entityName), let key = schema.entities[index].singlePrimaryKey,
                let field = schema.entities[index].fields.firstIndex(where: { $0.name == key.name }),
                case .scalar(let scalar) = key.type
            else { continue }
            schema.valueTypes.append(
                ValueTypeDecl(
                    name: typeName, storage: scalar, isExternal: false,
                    doc: "The key of `\(entityName)` records (its `\(key.name)`), a type of its own: `typedKeys: true`.",
                    location: schema.entities[index].location))
            schema.entities[index].fields[field].type = .value(typeName)
        }
        return schema
    }
}
