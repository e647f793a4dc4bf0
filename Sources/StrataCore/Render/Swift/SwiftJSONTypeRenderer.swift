/// Renders a JSON value type (`types: { Settings: { json: … } }`): its struct in
/// `<Model>Models.swift`; in `<Model>Records.swift` how it is read from and written as JSON, and
/// its members as columns for filters (`$0.settings.theme == "dark"`).
struct SwiftJSONTypeRenderer {
    let schema: Schema
    let decl: ValueTypeDecl

    var name: String { SwiftNames.identifier(decl.name) }
    var members: [JSONMember] { decl.members ?? [] }

    /// The member's Swift type: `String`, `[String]`, `Window?`.
    func swiftType(of member: JSONMember) -> String {
        let base = SwiftFieldTypes(schema: schema).baseType(of: member.asField)
        let type = member.isArray ? "[\(base)]" : base
        return member.isOptional ? type + "?" : type
    }

    /// The memberwise initializer's default of a member: its schema default, `nil` for optionals.
    func defaultExpression(of member: JSONMember) -> String? {
        if let literal = member.defaultValue {
            return SwiftModelRenderer(schema: schema, regeneration: .commandLine).swiftExpression(literal, for: member.asField)
        }
        return member.isOptional ? "nil" : nil
    }

    /// `public struct Settings: Hashable, Sendable, Codable` with its members and memberwise initializer.
    func renderStruct(into writer: inout SwiftWriter) {
        writer.lines(SwiftNames.docLines(decl.doc ?? "A value of the schema, stored as one JSON object."))
        writer.block("public struct \(name): Hashable, Sendable, Codable") { w in
            for member in members {
                w.lines(SwiftNames.docLines(member.doc))
                w.line("public var \(SwiftNames.identifier(member.name)): \(swiftType(of: member))")
            }
            w.line()
            w.line("/// Memberwise initializer; members with a schema default can be left out.")
            w.line("public init(")
            for (offset, member) in members.enumerated() {
                let comma = offset == members.count - 1 ? "" : ","
                let value = defaultExpression(of: member).map { " = \($0)" } ?? ""
                w.line("    \(SwiftNames.identifier(member.name)): \(swiftType(of: member))\(value)\(comma)")
            }
            w.block(")") { w in
                for member in members {
                    let label = SwiftNames.identifier(member.name)
                    w.line("self.\(label) = \(label)")
                }
            }
        }
    }

    /// The conformance that reads and writes the JSON object (a member with a default reads it
    /// from an object written before the member existed), then the members as columns.
    func renderConformance(into writer: inout SwiftWriter) {
        writer.line("/// `\(decl.name)` is stored as a JSON object of its members, read and written by hand.")
        writer.block("extension \(name): StrataJSONColumnValue") { w in
            w.block("public init(strataJSON json: StrataJSON) throws") { w in
                w.line("let object = try json.object()")
                w.line("try self.init(")
                for (offset, member) in members.enumerated() {
                    let comma = offset == members.count - 1 ? "" : ","
                    let key = SwiftNames.stringLiteral(member.name)
                    var read = "object.decode(\(key))"
                    if !member.isOptional, let value = defaultExpression(of: member) {
                        read = "object.decode(\(key), default: \(value))"
                    }
                    w.line("    \(SwiftNames.identifier(member.name)): \(read)\(comma)")
                }
                w.line(")")
            }
            w.line()
            w.block("public func write(to json: inout StrataJSONWriter)") { w in
                w.line("json.object { json in")
                for member in members {
                    w.line("    json.member(\(SwiftNames.stringLiteral(member.name)), \(SwiftNames.identifier(member.name)))")
                }
                w.line("}")
            }
        }
        for optional in [false, true] {
            let columns = members.compactMap { member -> String? in
                guard let type = memberType(of: member) else { return nil }
                let swift = swiftType(of: member) + (optional && !member.isOptional ? "?" : "")
                let label = SwiftNames.identifier(member.name)
                return "public var \(label): StrataColumn<Root, \(swift)> { member(\(SwiftNames.stringLiteral(member.name)), .\(type)) }"
            }
            guard !columns.isEmpty else { continue }
            writer.line()
            writer.line("/// The members of a stored `\(decl.name)`\(optional ? " (NULL where the value is)" : ""), for filters and sorts.")
            writer.block("extension StrataColumn where Value == \(name)\(optional ? "?" : "")") { w in
                w.lines(columns)
            }
        }
    }

    /// How filters read a member, or nil for one they cannot compare (arrays, UUIDs).
    func memberType(of member: JSONMember) -> String? {
        guard !member.isArray else { return nil }
        let scalar: ScalarType
        switch member.type {
        case .scalar(let type): scalar = type
        case .enumeration(let enumName):
            guard let raw = schema.enumDecl(named: enumName)?.rawType.scalar else { return nil }
            scalar = raw
        case .value(let valueName):
            guard let value = schema.valueType(named: valueName) else { return nil }
            if value.isJSON { return "json" }
            scalar = value.storage
        case .reference, .array: return nil
        }
        switch scalar {
        case .string, .url: return "text"
        case .int, .int64, .int32, .int16: return "integer"
        case .double, .float: return "real"
        case .bool: return "bool"
        case .date: return "date"
        case .uuid, .data, .decimal, .json: return nil
        }
    }
}
