import Yams

extension SchemaParser {
    /// The names a column (`StrataColumn`) declares itself, which a member's filter property
    /// cannot take.
    static let columnMemberNames: Set<String> = [
        "sql", "dateText", "argument", "ascending", "descending", "in", "notIn", "isNull", "isNotNull", "like", "member",
        "matches",
    ]

    /// A JSON value type's declaration, before its members (read once every type's name is
    /// known, so members may name types declared after them): `Settings: { json: {…}, doc: … }`.
    mutating func parseJSONTypeHead(_ entry: NodeReader.Entry, fields: [NodeReader.Entry], members: NodeReader.Entry)
        -> ValueTypeDecl?
    {
        let what = "JSON value type '\(entry.key)'"
        var decl = ValueTypeDecl(name: entry.key, storage: .json, isExternal: false, location: entry.keyLocation)
        decl.members = []
        for field in fields {
            switch field.key {
            case "doc": decl.doc = reader.string(field.value, "'doc'")
            case "type", "external":
                reader.diagnostics.error(
                    "\(what) is declared by its members: '\(field.key)' does not apply to it", at: field.keyLocation)
            default: break
            }
        }
        if !SchemaValidator.isSwiftIdentifier(entry.key) {
            reader.diagnostics.error("\(what) is not a Swift type name", at: entry.keyLocation)
            return nil
        }
        if ScalarType(rawValue: entry.key) != nil {
            reader.diagnostics.error("\(what) has the name of a built-in type", at: entry.keyLocation)
            return nil
        }
        return decl
    }

