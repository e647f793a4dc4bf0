import Foundation
import StrataStorage
import Yams

extension SchemaParser {
    /// What the parser knows of the file's names while it reads fields.
    struct TypeScope {
        var enums: [String: EnumDecl]
        var valueTypes: [String: ValueTypeDecl]
        var entityNames: [String]
        var naming: Naming
        /// The type each name stands for, built once: the built-in types first, then the enums,
        /// then the entities (a name that is several is the first of these).
        var types: [String: FieldType]
        /// The same for types written exactly `Name` or `Name?` where the name has only letters,
        /// digits and `_` (nothing to trim, no `?` of its own): one lookup for most fields.
        var writtenTypes: [String: (type: FieldType, isOptional: Bool)]

        init(enums: [String: EnumDecl], valueTypes: [String: ValueTypeDecl], entityNames: [String], naming: Naming) {
            self.enums = enums
            self.valueTypes = valueTypes
            self.entityNames = entityNames
            self.naming = naming
            let count = entityNames.count + enums.count + valueTypes.count + ScalarType.allCases.count
            types = Dictionary(minimumCapacity: count)
            for name in entityNames { types[name] = .reference(name) }
            for name in valueTypes.keys { types[name] = .value(name) }
            for name in enums.keys { types[name] = .enumeration(name) }
            for scalar in ScalarType.allCases { types[scalar.rawValue] = .scalar(scalar) }
            writtenTypes = Dictionary(minimumCapacity: 2 * count)
            for (name, type) in types where SchemaValidator.isSwiftIdentifier(name) {
                writtenTypes[name] = (type, false)
                writtenTypes[name + "?"] = (type, true)
            }
        }

        var allTypeNames: [String] {
            ScalarType.allCases.map(\.name) + enums.keys.sorted() + valueTypes.keys.sorted() + entityNames
        }
    }

