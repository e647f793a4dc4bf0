/// A table that a migration keeps (an entity of N and the entity of N-1 it continues), with the
/// fields a statement of the migration can concern.
///
/// A field that stays exactly as it was (the same name, column, type, optionality, default,
/// uniqueness and key role; no `transform`; a scalar, or an enum whose raw type, cases and raw
/// values stay; on a table that keeps its name) needs no statement: no value, type, default,
/// constraint or name of its column changes. Such fields are left out of ``fields`` once, so
/// that the renderer's passes over a large model look only at what changes. References always
/// stay in, since their constraint follows the referenced table.
struct ContinuedTable {
    /// The entity in version N.
    let entity: Entity
    /// The entity of N-1 it continues.
    let old: Entity
    /// Each field of `entity` that a statement can concern, in declaration order, with the field
    /// of `old` it continues (nil for a new field).
    let fields: [(field: Field, previous: Field?)]
    /// The names (in N-1) of the fields of `old` that a field of `entity` continues.
    let keptFields: Set<String>

    /// `entity` continuing `old`; `stableEnums` are the enums of N that
    /// ``stableEnums(of:)`` gives for the migration.
    init(_ entity: Entity, old: Entity, stableEnums: Set<String>) {
        self.entity = entity
        self.old = old
        var fields: [(field: Field, previous: Field?)] = []
        var kept: Set<String> = []
        kept.reserveCapacity(entity.fields.count)
        let sameTable = entity.table == old.table
        for field in entity.fields {
            let previous = SchemaDiff.previous(of: field, in: old)
            if let previous {
                kept.insert(previous.name)
                if sameTable && Self.staysTheSame(field, previous: previous, stableEnums: stableEnums) { continue }
            }
            fields.append((field, previous))
        }
        self.fields = fields
        self.keptFields = kept
    }

    /// True when `field` declares its column exactly as `previous` did, with no transform.
    static func staysTheSame(_ field: Field, previous: Field, stableEnums: Set<String>) -> Bool {
        guard field.transform == nil, field.name == previous.name, field.column == previous.column,
            field.type == previous.type, field.isOptional == previous.isOptional,
            field.isAutoincrement == previous.isAutoincrement, field.isUnique == previous.isUnique,
            field.onDelete == previous.onDelete, field.defaultValue == previous.defaultValue
        else { return false }
        switch field.type {
        case .scalar: return true
        case .enumeration(let name), .value(let name): return stableEnums.contains(name)
        case .array(.scalar): return true
        case .array(.enumeration(let name)), .array(.value(let name)): return stableEnums.contains(name)
        case .reference, .array: return false
        }
    }

    /// The enums of the migration's version N that have the same name, raw type, cases and raw
    /// values in N-1, and its value types stored as they were in N-1.
    static func stableEnums(of plan: MigrationPlan) -> Set<String> {
        var names: Set<String> = []
        for decl in plan.to.enums {
            guard let old = plan.from.enumDecl(named: decl.name), old.rawType == decl.rawType,
                old.cases.count == decl.cases.count,
                zip(old.cases, decl.cases).allSatisfy({ $0.name == $1.name && $0.rawValue == $1.rawValue })
            else { continue }
            names.insert(decl.name)
        }
        for decl in plan.to.valueTypes {
            guard let old = plan.from.valueType(named: decl.name), old.storage == decl.storage else { continue }
            // A JSON value type whose stored objects change is not.
            if decl.isJSON, !JSONShapeDiff(from: old, in: plan.from, to: decl, in: plan.to).isEmpty { continue }
            names.insert(decl.name)
        }
        return names
    }
}
