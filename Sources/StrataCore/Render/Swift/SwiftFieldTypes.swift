/// The Swift types of fields in generated record code (the runtime binds and reads each by its
/// `StrataColumnValue` conformance, on every database, so the type is all the generator decides).
struct SwiftFieldTypes {
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
        case .scalar(let scalar): return scalar.swiftName
        case .enumeration(let name), .value(let name): return SwiftNames.identifier(name)
        // The referenced record's key type, by name: `customer: Customer.Key` says what it holds.
        case .reference(let target):
            guard schema.storageType(of: field) != nil else { return "Never" }
            return SwiftNames.identifier(target) + ".Key"
        case .array(let element):
            switch element {
            case .scalar(let scalar): return "[\(scalar.name)]"
            case .enumeration(let name), .value(let name): return "[\(SwiftNames.identifier(name))]"
            case .reference, .array: return "Never"
            }
        }
    }

    /// The Swift type of an entity's primary key: the key field's type, or a tuple of them in key order.
    func keyType(of entity: Entity) -> String {
        let types = entity.primaryKeyFields.map(baseType(of:))
        return types.count == 1 ? types[0] : "(" + types.joined(separator: ", ") + ")"
    }

    /// True when the Swift property is optional (optional fields and autoincremented keys).
    func isOptionalProperty(_ field: Field) -> Bool { field.isOptional || field.isAutoincrement }
}

extension FieldType {
    /// True for enum-typed fields.
    var isEnumeration: Bool {
        if case .enumeration = self { return true }
        return false
    }
}

extension ScalarType {
    /// The Swift type of the built-in type: its name, but `StrataJSON` for `JSON`.
    var swiftName: String { self == .json ? "StrataJSON" : name }
}
