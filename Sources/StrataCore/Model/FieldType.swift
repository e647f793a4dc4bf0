/// The declared type of a field, before optionality.
public indirect enum FieldType: Hashable, Sendable, CustomStringConvertible {
    /// A built-in type.
    case scalar(ScalarType)
    /// An enum declared in the same version.
    case enumeration(String)
    /// A value type declared in the same version (`types:`), stored as its storage scalar.
    case value(String)
    /// A to-one reference to another entity: stored as that entity's primary key.
    case reference(String)
    /// An array of a built-in scalar, an enum or a value type (`[String]`): a native array on
    /// PostgreSQL, a JSON array on SQLite. Its elements are never optional nor arrays themselves.
    case array(FieldType)

    public var description: String {
        switch self {
        case .scalar(let scalar): return scalar.name
        case .enumeration(let name), .value(let name), .reference(let name): return name
        case .array(let element): return "[\(element)]"
        }
    }

    /// The element type of an array type; nil for the others.
    public var arrayElement: FieldType? {
        if case .array(let element) = self { return element }
        return nil
    }
}
