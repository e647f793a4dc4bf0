/// Everything derived for the migration from version N-1 to N: the typed changes, the steps in
/// words, the guard diagnostics, and for every table of N where its values come from.
public struct MigrationPlan: Sendable {
    /// The changes.
    public var diff: SchemaDiff {
        didSet {
            changesByEntity = Self.grouped(diff.changes)
            changedEnums = Self.changedEnums(diff.changes)
        }
    }
    /// The steps, in the order of `diff.changes`.
    public var steps: [MigrationStep]
    /// Guard errors and warnings, located in vN.yaml.
    public var diagnostics: [Diagnostic]
    /// `diff.changes` by entity name (in N), each in order: `changes(of:)` without scanning every
    /// change of the model for every entity (quadratic on large models).
    private var changesByEntity: [String: [SchemaChange]]
    /// The enums (by name in N) whose cases or raw values change.
    private var changedEnums: Set<String>

    /// A plan of `diff`'s changes.
    public init(diff: SchemaDiff, steps: [MigrationStep], diagnostics: [Diagnostic]) {
        self.diff = diff
        self.steps = steps
        self.diagnostics = diagnostics
        self.changesByEntity = Self.grouped(diff.changes)
        self.changedEnums = Self.changedEnums(diff.changes)
    }

    private static func changedEnums(_ changes: [SchemaChange]) -> Set<String> {
        var names: Set<String> = []
        for change in changes {
            switch change {
            case .enumCasesAdded(let name, _), .enumCasesRemoved(let name, _), .enumRawValueChanged(let name, _, _, _):
                names.insert(name)
            default:
                break
            }
        }
        return names
    }

    /// True when the cases or raw values of the enum `name` (in N) change.
    public func enumChanges(_ name: String) -> Bool { changedEnums.contains(name) }

    private static func grouped(_ changes: [SchemaChange]) -> [String: [SchemaChange]] {
        var grouped: [String: [SchemaChange]] = [:]
        for change in changes {
            if let name = change.entityName { grouped[name, default: []].append(change) }
        }
        return grouped
    }

    /// Version N-1.
    public var from: Schema { diff.from }
    /// Version N.
    public var to: Schema { diff.to }

    /// True when no step changes anything.
    public var isEmpty: Bool { steps.isEmpty && to.migration.before == nil && to.migration.after == nil }

    /// The entity of N-1 that `entity` continues.
    public func previous(of entity: Entity) -> Entity? { diff.previous(of: entity) }

    /// The changes that concern `entity` (by its name in N).
    public func changes(of entity: Entity) -> [SchemaChange] {
        changesByEntity[entity.name] ?? []
    }

    /// Where each field of a continued entity gets its values.
    public func source(of field: Field, in entity: Entity) -> ValueSource {
        guard let old = previous(of: entity), let previousField = SchemaDiff.previous(of: field, in: old) else {
            return ValueSource(previous: nil, conversion: field.transform.map(Conversion.transform) ?? .keep, fill: nil, remap: [])
        }
        var conversion = Conversion.keep
        if let transform = field.transform {
            conversion = .transform(transform)
        } else if let from = from.storageType(of: previousField), let to = to.storageType(of: field), from != to {
            conversion = .cast(from: from, to: to)
        }
        var fill: Conversion?
        if previousField.isOptional && !field.isOptional, field.transform == nil {
            fill = field.defaultValue != nil ? .keep : nil
        }
        var source = ValueSource(previous: previousField, conversion: conversion, fill: fill, remap: remap(from: previousField, to: field))
        source.reshape = SchemaDiff.jsonShapeDiff(previousField, field, fromSchema: from, toSchema: to)?.edits ?? []
        return source
    }

    /// The raw values that change for an enum field kept as the same enum.
    private func remap(from old: Field, to new: Field) -> [RawValueMapping] {
        guard case .enumeration(let oldName) = old.type, case .enumeration(let newName) = new.type, new.transform == nil,
            let oldDecl = from.enumDecl(named: oldName), let newDecl = to.enumDecl(named: newName)
        else { return [] }
        var mappings: [RawValueMapping] = []
        for item in oldDecl.cases {
            if let kept = newDecl.case(named: item.name) {
                if kept.rawValue != item.rawValue { mappings.append(RawValueMapping(from: item.rawValue, to: kept.rawValue)) }
            } else if let fallback = newDecl.unknownCase.flatMap({ newDecl.case(named: $0) }) {
                mappings.append(RawValueMapping(from: item.rawValue, to: fallback.rawValue))
            }
        }
        return mappings
    }
}
