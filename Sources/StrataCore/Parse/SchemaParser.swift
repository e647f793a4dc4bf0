/// Parses one version file into a `Schema`, reporting every problem it finds.
///
/// Names are resolved within the file (types, fields of indexes, `hasMany`); checks that need
/// the previous version (`renamedFrom`, `allowDataLoss`) are done by `HistoryValidator`.
struct SchemaParser {
    var reader: NodeReader
    let fileName: String

    static let topLevelKeys = SchemaKeys.topLevel
    static let enumKeys = SchemaKeys.enumeration
    static let entityKeys = SchemaKeys.entity
    static let fieldKeys = SchemaKeys.field
    static let indexKeys = SchemaKeys.index
    static let migrationKeys = SchemaKeys.migration

    /// Parses `text` read from `file` (the path as given; `fileName` is its last component).
    static func parse(_ text: String, file: String, fileName: String) -> (Schema?, [Diagnostic]) {
        var bag = DiagnosticBag()
        guard let document = YAMLDocument.parse(text, file: file, diagnostics: &bag) else {
            return (nil, bag.all)
        }
        var parser = SchemaParser(reader: NodeReader(file: file), fileName: fileName)
        let schema = parser.parseDocument(document.root)
        bag.append(contentsOf: parser.reader.diagnostics.all)
        if let schema {
            bag.append(contentsOf: SchemaValidator.validate(schema))
        }
        return (schema, bag.all)
    }

    private mutating func parseDocument(_ root: YAMLNode?) -> Schema? {
        let fileStart = SourceLocation.file(reader.file)
        guard let root else {
            reader.diagnostics.error(
                "the file is empty: a version needs 'model', 'version' and 'entities'", at: fileStart)
            return nil
        }
        guard let entries = reader.mapping(root, "a version file") else { return nil }
        reader.checkKeys(entries, allowed: Self.topLevelKeys, in: "a version file")
        let byKey = Dictionary(entries.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })

        var schema = Schema(
            model: "", version: 0, naming: .snakeCase, enums: [], entities: [], migration: MigrationHints(),
            file: reader.file, fileName: fileName)