    mutating func parseEntities(
        _ node: YAMLNode, enums: [EnumDecl], enumNames: Set<String>, valueTypes: [ValueTypeDecl], naming: Naming
    ) -> [Entity] {
        guard let entries = reader.mapping(node, "'entities'") else { return [] }
        let scope = TypeScope(
            enums: Dictionary(enums.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first }),
            valueTypes: Dictionary(valueTypes.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first }),
            entityNames: entries.map(\.key), naming: naming)
        if entries.isEmpty {
            reader.error("'entities' must declare at least one entity", at: node)
        }
        var entities: [Entity] = []
        entities.reserveCapacity(entries.count)
        for entry in entries {
            if let entity = parseEntity(name: entry.key, at: entry.keyLocation, entry.value, scope: scope) {
                entities.append(entity)
            }
        }
        return entities
    }

    private mutating func parseEntity(name: String, at location: SourceLocation, _ node: YAMLNode, scope: TypeScope)
        -> Entity?
    {
        func what() -> String { "entity '\(name)'" }
        guard let entries = reader.mapping(node, what()) else { return nil }
        reader.checkKeys(entries, allowed: Self.entityKeys, in: what())
        var entity = Entity(
            name: name, table: scope.naming.apply(name), fields: [], primaryKey: [], indexes: [], hasMany: [],
            renamedFrom: nil, doc: nil, location: location)
        var keyNode: YAMLNode?
        var indexesNode: YAMLNode?
        var hasManyNode: YAMLNode?
        var searchNode: YAMLNode?
        var hasFields = false
        for entry in entries {
            switch entry.key {
            case "fields":
                hasFields = true
                let fields = reader.mapping(entry.value, "the fields of \(what())") ?? []
                // Exactly the room needed: a model's fields are most of its memory.
                entity.fields.reserveCapacity(fields.count)
                for field in fields {
                    if let parsed = parseField(name: field.key, at: field.keyLocation, field.value, scope: scope) {
                        entity.fields.append(parsed)
                    }
                }
                if case .mapping(let mapping) = entry.value, mapping.count == 0 {
                    reader.error("\(what()) needs at least one field", at: entry.value)
                }
            case "table":
                if let table = reader.nonEmptyString(entry.value, "'table'") { entity.table = table }
            case "primaryKey": keyNode = entry.value
            case "indexes": indexesNode = entry.value
            case "hasMany": hasManyNode = entry.value
            case "search": searchNode = entry.value
            case "checks":
                for check in reader.mapping(entry.value, "'checks' of \(what()) (constraint names and their conditions)") ?? [] {
                    if let condition = reader.dialectSQL(check.value, "check '\(check.key)'") {
                        entity.checks.append(TableCheck(name: check.key, condition: condition, location: check.keyLocation))
                    }
                }
            case "renamedFrom": entity.renamedFrom = reader.nonEmptyString(entry.value, "'renamedFrom'")
            case "doc": entity.doc = reader.string(entry.value, "'doc'")
            default: break
            }
        }
        if !hasFields {
            reader.diagnostics.error("\(what()) needs 'fields'", at: location)
        }
        entity.primaryKey = resolvePrimaryKey(of: entity, keyNode)
        if let indexesNode { entity.indexes = parseIndexes(indexesNode, of: entity) }
        if let hasManyNode { entity.hasMany = parseHasMany(hasManyNode, of: entity) }
        if let searchNode { entity.search = parseSearch(searchNode, of: entity) }
        return entity
    }

    // MARK: Fields

    private mutating func parseField(name: String, at location: SourceLocation, _ node: YAMLNode, scope: TypeScope)
        -> Field?
    {
        var field = Field(
            name: name, column: scope.naming.apply(name), type: .scalar(.string), isOptional: false,
            defaultValue: nil, isAutoincrement: false, isUnique: false, onDelete: .noAction, renamedFrom: nil,
            transform: nil, doc: nil, location: location, typeLocation: location, defaultLocation: nil)
        func what() -> String { "field '\(name)'" }
        if case .scalar = node {
            // A field whose type is unknown is kept, so that indexes naming it do not report it missing too.
            _ = parseType(node, into: &field, scope: scope)
            return field
        }
        if reportsUnquotedArrayType(node, of: name) { return nil }
        guard let entries = reader.mapping(node, "\(what()) (a type name, or a mapping with 'type')") else {
            return nil
        }
        reader.checkKeys(entries, allowed: Self.fieldKeys, in: what())
        guard let typeEntry = entries.first(where: { $0.key == "type" }) else {
            reader.diagnostics.error("\(what()) needs a 'type'", at: location)
            return nil
        }
        let typeIsValid = parseType(typeEntry.value, into: &field, scope: scope)
        var onDeleteNode: YAMLNode?
        // The rarely set properties, stored together once at the end.
        var defaultValue: Literal?
        var defaultLocation: SourceLocation?
        var renamedFrom: String?
        var transform: DialectSQL?
        var doc: String?
        var sqlType: DialectSQL?
        var sqlDefault: DialectSQL?
        var check: DialectSQL?
        var isRowidKey = false
        var dateText: (SQLiteDateText, SourceLocation)?
        for entry in entries {
            switch entry.key {
            case "type": break
            case "default":
                defaultLocation = reader.location(entry.value)
                if case .mapping = entry.value {
                    sqlDefault = reader.dialectSQL(entry.value, "the default expression of \(what())")
                } else if typeIsValid {
                    defaultValue = parseDefault(entry.value, for: field, scope: scope)
                }
            case "sqlType": sqlType = reader.dialectSQL(entry.value, "'sqlType' of \(what())")
            case "check": check = reader.dialectSQL(entry.value, "'check' of \(what())")
            case "format":
                if let text = reader.string(entry.value, "'format' of \(what())") {
                    if let format = SQLiteDateText(rawValue: text) {
                        dateText = (format, reader.location(entry.value))
                    } else {
                        let names = SQLiteDateText.allCases.map(\.rawValue)
                        reader.error(
                            "unknown 'format' '\(text)' of \(what()); expected \(names.joined(separator: " or ")) (a Date stored as ISO 8601 text)"
                                + Suggestion.didYouMean(text, in: names), at: entry.value)
                    }
                }
            case "primaryKey":
                if reader.bool(entry.value, "'primaryKey' of a field") == true {
                    field.isPrimaryKeyMarker = true
                }
            case "autoincrement":
                if case .scalar(let scalar) = entry.value, entry.value.tagName == .str, scalar.string == "rowid" {
                    field.isAutoincrement = true
                    isRowidKey = true
                } else {
                    field.isAutoincrement = reader.bool(entry.value, "'autoincrement' (or 'rowid')") ?? false
                }
            case "unique": field.isUnique = reader.bool(entry.value, "'unique'") ?? false
            case "column":
                if let column = reader.nonEmptyString(entry.value, "'column'") { field.column = column }
            case "onDelete":
                onDeleteNode = entry.value
                if let text = reader.string(entry.value, "'onDelete'") {
                    if let action = OnDelete(rawValue: text) {
                        field.onDelete = action
                    } else {
                        let names = OnDelete.allCases.map(\.rawValue)
                        reader.error(
                            "unknown onDelete action '\(text)'; expected one of \(names.joined(separator: ", "))"
                                + Suggestion.didYouMean(text, in: names), at: entry.value)
                    }
                }
            case "renamedFrom": renamedFrom = reader.nonEmptyString(entry.value, "'renamedFrom'")
            case "transform": transform = reader.dialectSQL(entry.value, "'transform'")
            case "doc": doc = reader.string(entry.value, "'doc'")
            default: break
            }
        }
        field.setRareValues(
            defaultValue: defaultValue, renamedFrom: renamedFrom, transform: transform, doc: doc,
            defaultLocation: defaultLocation)
        if sqlType != nil || sqlDefault != nil || check != nil || isRowidKey {
            field.sqlType = sqlType
            field.sqlDefault = sqlDefault
            field.check = check
            field.isRowidKey = isRowidKey
        }
        if let (format, location) = dateText {
            field.setDateText(format, at: location)
        }
        if let onDeleteNode, typeIsValid, field.referencedEntity == nil {
            reader.error("'onDelete' applies to references only; '\(name)' is a \(field.type)", at: onDeleteNode)
        }
        return field
    }

    /// Reads `Type` or `Type?` and resolves it against the built-in types, enums and entities.
    private mutating func parseType(_ node: YAMLNode, into field: inout Field, scope: TypeScope) -> Bool {
        field.typeLocation = reader.location(node)
        if reportsUnquotedArrayType(node, of: field.name) { return false }
        guard let written = reader.string(node, "the type of field '\(field.name)'") else { return false }
        if let (type, isOptional) = scope.writtenTypes[written] {
            field.type = type
            if isOptional { field.isOptional = true }
            return true
        }
        let (text, isOptional) = Self.splitOptional(written)
        if isOptional { field.isOptional = true }
        if text.hasPrefix("[") {
            guard let type = parseArrayType(text, of: field.name, at: node, scope: scope) else { return false }
            field.type = type
            return true
        }
        if let type = scope.types[text] {
            field.type = type
        } else if text.count > Limits.nameLength {
            reader.error(
                "the type of field '\(field.name)' is longer than \(Limits.nameLength) characters: '\(Limits.shown(text))'",
                at: node)
            return false
        } else {
            reader.error("unknown type '\(text)'\(Suggestion.didYouMean(text, in: scope.allTypeNames))", at: node)
            return false
        }
        return true
    }

    /// True, with an error, when a field's type is written `[String]` unquoted, which YAML reads
    /// as a list.
    private mutating func reportsUnquotedArrayType(_ node: YAMLNode, of fieldName: String) -> Bool {
        guard case .sequence(let list) = node, list.items.count == 1, case .scalar(let element) = list.items[0] else {
            return false
        }
        reader.error(
            "the type of field '\(fieldName)' is a YAML list: write the array type in quotes, \"[\(Limits.shown(element.string))]\"",
            at: node)
        return true
    }

    /// `[Element]`: an array of a built-in type (one ``ColumnEncoding/isArrayElement``), an enum
    /// or a value type stored as one; nil, with an error, for anything else.
    private mutating func parseArrayType(_ text: String, of fieldName: String, at node: YAMLNode, scope: TypeScope)
        -> FieldType?
    {
        let what = "the array type '\(Limits.shown(text))' of field '\(fieldName)'"
        guard text.hasSuffix("]"), text.count >= 2 else {
            reader.error("\(what) has no closing ']': write '[Element]', such as '[String]'", at: node)
            return nil
        }
        let inner = String(text.dropFirst().dropLast()).trimmingWhitespace()
        if inner.isEmpty {
            reader.error("\(what) names no element type: write '[Element]', such as '[String]'", at: node)
            return nil
        }
        if inner.hasPrefix("[") {
            reader.error("\(what) is an array of arrays, which Strata does not store: arrays hold scalars", at: node)
            return nil
        }
        if inner.hasSuffix("?") {
            reader.error(
                "\(what) has optional elements, which Strata does not store: write '[\(Self.splitOptional(inner).type)]' (the field itself may be optional: '[\(Self.splitOptional(inner).type)]?')",
                at: node)
            return nil
        }
        guard let element = scope.types[inner] else {
            reader.error(
                "unknown element type '\(Limits.shown(inner))' in \(what)\(Suggestion.didYouMean(inner, in: scope.allTypeNames))",
                at: node)
            return nil
        }
        let storage: ScalarType?
        switch element {
        case .scalar(let scalar): storage = scalar
        case .enumeration(let name): storage = scope.enums[name]?.rawType.scalar
        case .value(let name): storage = scope.valueTypes[name]?.storage
        case .reference(let name):
            reader.error(
                "\(what) holds references to \(name), which an array cannot: declare a join entity (or 'hasMany' on \(name)) instead",
                at: node)
            return nil
        case .array: storage = nil
        }
        guard let storage else { return nil }
        guard storage.isArrayElement else {
            let allowed = ScalarType.allCases.filter(\.isArrayElement).map(\.name)
            let stored = element == .scalar(storage) ? "" : " (stored as \(storage.name))"
            // Only JSON is left out: JSON holds its own arrays.
            let json = storage == .json ? " (a list of JSON values is one JSON value: a JSON value type with an array member)" : ""
            reader.error(
                "\(what) holds \(inner)\(stored), which an array cannot; array elements are one of \(allowed.joined(separator: ", ")), an enum or a value type stored as one\(json)",
                at: node)
            return nil
        }
        return .array(element)
    }

    /// A written type without its `?` and the whitespace around both: `("Int", true)` for
    /// `Int?`.
    static func splitOptional(_ written: String) -> (type: String, isOptional: Bool) {
        var text = written.trimmingWhitespace()
        var isOptional = false
        if text.hasSuffix("?") {
            isOptional = true
            text.removeLast()
            text = text.trimmingWhitespace()
        }
        return (text, isOptional)
    }

    /// Reads a default and checks that it fits the field's type.
    mutating func parseDefault(_ node: YAMLNode, for field: Field, scope: TypeScope) -> Literal? {
        let tag = node.tagName
        if case .array = field.type {
            if case .sequence(let list) = node, list.items.isEmpty { return .emptyArray }
            if tag == .null, field.isOptional { return .null }
            reader.error(
                "the default of '\(field.name)' of type \(field.type) must be '[]', the empty array (or null when it is optional)",
                at: node)
            return nil
        }
        guard case .scalar(let scalar) = node else {
            reader.error(
                "the default of '\(field.name)' must be a single value, found \(NodeReader.kind(of: node))", at: node)
            return nil
        }
        let text = scalar.string
        if tag == .null {
            if field.isOptional { return .null }
            reader.error("default null on '\(field.name)', which is not optional (write '\(field.type)?')", at: node)
            return nil
        }
        func mismatch(_ expected: String) -> Literal? {
            reader.error(
                "default \(describe(text, tag)) does not fit '\(field.name)' of type \(field.type): expected \(expected)",
                at: node)
            return nil
        }
        var type: ScalarType
        switch field.type {
        case .scalar(let scalar): type = scalar
        case .value(let name):
            guard let decl = scope.valueTypes[name] else { return nil }
            if decl.isExternal {
                reader.error(
                    "'\(field.name)' of \(name), a type the app declares, cannot have a default: Strata cannot build one",
                    at: node)
                return nil
            }
            type = decl.storage
        case .enumeration(let name):
            guard let decl = scope.enums[name] else { return nil }
            if tag == .str, decl.case(named: text) != nil { return .enumCase(text) }
            reader.error(
                "default \(describe(text, tag)) is not a case of \(name)"
                    + Suggestion.didYouMean(text, in: decl.cases.map(\.name)), at: node)
            return nil
        case .reference(let name):
            return mismatch("null: a reference to \(name) has no literal default")
        case .array:
            return nil
        }
        do {
            let kind: DefaultScalar.Kind =
                switch tag {
                case .str: .string
                case .int: .integer
                case .float: .float
                case .bool: .bool
                default: .null
                }
            // Each reading only for the kinds and types that use it (each may build a Yams node).
            let isNumber = kind == .integer || kind == .float
            let value = DefaultScalar(
                text: text, kind: kind,
                integer: kind == .integer && type.isInteger ? Int64(text) ?? node.int.map(Int64.init) : nil,
                number: isNumber && type.isFloatingPoint ? node.float : nil,
                flag: kind == .bool && type == .bool ? node.bool : nil)
            switch type.descriptor.parseDefault(value) {
            case .success(let literal): return literal
            case .failure(let wrong): return mismatch(wrong.expected)
            }
        }
    }

    private func describe(_ text: String, _ tag: Tag.Name) -> String {
        tag == .str ? "'\(text)'" : text
    }
}

/// The ISO 8601 forms accepted for `Date` defaults.
enum DateLiteral {
    static func parse(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.date(from: text)
    }
}

/// Decimal literals: an optional sign, digits, an optional fraction.
enum DecimalLiteral {
    static func isValid(_ text: String) -> Bool {
        var scalars = Substring(text)
        if scalars.first == "-" || scalars.first == "+" { scalars = scalars.dropFirst() }
        let parts = scalars.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count) else { return false }
        return parts.allSatisfy { !$0.isEmpty && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }
    }
}
