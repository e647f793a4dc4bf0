/// How generated code binds and reads each field: by index, through the runtime's `StrataBind`
/// and `StrataRead`, as the field's storage type says.
struct RecordCoding {
    let schema: Schema

    /// The Swift type of a field's column in filters: the property type, except that an
    /// autoincremented key is not optional (its column is never NULL).
    func columnType(of field: Field) -> String {
        let base = baseType(of: field)
        return field.isOptional ? base + "?" : base
    }

    /// The Swift type of a field without optionality.
    func baseType(of field: Field) -> String {
        switch field.type {
        case .scalar(let scalar): return scalar.name
        case .enumeration(let name): return SwiftNames.identifier(name)
        case .reference: return schema.storageType(of: field)?.name ?? "Never"
        }
    }

    /// True when the Swift property is optional (optional fields and autoincremented keys).
    func isOptionalProperty(_ field: Field) -> Bool { field.isOptional || field.isAutoincrement }

    /// The suffix of the `StrataBind`/`StrataRead` function for a scalar type.
    private func function(_ scalar: ScalarType) -> String {
        switch scalar {
        case .string: return "string"
        case .int: return "int"
        case .int64: return "int64"
        case .int32: return "int32"
        case .int16: return "int16"
        case .double: return "double"
        case .float: return "float"
        case .bool: return "bool"
        case .uuid: return "uuid"
        case .date: return "date"
        case .data: return "data"
        case .decimal: return "decimal"
        }
    }

    private func storage(of field: Field) -> ScalarType {
        schema.storageType(of: field) ?? .string
    }

    /// Statements binding a field's value `value` (a Swift expression of the property's type) to
    /// parameter `index` of `statement`.
    /// `optional` says whether `value` is optional (default: whether the property is).
    func bindLines(_ field: Field, value: String, index: Int, optional: Bool? = nil) -> [String] {
        let call = "StrataBind.\(function(storage(of: field)))"
        let raw = field.type.isEnumeration ? ".rawValue" : ""
        guard optional ?? isOptionalProperty(field) else {
            return ["try \(call)(statement, \(index), \(value)\(raw))"]
        }
        return [
            "if let value = \(value) {",
            "    try \(call)(statement, \(index), value\(raw))",
            "} else {",
            "    try StrataBind.null(statement, \(index))",
            "}",
        ]
    }

    /// An expression (starting with `try`) reading column `index` of `statement` as the field's
    /// property type.
    func readExpression(_ field: Field, index: Int) -> String {
        let raw = "StrataRead.\(function(storage(of: field)))(statement, \(index))"
        var value = raw
        if case .enumeration(let name) = field.type, let decl = schema.enumDecl(named: name) {
            let type = SwiftNames.identifier(name)
            value =
                decl.unknownCase != nil
                ? "\(type)(value: \(raw))"
                : "StrataRead.enumCase(\(type).self, \(raw), statement, \(index))"
        }
        return field.isOptional ? "try StrataRead.isNull(statement, \(index)) ? nil : \(value)" : "try \(value)"
    }
}

extension FieldType {
    /// True for enum-typed fields.
    var isEnumeration: Bool {
        if case .enumeration = self { return true }
        return false
    }
}