        if let entry = byKey["model"] {
            schema.model = reader.nonEmptyString(entry.value, "'model'") ?? ""
            schema.modelLocation = reader.location(entry.value)
        } else {
            reader.diagnostics.error("missing key 'model' (the model's name)", at: location(of: root))
        }
        if let entry = byKey["version"] {
            schema.version = reader.integer(entry.value, "'version'") ?? 0
            schema.versionLocation = reader.location(entry.value)
        } else {
            reader.diagnostics.error("missing key 'version' (this file's version number)", at: location(of: root))
        }
        if let entry = byKey["naming"], let text = reader.string(entry.value, "'naming'") {
            if let naming = Naming(rawValue: text) {
                schema.naming = naming
            } else {
                reader.error(
                    "unknown naming '\(text)'; expected one of \(Naming.allCases.map(\.rawValue).joined(separator: ", "))"
                        + Suggestion.didYouMean(text, in: Naming.allCases.map(\.rawValue)),
                    at: entry.value)
            }
        }
        if let entry = byKey["enums"] {
            schema.enums = parseEnums(entry.value)
        }
        if let entry = byKey["types"] {
            schema.valueTypes = parseValueTypes(entry.value, enums: schema.enums)
            parseJSONMembers(entry.value, into: &schema.valueTypes, enums: schema.enums, naming: schema.naming)
        }
        if let entry = byKey["entities"] {
            let enumNames = Set(schema.enums.map(\.name))
            schema.entities = parseEntities(
                entry.value, enums: schema.enums, enumNames: enumNames, valueTypes: schema.valueTypes,
                naming: schema.naming)
        } else {
            reader.diagnostics.error("missing key 'entities'", at: location(of: root))
        }
        for decl in schema.valueTypes where schema.hasEntity(named: decl.name) {
            reader.diagnostics.error("value type '\(decl.name)' has the name of an entity", at: decl.location)
        }
        if let entry = byKey["migration"] {
            schema.migration = parseMigration(entry.value)
        }
        return schema
    }

    func location(of node: YAMLNode) -> SourceLocation { reader.location(node) }

    // MARK: Value types

    /// `types:`: each name with its storage, `Cents: Int64` or `Cents: { type: Int64, doc: … }`.
    private mutating func parseValueTypes(_ node: YAMLNode, enums: [EnumDecl]) -> [ValueTypeDecl] {
        guard let entries = reader.mapping(node, "'types'") else { return [] }
        let enumNames = Set(enums.map(\.name))
        return entries.compactMap { entry -> ValueTypeDecl? in
            let what = "value type '\(entry.key)'"
            var decl = ValueTypeDecl(name: entry.key, storage: .string, isExternal: false, location: entry.keyLocation)
            var typeNode = entry.value
            if case .mapping = entry.value {
                guard let fields = reader.mapping(entry.value, what) else { return nil }
                reader.checkKeys(fields, allowed: SchemaKeys.valueType, in: what)
                if let json = fields.first(where: { $0.key == "json" }) {
                    return parseJSONTypeHead(entry, fields: fields, members: json)
                }
                guard let type = fields.first(where: { $0.key == "type" }) else {
                    reader.diagnostics.error("\(what) needs a 'type': the built-in type it is stored as", at: entry.keyLocation)
                    return nil
                }
                typeNode = type.value
                for field in fields {
                    switch field.key {
                    case "external": decl.isExternal = reader.bool(field.value, "'external'") ?? false
                    case "doc": decl.doc = reader.string(field.value, "'doc'")
                    default: break
                    }
                }
            }
            guard let written = reader.string(typeNode, "the type of \(what)") else { return nil }
            guard let storage = ScalarType(rawValue: written) else {
                let names = ScalarType.allCases.map(\.name)
                reader.error(
                    "\(what) must be stored as a built-in type, not '\(written)'; expected one of \(names.joined(separator: ", "))"
                        + Suggestion.didYouMean(written, in: names), at: typeNode)
                return nil
            }
            decl.storage = storage
            if storage == .json {
                reader.error(
                    "\(what) is stored as JSON: declare its members with 'json:' ({ json: { name: String, … } }), or type fields 'JSON' directly",
                    at: typeNode)
                return nil
            }
            if !SchemaValidator.isSwiftIdentifier(entry.key) {
                reader.diagnostics.error("\(what) is not a Swift type name", at: entry.keyLocation)
                return nil
            }
            if ScalarType(rawValue: entry.key) != nil || enumNames.contains(entry.key) {
                reader.diagnostics.error(
                    "\(what) has the name of \(enumNames.contains(entry.key) ? "an enum" : "a built-in type")", at: entry.keyLocation)
                return nil
            }
            return decl
        }
    }

    // MARK: Enums

    private mutating func parseEnums(_ node: YAMLNode) -> [EnumDecl] {
        guard let entries = reader.mapping(node, "'enums'") else { return [] }
        return entries.compactMap { parseEnum(name: $0.key, at: $0.keyLocation, $0.value) }
    }

    private mutating func parseEnum(name: String, at location: SourceLocation, _ node: YAMLNode) -> EnumDecl? {
        let what = "enum '\(name)'"
        guard let entries = reader.mapping(node, what) else { return nil }
        reader.checkKeys(entries, allowed: Self.enumKeys, in: what)
        var decl = EnumDecl(name: name, rawType: .int, cases: [], unknownCase: nil, doc: nil, location: location)
        var rawTypeIsValid = true
        var casesNode: YAMLNode?
        var unknownNode: YAMLNode?
        for entry in entries {
            switch entry.key {
            case "type":
                guard let text = reader.string(entry.value, "the raw type of \(what)") else {
                    rawTypeIsValid = false
                    continue
                }
                if let rawType = EnumRawType(rawValue: text) {
                    decl.rawType = rawType
                } else {
                    rawTypeIsValid = false
                    let names = EnumRawType.allCases.map(\.rawValue)
                    reader.error(
                        "unknown raw type '\(text)' for \(what); expected one of \(names.joined(separator: ", "))"
                            + Suggestion.didYouMean(text, in: names), at: entry.value)
                }
            case "cases": casesNode = entry.value
            case "unknown": unknownNode = entry.value
            case "doc": decl.doc = reader.string(entry.value, "'doc'")
            default: break
            }
        }
        if !entries.contains(where: { $0.key == "type" }) {
            reader.diagnostics.error("\(what) needs a raw 'type' (Int16, Int32, Int64, Int or String)", at: location)
        }
        guard let casesNode else {
            reader.diagnostics.error("\(what) needs 'cases'", at: location)
            return decl
        }
        if rawTypeIsValid {
            decl.cases = parseCases(casesNode, of: decl)
        }
        if let unknownNode, let unknown = reader.string(unknownNode, "'unknown'") {
            if decl.case(named: unknown) != nil || !rawTypeIsValid {
                decl.unknownCase = unknown
            } else {
                reader.error(
                    "'unknown' names '\(unknown)', which is not a case of \(name)"
                        + Suggestion.didYouMean(unknown, in: decl.cases.map(\.name)), at: unknownNode)
            }
        }
        return decl
    }

    private mutating func parseCases(_ node: YAMLNode, of decl: EnumDecl) -> [EnumDecl.Case] {
        let what = "the cases of enum '\(decl.name)'"
        var cases: [EnumDecl.Case] = []
        switch node {
        case .sequence(let list):
            for (offset, item) in list.items.enumerated() {
                guard let name = reader.string(item, "a case name") else { continue }
                let raw: Literal = decl.rawType == .string ? .string(name) : .integer(Int64(offset))
                cases.append(EnumDecl.Case(name: name, rawValue: raw, location: location(of: item)))
            }
        case .mapping:
            for entry in reader.mapping(node, what) ?? [] {
                guard let raw = rawValue(entry.value, of: decl) else { continue }
                cases.append(EnumDecl.Case(name: entry.key, rawValue: raw, location: entry.keyLocation))
            }
        default:
            reader.error(
                "\(what) must be a list of names or a mapping of names to raw values, found \(NodeReader.kind(of: node))",
                at: node)
        }
        if cases.isEmpty, case .sequence = node {
            reader.error("enum '\(decl.name)' needs at least one case", at: node)
        }
        return cases
    }

    private mutating func rawValue(_ node: YAMLNode, of decl: EnumDecl) -> Literal? {
        if decl.rawType == .string {
            return reader.string(node, "a raw value of \(decl.name) (String)").map(Literal.string)
        }
        guard let value = reader.integer(node, "a raw value of \(decl.name) (\(decl.rawType.rawValue))") else {
            return nil
        }
        if let range = decl.rawType.scalar.integerRange, !range.contains(Int64(value)) {
            reader.error("raw value \(value) does not fit in \(decl.rawType.rawValue)", at: node)
            return nil
        }
        return .integer(Int64(value))
    }

    // MARK: Migration

    private mutating func parseMigration(_ node: YAMLNode) -> MigrationHints {
        var hints = MigrationHints(location: location(of: node))
        guard let entries = reader.mapping(node, "'migration'") else { return hints }
        reader.checkKeys(entries, allowed: Self.migrationKeys, in: "'migration'")
        for entry in entries {
            switch entry.key {
            case "allowDataLoss": hints.allowDataLoss = names(entry.value, "allowDataLoss")
            case "allowLocks": hints.allowLocks = names(entry.value, "allowLocks")
            case "rolling":
                hints.rolling = reader.bool(entry.value, "'rolling'") ?? false
                hints.rollingLocation = entry.keyLocation
            case "before": hints.before = reader.dialectSQL(entry.value, "'before'")
            case "after": hints.after = reader.dialectSQL(entry.value, "'after'")
            default: break
            }
        }
        return hints
    }

    /// The items of a list of `Entity` or `Entity.field` names (`allowDataLoss`, `allowLocks`).
    private mutating func names(_ node: YAMLNode, _ key: String) -> [DataLossAllowance] {
        var items: [DataLossAllowance] = []
        for (text, where_) in reader.stringList(node, "'\(key)'") ?? [] {
            let parts = text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            guard (1...2).contains(parts.count), parts.allSatisfy({ !$0.isEmpty }) else {
                reader.diagnostics.error("'\(key)' items are 'Entity' or 'Entity.field', found '\(text)'", at: where_)
                continue
            }
            items.append(DataLossAllowance(entity: parts[0], field: parts.count == 2 ? parts[1] : nil, location: where_))
        }
        return items
    }
}
