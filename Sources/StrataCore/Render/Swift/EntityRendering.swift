/// What the record renderers know about one entity: its names, key, relations and Swift types.
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

    var types: SwiftFieldTypes { SwiftFieldTypes(schema: schema) }

    var record: String { names.record(entity) }

    /// The primary key fields, in key order (validation makes sure every entity has one).
    var keyFields: [Field] { entity.primaryKeyFields }

    /// The Swift type of the key: the key field's type, or a tuple of them in key order.
    var keyType: String { types.keyType(of: entity) }

    /// True when generic `find(id:)` reads as the schema does (one key field named `id`), so no
    /// key-labeled methods are generated.
    var keyIsID: Bool { keyFields.count == 1 && keyFields[0].name == "id" }

    /// The internal name of the key parameter(s): `key` for a single key field (its label is the
    /// field's name, e.g. `find(email key: String)`); for a composite key, each field's own name
    /// (`find(order: UUID, position: Int16)`), unless it is a name the method's other parameter
    /// uses (`assignments`), then `key1`, `key2`, ….
    func keyName(_ offset: Int) -> String {
        guard keyFields.count > 1 else { return "key" }
        let names = keyFields.map(\.name)
        guard !names.contains("assignments") else { return "key\(offset + 1)" }
        return SwiftNames.identifier(names[offset])
    }

    /// `id key: UUID` or `order: UUID, position: Int16`: the key parameters.
    var keyParameters: [String] {
        keyFields.enumerated().map { offset, field in
            let label = SwiftNames.argumentLabel(field.name)
            let name = keyName(offset)
            return label == name ? "\(label): \(types.baseType(of: field))" : "\(label) \(name): \(types.baseType(of: field))"
        }
    }

    /// `key` or `(key1, key2)`: the key parameters as a value of ``keyType``.
    var keyValue: String {
        let names = keyFields.indices.map(keyName)
        return names.count == 1 ? names[0] : "(" + names.joined(separator: ", ") + ")"
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
    var nonKeyFields: [Field] { entity.fields.filter { !entity.primaryKey.contains($0.name) } }

    /// The internal parameter name for a new value of `field` in the field-update method.
    func newValueName(_ field: Field) -> String {
        let utf8 = field.name.utf8
        guard let first = utf8.first else { return "newValue" }
        if first >= UInt8(ascii: "a") && first <= UInt8(ascii: "z") {
            // The usual case, without Unicode's case mapping.
            var name = "new"
            name.unicodeScalars.append(Unicode.Scalar(first - 32))
            name += Substring(utf8.dropFirst())
            return name
        }
        guard let character = field.name.first else { return "newValue" }
        return "new" + character.uppercased() + field.name.dropFirst()
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

    /// `hasMany` accessors whose entity and `via` field exist, with the via field (one-to-many).
    var toMany: [(relation: HasMany, target: Entity, via: Field)] {
        entity.hasMany.compactMap { relation in
            guard relation.through == nil, let target = schema.entity(named: relation.entity),
                let via = target.field(named: relation.via), entity.singlePrimaryKey != nil
            else { return nil }
            return (relation, target, via)
        }
    }

    /// `hasMany … through:` accessors whose entities and link fields exist (many-to-many).
    var manyToMany: [(relation: HasMany, target: Entity, join: Entity, from: Field, to: Field)] {
        entity.hasMany.compactMap { relation in
            guard let target = schema.entity(named: relation.entity), entity.singlePrimaryKey != nil,
                let (join, from, to) = schema.link(of: relation, from: entity)
            else { return nil }
            return (relation, target, join, from, to)
        }
    }

    /// The closure parameter types of filters, sorts and assignments of `entity`'s records.
    func filterType(_ entity: Entity) -> String {
        "((StrataColumns<\(names.record(entity))>) -> StrataPredicate<\(names.record(entity))>)?"
    }
    func orderType(_ entity: Entity) -> String {
        "((StrataColumns<\(names.record(entity))>) -> [StrataOrdering<\(names.record(entity))>])?"
    }
    var assignmentsType: String { "(StrataColumns<\(record)>) -> [StrataAssignment<\(record)>]" }
}

extension SwiftWriter {
    /// True when `text` fits in 120 columns at the current indentation.
    func fits(_ text: String) -> Bool {
        // No more characters than UTF-8 bytes: most lines are decided without counting characters.
        text.utf8.count + depth * 4 <= 120 || text.count + depth * 4 <= 120
    }

    /// False when `pieces` and `items` joined by `", "` certainly do not fit in 120 columns (more
    /// bytes than that, all ASCII), so that a long line is not built only to be thrown away.
    private func mayFit(_ pieces: [String], _ items: [String]) -> Bool {
        let all = pieces + items
        let bytes = all.reduce(max(0, items.count - 1) * 2) { $0 + $1.utf8.count }
        return bytes + depth * 4 <= 120 || !all.allSatisfy { $0.utf8.allSatisfy { $0 < 0x80 } }
    }

    /// `prefix(items)suffix` on one line when it fits, otherwise one item per line between the
    /// opening and closing delimiters, as swift-format lays out a call, array or declaration
    /// that does not fit.
    mutating func wrapped(_ prefix: String, _ items: [String], _ suffix: String = "", open: String = "(", close: String = ")") {
        if mayFit([prefix, open, close, suffix], items) {
            let single = "\(prefix)\(open)\(items.joined(separator: ", "))\(close)\(suffix)"
            if fits(single) {
                line(single)
                return
            }
        }
        // swift-format ends a multi-line collection literal's last element with a comma.
        let last = open == "[" ? "," : ""
        line(prefix + open)
        lines(items.enumerated().map { "    \($1)\($0 == items.count - 1 ? last : ",")" })
        line(close + suffix)
    }

    /// `callee(leading…, label: [elements], trailing…)` on one line when it fits, otherwise as
    /// swift-format lays out a call whose array argument does not fit: an argument per line, and
    /// the array's elements one per line, each with a comma.
    mutating func call(
        _ callee: String, _ leading: [String], array label: String, _ elements: [String], _ trailing: [String] = []
    ) {
        let array = "\(label): [\(elements.joined(separator: ", "))]"
        if mayFit([callee, "()"] + leading + trailing, [array]) {
            let single = "\(callee)(\((leading + [array] + trailing).joined(separator: ", ")))"
            if fits(single) {
                line(single)
                return
            }
        }
        line(callee + "(")
        lines(leading.map { "    \($0)," })
        line("    \(label): [")
        lines(elements.map { "        \($0)," })
        line(trailing.isEmpty ? "    ]" : "    ],")
        lines(trailing.enumerated().map { "    \($1)\($0 == trailing.count - 1 ? "" : ",")" })
        line(")")
    }

    /// A declaration with parameters and a body: its signature on one line when it fits, otherwise
    /// one parameter per line.
    mutating func function(_ prefix: String, parameters: [String], suffix: String, _ body: (inout SwiftWriter) -> Void) {
        if mayFit([prefix, "(", ")", suffix, " {"], parameters) {
            let single = "\(prefix)(\(parameters.joined(separator: ", ")))\(suffix)"
            if fits(single + " {") {
                block(single, body)
                return
            }
        }
        line("\(prefix)(")
        lines(parameters.enumerated().map { "    \($1)\($0 == parameters.count - 1 ? "" : ",")" })
        block(")\(suffix)", body)
    }
}
