/// The typed changes from one version of a model to the next.
public struct SchemaDiff: Sendable {
    /// Version N-1.
    public var from: Schema
    /// Version N.
    public var to: Schema
    /// The changes, in a deterministic order: enums, then entities in N's declaration order, then removals.
    public var changes: [SchemaChange]

    /// The entity of N-1 that `entity` of N continues (same name, or its `renamedFrom`), if any.
    public func previous(of entity: Entity) -> Entity? {
        Self.previous(of: entity, in: from)
    }

    static func previous(of entity: Entity, in from: Schema) -> Entity? {
        if let old = entity.renamedFrom { return from.entity(named: old) }
        return from.entity(named: entity.name)
    }

    /// The field of `old` that `field` continues (same name, or its `renamedFrom`), if any.
    public static func previous(of field: Field, in old: Entity) -> Field? {
        if let name = field.renamedFrom { return old.field(named: name) }
        return old.field(named: field.name)
    }

    /// Diffs two validated versions.
    public init(from: Schema, to: Schema) {
        self.from = from
        self.to = to
        var changes: [SchemaChange] = []
        for decl in to.enums {
            guard let old = from.enumDecl(named: decl.name) else { continue }
            let added = decl.cases.filter { old.case(named: $0.name) == nil }
            let removed = old.cases.filter { decl.case(named: $0.name) == nil }
            if !added.isEmpty { changes.append(.enumCasesAdded(enum: decl.name, added)) }
            if !removed.isEmpty { changes.append(.enumCasesRemoved(enum: decl.name, removed)) }
            for item in decl.cases {
                if let previous = old.case(named: item.name), previous.rawValue != item.rawValue {
                    changes.append(.enumRawValueChanged(enum: decl.name, case: item.name, from: previous.rawValue, to: item.rawValue))
                }
            }
        }
        var continued: Set<String> = []
        for entity in to.entities {
            guard let old = Self.previous(of: entity, in: from) else {
                changes.append(.entityAdded(entity))
                continue
            }
            continued.insert(old.name)
            if old.name != entity.name || old.table != entity.table {
                changes.append(.entityRenamed(from: old, to: entity))
            }
            changes.append(contentsOf: Self.fieldChanges(from: old, to: entity, fromSchema: from, toSchema: to))
        }
        for entity in from.entities where !continued.contains(entity.name) {
            changes.append(.entityRemoved(entity))
        }
        self.changes = changes
    }

    /// How the stored objects of a field change when it holds a JSON value type at both versions
    /// and no `transform` computes it; nil otherwise.
    static func jsonShapeDiff(_ old: Field, _ new: Field, fromSchema: Schema, toSchema: Schema) -> JSONShapeDiff? {
        guard new.transform == nil, let oldDecl = old.type.valueTypeName.flatMap(fromSchema.valueType(named:)), oldDecl.isJSON,
            let newDecl = new.type.valueTypeName.flatMap(toSchema.valueType(named:)), newDecl.isJSON
        else { return nil }
        return JSONShapeDiff(from: oldDecl, in: fromSchema, to: newDecl, in: toSchema)
    }

    /// True when a reference now points at an entity that does not continue the one it pointed at.
    private static func targetChanged(_ old: Field, _ new: Field, fromSchema: Schema, toSchema: Schema) -> Bool {
        guard let oldTarget = old.referencedEntity, let newTarget = new.referencedEntity else { return false }
        guard let entity = toSchema.entity(named: newTarget) else { return true }
        return previous(of: entity, in: fromSchema)?.name != oldTarget
    }