    /// Reads the members of each JSON value type of `types:` (`json: { theme: String, size: { type: Int, default: 12 } }`),
    /// then checks that no JSON value type contains itself other than through an array.
    mutating func parseJSONMembers(_ node: YAMLNode, into decls: inout [ValueTypeDecl], enums: [EnumDecl], naming: Naming) {
        guard case .mapping = node, let entries = reader.mapping(node, "'types'") else { return }
        let scope = TypeScope(
            enums: Dictionary(enums.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first }),
            valueTypes: Dictionary(decls.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first }),
            entityNames: [], naming: naming)
        for index in decls.indices where decls[index].isJSON {
            guard let entry = entries.first(where: { $0.key == decls[index].name }),
                case .mapping = entry.value, let fields = reader.mapping(entry.value, "'\(entry.key)'"),
                let json = fields.first(where: { $0.key == "json" })
            else { continue }
            decls[index].members = parseMembers(json.value, of: decls[index].name, scope: scope)
        }
        for decl in decls where decl.isJSON {
            if let path = Self.containment(from: decl.name, to: decl.name, in: decls, visited: []) {
                reader.diagnostics.error(
                    "JSON value type '\(decl.name)' contains itself through \(path.joined(separator: ", ")); a Swift struct cannot: make the member an array",
                    at: decl.location)
            }
        }
    }

    /// The members through which `from` contains `target` other than through an array, if it does.
    static func containment(from: String, to target: String, in decls: [ValueTypeDecl], visited: Set<String>) -> [String]? {
        guard let decl = decls.first(where: { $0.name == from }), let members = decl.members else { return nil }
        for member in members where !member.isArray {
            guard case .value(let name) = member.type else { continue }
            if name == target { return ["\(from).\(member.name)"] }
            if visited.contains(name) { continue }
            if let rest = containment(from: name, to: target, in: decls, visited: visited.union([from])) {
                return ["\(from).\(member.name)"] + rest
            }
        }
        return nil
    }

    private mutating func parseMembers(_ node: YAMLNode, of typeName: String, scope: TypeScope) -> [JSONMember] {
        let what = "the members of '\(typeName)'"
        guard let entries = reader.mapping(node, what) else { return [] }
        if entries.isEmpty {
            reader.error("JSON value type '\(typeName)' needs at least one member", at: node)
        }
        return entries.compactMap { parseMember(name: $0.key, at: $0.keyLocation, $0.value, of: typeName, scope: scope) }
    }

    private mutating func parseMember(
        name: String, at location: SourceLocation, _ node: YAMLNode, of typeName: String, scope: TypeScope
    ) -> JSONMember? {
        let what = "member '\(typeName).\(name)'"
        var member = JSONMember(name: name, type: .scalar(.string), location: location, typeLocation: location)
        if !SchemaValidator.isSwiftIdentifier(name) {
            reader.diagnostics.error("\(what) is not a Swift identifier", at: location)
        } else if Self.columnMemberNames.contains(name) {
            reader.diagnostics.error(
                "\(what) has the name of a property every column has (\(Self.columnMemberNames.sorted().joined(separator: ", "))); rename it",
                at: location)
        }
        var typeNode = node
        var entries: [NodeReader.Entry] = []
        if case .mapping = node {
            guard let mapping = reader.mapping(node, what) else { return nil }
            entries = mapping
            reader.checkKeys(entries, allowed: SchemaKeys.jsonMember, in: what)
            guard let type = entries.first(where: { $0.key == "type" }) else {
                reader.diagnostics.error("\(what) needs a 'type'", at: location)
                return nil
            }
            typeNode = type.value
        }
        guard parseMemberType(typeNode, into: &member, what: what, scope: scope) else { return nil }
        for entry in entries {
            switch entry.key {
            case "default": member.defaultValue = parseMemberDefault(entry.value, of: member, what: what, scope: scope)
            case "renamedFrom": member.renamedFrom = reader.nonEmptyString(entry.value, "'renamedFrom'")
            case "transform": member.transform = reader.dialectSQL(entry.value, "'transform'")
            case "doc": member.doc = reader.string(entry.value, "'doc'")
            default: break
            }
        }
        return member
    }

    /// `String`, `Theme?`, `[String]`, `[Window]?`: a built-in type (not `Data`, `Decimal` or
    /// `JSON`), an enum or a value type, or an array of one.
    private mutating func parseMemberType(_ node: YAMLNode, into member: inout JSONMember, what: String, scope: TypeScope) -> Bool {
        member.typeLocation = reader.location(node)
        guard let written = reader.string(node, "the type of \(what)") else { return false }
        var (text, isOptional) = Self.splitOptional(written)
        member.isOptional = isOptional
        if text.hasPrefix("["), text.hasSuffix("]") {
            member.isArray = true
            text = String(text.dropFirst().dropLast()).trimmingWhitespace()
            if text.hasSuffix("?") || text.hasPrefix("[") {
                reader.error("the elements of \(what) must be one type, not optional or an array: '\(written)'", at: node)
                return false
            }
        }
        if scope.entityNames.contains(text) || (scope.types[text] == nil && scope.valueTypes[text] == nil && scope.enums[text] == nil) {
            let names = ScalarType.allCases.map(\.name) + scope.enums.keys.sorted() + scope.valueTypes.keys.sorted()
            reader.error("unknown type '\(text)' of \(what)\(Suggestion.didYouMean(text, in: names))", at: node)
            return false
        }
        guard let type = scope.types[text] else { return false }
        if case .scalar(let scalar) = type, [.data, .decimal, .json].contains(scalar) {
            reader.error(
                "\(what) is a \(scalar.name), which a JSON value does not hold; use \(scalar == .json ? "a JSON value type" : scalar == .data ? "a String (base64)" : "a String or a Double")",
                at: node)
            return false
        }
        member.type = type
        return true
    }

    /// A default for a scalar or enum member, checked as a field's is.
    private mutating func parseMemberDefault(_ node: YAMLNode, of member: JSONMember, what: String, scope: TypeScope) -> Literal? {
        if member.isArray || (member.type.valueTypeName.flatMap { scope.valueTypes[$0] }?.isJSON ?? false) {
            reader.error("\(what) is \(member.isArray ? "an array" : "a JSON value"): it takes no default (make it optional)", at: node)
            return nil
        }
        return parseDefault(node, for: member.asField, scope: scope)
    }
}

extension FieldType {
    /// The name of the value type, for a value-typed field or member.
    var valueTypeName: String? {
        if case .value(let name) = self { return name }
        return nil
    }
}
