/// What the repository renderers know about one entity: its names, SQL, key and coding.
struct EntityRendering {
    let schema: Schema
    let entity: Entity
    /// The model's names: made once per model and shared (they look at every entity).
    let names: RepositoryNames

    /// What the renderers need for `entity`; `names` of the model when the caller has them.
    init(schema: Schema, entity: Entity, names: RepositoryNames? = nil) {
        self.schema = schema
        self.entity = entity
        self.names = names ?? RepositoryNames(schema: schema)
    }

    var coding: RecordCoding { RecordCoding(schema: schema) }
    var sql: RepositorySQL { RepositorySQL(entity: entity) }

    var record: String { names.record(entity) }
    var columns: String { names.columns(entity) }
    var access: String { names.entityAccess(entity) }
    var repository: String { names.repository(entity) }
    var statements: String { names.statements(entity) }

    /// The primary key fields (empty when the entity has none: no key-based operations then).
    var keyFields: [Field] { entity.primaryKeyFields }
    var hasKey: Bool { !keyFields.isEmpty && keyFields.count == entity.primaryKey.count }

    /// The internal name of the key parameter(s): `key`, or `key1`, `key2`, … for a composite key.
    func keyName(_ offset: Int) -> String { keyFields.count == 1 ? "key" : "key\(offset + 1)" }

    /// `id key: UUID` or `order key1: UUID, position key2: Int16`: the key parameters.
    var keyParameters: String {
        keyFields.enumerated().map { offset, field in
            "\(SwiftNames.argumentLabel(field.name)) \(keyName(offset)): \(coding.baseType(of: field))"
        }.joined(separator: ", ")
    }

    /// `id: key` or `order: key1, position: key2`: the key arguments, passing the parameters on.
    var keyArguments: String {
        keyFields.enumerated().map { offset, field in "\(SwiftNames.argumentLabel(field.name)): \(keyName(offset))" }
            .joined(separator: ", ")
    }

    /// The key arguments taken from `record`'s properties (after `keyGuard` for autoincremented keys).
    func keyArguments(of record: String) -> String {
        keyFields.enumerated().map { offset, field in
            let value = field.isAutoincrement ? keyName(offset) : "\(record).\(SwiftNames.identifier(field.name))"
            return "\(SwiftNames.argumentLabel(field.name)): \(value)"
        }.joined(separator: ", ")
    }

    /// `guard let key = record.id else { return … }` for an autoincremented key, or nothing.
    func keyGuard(of record: String, otherwise result: String) -> [String] {
        keyFields.enumerated().compactMap { offset, field in
            guard field.isAutoincrement else { return nil }
            return
                "guard let \(keyName(offset)) = \(record).\(SwiftNames.identifier(field.name)) else { return \(result) }"
        }
    }

    /// The predicate matching the key parameters: `columns.id == key`.
    var keyPredicate: String {
        keyFields.enumerated().map { offset, field in
            "columns.\(SwiftNames.identifier(field.name)) == \(keyName(offset))"
        }.joined(separator: " && ")
    }

    /// A swift-format exemption for a declaration whose parameter labels are field names that are
    /// not lowerCamelCase.
    func exemptions(for fields: [Field]) -> [String] {
        fields.contains { !SwiftNames.isLowerCamelCase($0.name) }
            ? ["// swift-format-ignore: AlwaysUseLowerCamelCase"] : []
    }

    /// The autoincremented field, if the entity has one.
    var autoincrement: Field? { entity.autoincrementField }

    /// The non-key fields, which updates change.
    var nonKeyFields: [Field] { sql.nonKeyFields }

    /// The name of the first parameter of the field-update method: `record`, unless a field has that name.
    var recordParameter: String { "record" }

    /// The internal parameter name for a new value of `field` in the field-update method.
    func newValueName(_ field: Field) -> String {
        guard let first = field.name.first else { return "newValue" }
        return "new" + first.uppercased() + field.name.dropFirst()
    }

    /// Reference fields whose target has a single-field key, with their target entity.
    var references: [(field: Field, target: Entity)] {
        entity.fields.compactMap { field in
            guard let name = field.referencedEntity, let target = schema.entity(named: name),
                target.singlePrimaryKey != nil
            else { return nil }
            return (field, target)
        }
    }

    /// `hasMany` accessors whose entity and `via` field exist, with the via field.
    var toMany: [(relation: HasMany, target: Entity, via: Field)] {
        entity.hasMany.compactMap { relation in
            guard let target = schema.entity(named: relation.entity), let via = target.field(named: relation.via),
                entity.singlePrimaryKey != nil
            else { return nil }
            return (relation, target, via)
        }
    }

    /// The closure parameter types of filters and sorts.
    var filterType: String { "((\(columns)) -> StrataPredicate<\(record)>)?" }
    var orderType: String { "((\(columns)) -> [StrataOrdering<\(record)>])?" }
    var assignmentsType: String { "(\(columns)) -> [StrataAssignment<\(record)>]" }
}

extension SwiftWriter {
    /// True when `text` fits in 120 columns at indentation `depth`.
    static func fits(_ text: String, depth: Int) -> Bool {
        // No more characters than UTF-8 bytes: most lines are decided without counting characters.
        text.utf8.count + depth * 4 <= 120 || text.count + depth * 4 <= 120
    }

    /// `prefix(arguments)suffix` on one line when it fits at `depth`, otherwise one argument per
    /// line, as swift-format lays out a call that does not fit.
    /// `indent` is added before every line (for a call nested in a closure written line by line).
    mutating func call(_ prefix: String, arguments: [String], suffix: String = "", depth: Int, indent: String = "") {
        let single = "\(prefix)(\(arguments.joined(separator: ", ")))\(suffix)"
        if Self.fits(indent + single, depth: depth) {
            line(indent + single)
            return
        }
        line("\(indent)\(prefix)(")
        lines(arguments.enumerated().map { "\(indent)    \($1)\($0 == arguments.count - 1 ? "" : ",")" })
        line("\(indent))\(suffix)")
    }

    /// `static let name = literal`, with the literal on the next line when the line would not fit.
    mutating func constant(_ declaration: String, literal: String, depth: Int) {
        let single = "\(declaration) = \(literal)"
        if Self.fits(single, depth: depth) {
            line(single)
        } else {
            line("\(declaration) =")
            line("    " + literal)
        }
    }

    /// A declaration with parameters: on one line when it fits in 120 columns at the current
    /// depth, otherwise one parameter per line.
    mutating func declaration(
        _ prefix: String,
        parameters: [String],
        suffix: String,
        depth: Int,
        _ body: (inout SwiftWriter) -> Void
    ) {
        let single = "\(prefix)(\(parameters.joined(separator: ", ")))\(suffix) {"
        if Self.fits(single, depth: depth) {
            block(String(single.dropLast(2)), body)
            return
        }
        line("\(prefix)(")
        lines(parameters.enumerated().map { "    \($1)\($0 == parameters.count - 1 ? "" : ",")" })
        block(")\(suffix)", body)
    }
}
