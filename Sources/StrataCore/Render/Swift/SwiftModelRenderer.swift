import StrataStorage
/// Renders the enums, value types and entity structs of a version as Swift value types.
struct SwiftModelRenderer {
    let schema: Schema
    /// The command the generated header names.
    let regeneration: Regeneration

    /// The whole `<Model>Models.swift` file.
    func render() -> String {
        var writer = SwiftWriter()
        writer.lines(FileHeader.lines(source: FileHeader.source(schema), comment: "//", regeneration: regeneration))
        writer.line()
        writer.line("import Foundation")
        if schema.entities.contains(where: { $0.fields.contains { $0.type == .scalar(.json) } }) {
            writer.line("import StrataRuntime")
        }
        for decl in schema.enums {
            writer.line()
            renderEnum(decl, into: &writer)
        }
        for decl in schema.valueTypes where !decl.isExternal {
            writer.line()
            if decl.isJSON {
                SwiftJSONTypeRenderer(schema: schema, decl: decl).renderStruct(into: &writer)
            } else {
                renderValueType(decl, into: &writer)
            }
        }
        for entity in schema.entities {
            writer.line()
            renderStruct(entity, into: &writer)
        }
        return writer.text
    }

    // MARK: Value types

    /// `struct Cents: RawRepresentable` over its storage, coded as the bare stored value.
    private func renderValueType(_ decl: ValueTypeDecl, into writer: inout SwiftWriter) {
        let name = SwiftNames.identifier(decl.name)
        let raw = decl.storage.name
        writer.lines(SwiftNames.docLines(decl.doc ?? "A value of the schema, stored as `\(raw)`."))
        writer.block("public struct \(name): RawRepresentable, Hashable, Sendable, Codable") { w in
            w.line("/// The value as stored.")
            w.line("public var rawValue: \(raw)")
            w.line()
            w.line("/// The value whose stored form is `rawValue`.")
            w.block("public init(rawValue: \(raw))") { w in w.line("self.rawValue = rawValue") }
            w.line()
            w.line("/// Decodes the stored value itself.")
            w.block("public init(from decoder: any Decoder) throws") { w in
                w.line("rawValue = try decoder.singleValueContainer().decode(\(raw).self)")
            }
            w.line()
            w.line("/// Encodes the stored value itself.")
            w.block("public func encode(to encoder: any Encoder) throws") { w in
                w.line("var container = encoder.singleValueContainer()")
                w.line("try container.encode(rawValue)")
            }
        }
    }

    // MARK: Enums

    private func renderEnum(_ decl: EnumDecl, into writer: inout SwiftWriter) {
        let name = SwiftNames.identifier(decl.name)
        let raw = decl.rawType.rawValue
        writer.lines(SwiftNames.docLines(decl.doc))
        writer.lines(lintExemptions(type: decl.name))
        // No `description`: Swift prints a case by its name (`String(describing:)`, interpolation).
        writer.block("public enum \(name): \(raw), CaseIterable, Hashable, Sendable, Codable") { w in
            for item in decl.cases {
                w.lines(lintExemptions(member: item.name))
                w.line("case \(SwiftNames.identifier(item.name))" + rawValueClause(of: item))
            }
            if let unknown = decl.unknownCase {
                let fallback = SwiftNames.identifier(unknown)
                w.line()
                w.line("/// The case whose raw value is `value`, or `.\(unknown)` for a raw value that matches no case")
                w.line("/// (one written by another version of the app).")
                w.block("public init(value: \(raw))") { w in
                    w.line("self = Self(rawValue: value) ?? .\(fallback)")
                }
                w.line()
                w.line("/// Decodes the raw value, reading one that matches no case as `.\(unknown)`.")
                w.block("public init(from decoder: any Decoder) throws") { w in
                    w.line("self.init(value: try decoder.singleValueContainer().decode(\(raw).self))")
                }
            }
        }
    }

    /// ` = <raw value>` for a case, or nothing where Swift synthesizes the same raw value (a
    /// `String` raw value equal to the case name).
    private func rawValueClause(of item: EnumDecl.Case) -> String {
        if case .string(let text) = item.rawValue, text == item.name { return "" }
        return " = " + swiftLiteral(item.rawValue)
    }

    // MARK: Structs

    private func renderStruct(_ entity: Entity, into writer: inout SwiftWriter) {
        let name = SwiftNames.identifier(entity.name)
        let identity = identifiable(entity)
        let conformances = (identity == nil ? [] : ["Identifiable"]) + ["Hashable", "Sendable", "Codable"]
        let firstOptional = entity.fields.first(where: isOptional)
        writer.lines(SwiftNames.docLines(entity.doc))
        writer.lines(lintExemptions(type: entity.name, spellsOptional: firstOptional != nil))
        writer.block("public struct \(name): \(conformances.joined(separator: ", "))") { w in
            for field in entity.fields {
                if field.name == firstOptional?.name {
                    w.line("// Optional<T> rather than T?: a T? property starts as nil, which costs every initializer")
                    w.line("// (reading a row included) one more copy of the whole struct.")
                }
                w.lines(SwiftNames.docLines(field.doc))
                if field.isAutoincrement {
                    w.line("/// Assigned by the database when the record is inserted; `nil` until then.")
                }
                w.lines(lintExemptions(member: field.name))
                w.line("public var \(SwiftNames.identifier(field.name)): \(storedType(of: field))")
            }
            w.line()
            w.line("/// The primary key's type: what a reference to `\(name)` holds.")
            w.line("public typealias Key = \(SwiftFieldTypes(schema: schema).keyType(of: entity))")
            if let identity, identity.name != "id" {
                w.line()
                w.line("/// The primary key, for `Identifiable`.")
                w.line("public var id: \(swiftType(of: identity)) { \(SwiftNames.identifier(identity.name)) }")
            }
            w.line()
            w.line("/// Memberwise initializer; parameters with a schema default can be left out.")
            w.line("public init(")
            let parameters = entity.fields.enumerated().map { offset, field in
                let label = SwiftNames.identifier(field.name)
                let comma = offset == entity.fields.count - 1 ? "" : ","
                if let value = defaultExpression(for: field, of: entity) {
                    return "    \(label): \(swiftType(of: field)) = \(value)\(comma)"
                }
                return "    \(label): \(swiftType(of: field))\(comma)"
            }
            w.lines(parameters)
            w.block(")") { w in
                for field in entity.fields {
                    let label = SwiftNames.identifier(field.name)
                    w.line("self.\(label) = \(label)")
                }
            }
        }
    }