    private static func fieldChanges(from old: Entity, to new: Entity, fromSchema: Schema, toSchema: Schema) -> [SchemaChange] {
        var changes: [SchemaChange] = []
        let name = new.name
        // The old fields continued, by name, with the name in N that continues them (the first).
        var renamed: [String: String] = [:]
        renamed.reserveCapacity(new.fields.count)
        for field in new.fields {
            guard let previous = previous(of: field, in: old) else {
                changes.append(.fieldAdded(entity: name, field))
                continue
            }
            if renamed[previous.name] == nil { renamed[previous.name] = field.name }
            if previous.name != field.name || previous.column != field.column {
                changes.append(.fieldRenamed(entity: name, from: previous, to: field))
            }
            let oldStorage = fromSchema.storageType(of: previous)
            let newStorage = toSchema.storageType(of: field)
            let sameKind: Bool
            switch (previous.type, field.type) {
            case (.scalar(let a), .scalar(let b)): sameKind = a == b
            case (.enumeration(let a), .enumeration(let b)): sameKind = a == b && oldStorage == newStorage
            // A value type and its storage type (or another value type stored alike) hold the same
            // stored values: only the Swift type changes, not the column.
            case (.value, .value), (.value, .scalar), (.scalar, .value): sameKind = oldStorage == newStorage
            case (.reference, .reference): sameKind = oldStorage == newStorage
            // Arrays whose elements are stored alike ([String] and an array of a String enum).
            case (.array, .array):
                let oldElements = fromSchema.arrayElementStorage(of: previous)
                sameKind = oldElements != nil && oldElements == toSchema.arrayElementStorage(of: field)
            default: sameKind = false
            }
            if !sameKind {
                changes.append(.typeChanged(entity: name, from: previous, to: field))
            } else if case .reference = field.type,
                targetChanged(previous, field, fromSchema: fromSchema, toSchema: toSchema) || previous.onDelete != field.onDelete
            {
                changes.append(.referenceChanged(entity: name, from: previous, to: field))
            }
            if sameKind, let shape = jsonShapeDiff(previous, field, fromSchema: fromSchema, toSchema: toSchema), !shape.isEmpty {
                changes.append(.jsonReshaped(entity: name, field, edits: shape.edits))
            }
            if previous.isOptional && !field.isOptional { changes.append(.becameRequired(entity: name, field)) }
            if !previous.isOptional && field.isOptional { changes.append(.becameOptional(entity: name, field)) }
            if previous.defaultValue != field.defaultValue { changes.append(.defaultChanged(entity: name, from: previous, to: field)) }
            if !previous.isUnique && field.isUnique { changes.append(.uniqueAdded(entity: name, field)) }
            if previous.isUnique && !field.isUnique { changes.append(.uniqueRemoved(entity: name, field)) }
        }
        for field in old.fields where renamed[field.name] == nil {
            changes.append(.fieldRemoved(entity: name, field))
        }
        // Keys and indexes are compared by the fields of N they cover (old names mapped through renames).
        let oldKey = old.primaryKey.map { renamed[$0] ?? $0 }
        if oldKey != new.primaryKey {
            changes.append(.primaryKeyChanged(entity: name, from: old.primaryKey, to: new.primaryKey))
        }
        func signature(_ index: Index, mapped: Bool) -> String {
            let fields = mapped ? index.fields.map { renamed[$0] ?? $0 } : index.fields
            let condition = index.condition.map { "\($0.sqlite ?? "")|\($0.postgres ?? "")" } ?? ""
            return "\(index.name)|\(index.isUnique)|\(fields.joined(separator: ","))|\(condition)"
        }
        let oldIndexes = Set(old.indexes.map { signature($0, mapped: true) })
        let newIndexes = Set(new.indexes.map { signature($0, mapped: false) })
        for index in old.indexes where !newIndexes.contains(signature(index, mapped: true)) {
            changes.append(.indexRemoved(entity: name, index))
        }
        for index in new.indexes where !oldIndexes.contains(signature(index, mapped: false)) {
            changes.append(.indexAdded(entity: name, index))
        }
        // Search over the same fields (old names mapped through renames) in the same language and
        // table stays; anything else is dropped and created again.
        let oldSearch = old.search.map { ($0.fields.map { renamed[$0] ?? $0 }, $0.language, old.table) }
        let newSearch = new.search.map { ($0.fields, $0.language, new.table) }
        if oldSearch?.0 != newSearch?.0 || oldSearch?.1 != newSearch?.1 || (oldSearch != nil && oldSearch?.2 != newSearch?.2) {
            changes.append(.searchChanged(entity: name, from: old.search, to: new.search))
        }
        return changes
    }
}
