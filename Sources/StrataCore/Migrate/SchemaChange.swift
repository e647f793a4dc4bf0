/// One difference between version N-1 and version N of a model, as a typed value.
///
/// Entities and fields are matched by name, or through `renamedFrom` (never by guessing); a
/// renamed field can change in other ways too, each reported as its own change.
public enum SchemaChange: Hashable, Sendable {
    case entityAdded(Entity)
    case entityRemoved(Entity)
    /// The entity was renamed (`renamedFrom`) or its table name changed (`table:`, `naming`).
    case entityRenamed(from: Entity, to: Entity)
    case fieldAdded(entity: String, Field)
    case fieldRemoved(entity: String, Field)
    /// The field was renamed (`renamedFrom`) or its column name changed (`column:`, `naming`).
    case fieldRenamed(entity: String, from: Field, to: Field)
    /// The stored type changed (scalar type, enum, or referenced entity's key type).
    case typeChanged(entity: String, from: Field, to: Field)
    case becameRequired(entity: String, Field)
    case becameOptional(entity: String, Field)
    case defaultChanged(entity: String, from: Field, to: Field)
    case uniqueAdded(entity: String, Field)
    case uniqueRemoved(entity: String, Field)
    /// The referenced entity or the `onDelete` action changed.
    case referenceChanged(entity: String, from: Field, to: Field)
    case primaryKeyChanged(entity: String, from: [String], to: [String])
    case indexAdded(entity: String, Index)
    case indexRemoved(entity: String, Index)
    /// The full-text search (`search:`) was added, removed, or changed its fields, language or
    /// table: the old one (nil when added) is dropped and the new one (nil when removed) created.
    case searchChanged(entity: String, from: FullTextSearch?, to: FullTextSearch?)
    /// The shape of the JSON value type a field holds changed: the edits made to each stored value
    /// (``JSONShapeDiff``; none when only members inside arrays are dropped).
    case jsonReshaped(entity: String, Field, edits: [JSONEdit])
    case enumCasesAdded(enum: String, [EnumDecl.Case])
    case enumCasesRemoved(enum: String, [EnumDecl.Case])
    case enumRawValueChanged(enum: String, case: String, from: Literal, to: Literal)

    /// The entity (name in version N; in N-1 for removals) the change concerns, if any.
    public var entityName: String? {
        switch self {
        case .entityAdded(let entity), .entityRemoved(let entity): return entity.name
        case .entityRenamed(_, let to): return to.name
        case .fieldAdded(let entity, _), .fieldRemoved(let entity, _), .fieldRenamed(let entity, _, _),
            .typeChanged(let entity, _, _), .becameRequired(let entity, _), .becameOptional(let entity, _),
            .defaultChanged(let entity, _, _), .uniqueAdded(let entity, _), .uniqueRemoved(let entity, _),
            .referenceChanged(let entity, _, _), .primaryKeyChanged(let entity, _, _), .indexAdded(let entity, _),
            .indexRemoved(let entity, _), .searchChanged(let entity, _, _), .jsonReshaped(let entity, _, _):
            return entity
        case .enumCasesAdded, .enumCasesRemoved, .enumRawValueChanged: return nil
        }
    }

    /// The change in words, for `strata plan`.
    public var summary: String {
        switch self {
        case .entityAdded(let entity): return "add entity \(entity.name) (table \(entity.table))"
        case .entityRemoved(let entity): return "remove entity \(entity.name) (table \(entity.table) and its rows)"
        case .entityRenamed(let from, let to):
            return from.name == to.name
                ? "rename table \(from.table) of \(to.name) to \(to.table)"
                : "rename entity \(from.name) to \(to.name) (table \(from.table) -> \(to.table))"
        case .fieldAdded(let entity, let field): return "add field \(entity).\(field.name)"
        case .fieldRemoved(let entity, let field): return "remove field \(entity).\(field.name) (column \(field.column) and its values)"
        case .fieldRenamed(let entity, let from, let to):
            return from.name == to.name
                ? "rename column \(from.column) of \(entity).\(to.name) to \(to.column)"
                : "rename field \(entity).\(from.name) to \(to.name) (column \(from.column) -> \(to.column))"
        case .typeChanged(let entity, let from, let to):
            return "change the type of \(entity).\(to.name) from \(from.type)\(from.isOptional ? "?" : "") to \(to.type)\(to.isOptional ? "?" : "")"
        case .becameRequired(let entity, let field): return "make \(entity).\(field.name) required"
        case .becameOptional(let entity, let field): return "make \(entity).\(field.name) optional"
        case .defaultChanged(let entity, let from, let to):
            return "change the default of \(entity).\(to.name) from \(from.defaultValue?.description ?? "none") to \(to.defaultValue?.description ?? "none")"
        case .uniqueAdded(let entity, let field): return "make \(entity).\(field.name) unique"
        case .uniqueRemoved(let entity, let field): return "drop the unique constraint of \(entity).\(field.name)"
        case .referenceChanged(let entity, let from, let to):
            return "change the reference \(entity).\(to.name) from \(from.type) (onDelete \(from.onDelete.rawValue)) to \(to.type) (onDelete \(to.onDelete.rawValue))"
        case .primaryKeyChanged(let entity, let from, let to):
            return "change the primary key of \(entity) from (\(from.joined(separator: ", "))) to (\(to.joined(separator: ", ")))"
        case .indexAdded(let entity, let index): return "add \(index.isUnique ? "unique " : "")index \(index.name) on \(entity)(\(index.fields.joined(separator: ", ")))"
        case .indexRemoved(let entity, let index): return "drop index \(index.name) of \(entity)"
        case .searchChanged(let entity, let from, let to):
            func spelled(_ search: FullTextSearch) -> String {
                "(\(search.fields.joined(separator: ", ")); \(search.language.rawValue))"
            }
            switch (from, to) {
            case (nil, let to?): return "add full-text search of \(entity) \(spelled(to))"
            case (let from?, nil): return "drop full-text search of \(entity) \(spelled(from))"
            case (let from?, let to?): return "change full-text search of \(entity) from \(spelled(from)) to \(spelled(to))"
            case (nil, nil): return "full-text search of \(entity)"
            }
        case .jsonReshaped(let entity, let field, let edits):
            let what = edits.isEmpty ? "members dropped inside arrays" : edits.map(\.summary).joined(separator: ", ")
            return "reshape the JSON of \(entity).\(field.name) (\(field.type)): \(what)"
        case .enumCasesAdded(let name, let cases): return "add case\(cases.count == 1 ? "" : "s") \(cases.map(\.name).joined(separator: ", ")) to enum \(name)"
        case .enumCasesRemoved(let name, let cases): return "remove case\(cases.count == 1 ? "" : "s") \(cases.map(\.name).joined(separator: ", ")) from enum \(name)"
        case .enumRawValueChanged(let name, let item, let from, let to): return "change the raw value of \(name).\(item) from \(from) to \(to)"
        }
    }
}