    /// The field the struct is `Identifiable` by: the single primary key, unless another field is named `id`.
    private func identifiable(_ entity: Entity) -> Field? {
        guard let key = entity.singlePrimaryKey else { return nil }
        if key.name != "id" && entity.field(named: "id") != nil { return nil }
        return key
    }

    /// The Swift type of a field's values: `T?` for an optional or autoincrement field.
    func swiftType(of field: Field) -> String {
        isOptional(field) ? valueType(of: field) + "?" : valueType(of: field)
    }

    /// The type of a field's stored property: `Optional<T>` where ``swiftType(of:)`` is `T?`,
    /// since a stored `T?` is implicitly initialised to nil first, which makes every initializer
    /// of the struct copy it once more (`initializeWithCopy`, then `destroy`): 5-7% of fetching
    /// 100,000 rows of the benchmark's table; re-measured alone, and why the runtime cannot
    /// remove the copy, in `Docs/DesignNotes/OptionalSpelling.md`.
    func storedType(of field: Field) -> String {
        isOptional(field) ? "Optional<\(valueType(of: field))>" : valueType(of: field)
    }

    /// True when a field's values may be nil: optional fields, and autoincrement keys before insert.
    private func isOptional(_ field: Field) -> Bool { SwiftFieldTypes(schema: schema).isOptionalProperty(field) }

    /// A field's Swift type without optionality (``SwiftFieldTypes/baseType(of:)``).
    private func valueType(of field: Field) -> String { SwiftFieldTypes(schema: schema).baseType(of: field) }

    /// The initializer's default for a field: the schema default, `UUID()` for a UUID key, `nil` for
    /// optionals, `[]` for arrays.
    private func defaultExpression(for field: Field, of entity: Entity) -> String? {
        if let literal = field.defaultValue {
            return swiftExpression(literal, for: field)
        }
        if field.isAutoincrement || field.isOptional { return "nil" }
        if case .array = field.type { return "[]" }
        // `entity` holds `field`: asking it first spares a scan of the model for every key.
        if schema.storageType(of: field) == .uuid, field.referencedEntity == nil,
            entity.primaryKey == [field.name]
                || schema.entities.contains(where: { $0.primaryKey == [field.name] && $0.fields.contains(field) })
        {
            // A typed key (`typedKeys: true`) wraps the new UUID.
            if case .value(let name) = field.type { return "\(SwiftNames.identifier(name))(rawValue: UUID())" }
            return "UUID()"
        }
        return nil
    }

    func swiftExpression(_ literal: Literal, for field: Field) -> String {
        switch (literal, field.type) {
        case (.null, _): return "nil"
        case (.emptyArray, _): return "[]"
        case (.enumCase(let name), _): return "." + SwiftNames.identifier(name)
        case (.string(let text), .scalar(.date)) where field.dateText != nil:
            // The Date its text reads back as (the day of a `format: date`), as a fetch reads it.
            let stored = DateLiteral.parse(text).flatMap { field.dateText?.text(of: $0) }.flatMap(SQLiteDateText.date(text:))
            return "Date(timeIntervalSinceReferenceDate: \(SwiftNames.floatLiteral(stored?.timeIntervalSinceReferenceDate ?? 0)))"
        case (_, .scalar(let type)): return type.descriptor.swiftExpression(of: literal)
        case (_, .value(let name)):
            let stored = schema.valueType(named: name).map { $0.storage.descriptor.swiftExpression(of: literal) }
            return "\(SwiftNames.identifier(name))(rawValue: \(stored ?? literal.description))"
        case (.bool(let value), _): return value ? "true" : "false"
        case (.integer(let value), _): return SwiftNames.integerLiteral(value)
        case (.double(let value), _): return SwiftNames.floatLiteral(value)
        case (.string(let text), _): return SwiftNames.stringLiteral(text)
        }
    }

    private func swiftLiteral(_ literal: Literal) -> String {
        switch literal {
        case .integer(let value): return SwiftNames.integerLiteral(value)
        case .string(let text): return SwiftNames.stringLiteral(text)
        default: return literal.description
        }
    }

    /// A swift-format exemption for a user's name that breaks the naming rules we cannot fix for them.
    private func lintExemptions(member name: String) -> [String] {
        SwiftNames.isLowerCamelCase(name) ? [] : ["// swift-format-ignore: AlwaysUseLowerCamelCase"]
    }

    /// swift-format exemptions for a type: a user's name that breaks the naming rules, and the
    /// `Optional<T>` spelling of stored properties (``storedType(of:)``).
    private func lintExemptions(type name: String, spellsOptional: Bool = false) -> [String] {
        let rules = (SwiftNames.isCapitalized(name) ? [] : ["TypeNamesShouldBeCapitalized"])
            + (spellsOptional ? ["UseShorthandTypeNames"] : [])
        return rules.isEmpty ? [] : ["// swift-format-ignore: " + rules.joined(separator: ", ")]
    }
}
