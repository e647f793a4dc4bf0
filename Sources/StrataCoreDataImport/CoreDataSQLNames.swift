import StrataCore

/// SQL names that fit PostgreSQL's 63 bytes for imported Core Data entities: Core Data's names
/// are long (`SingleEntityRelatedToManyMappedEntitiesUsingMappedPrimaryKey`, and a join entity
/// joins two of them), and `strata lint` refuses a table, column or index name longer than that.
/// A longer name keeps its first 54 bytes and gets `_` and 8 hex digits of a hash of the whole
/// name: the same in every version, and different for names that differ only at the end.
enum CoreDataSQLNames {
    /// PostgreSQL's limit on identifiers, in bytes.
    static let limit = 63

    /// The entities with `table`, `column` and index `name` set where the derived name is too long.
    static func fitted(_ entities: [ImportedEntity]) -> [ImportedEntity] {
        entities.map { entity in
            var entity = entity
            let table = entity.table ?? Naming.snakeCased(entity.name)
            if table.utf8.count > limit { entity.table = fitted(table) }
            for index in entity.fields.indices {
                let column = entity.fields[index].column ?? Naming.snakeCased(entity.fields[index].name)
                if column.utf8.count > limit { entity.fields[index].column = fitted(column) }
            }
            for index in entity.indexes.indices where entity.indexes[index].name == nil {
                let columns = entity.indexes[index].fields.map { name in
                    entity.field(named: name).map { $0.column ?? Naming.snakeCased($0.name) } ?? Naming.snakeCased(name)
                }
                let name = Index.defaultName(
                    table: entity.table ?? table, columns: columns, isUnique: entity.indexes[index].unique)
                if name.utf8.count > limit { entity.indexes[index].name = fitted(name) }
            }
            return entity
        }
    }

    /// `name` itself when it fits; otherwise its first bytes, `_` and 8 hex digits of its FNV-1a hash.
    static func fitted(_ name: String) -> String {
        guard name.utf8.count > limit else { return name }
        var hash: UInt32 = 2_166_136_261
        for byte in name.utf8 { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
        let hex = String(hash, radix: 16)
        let suffix = "_" + String(repeating: "0", count: 8 - hex.count) + hex
        var prefix = ""
        for character in name {
            guard prefix.utf8.count + String(character).utf8.count + suffix.utf8.count <= limit else { break }
            prefix.append(character)
        }
        while prefix.hasSuffix("_") { prefix.removeLast() }
        return prefix + suffix
    }
}
