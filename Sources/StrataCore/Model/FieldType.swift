/// The declared type of a field, before optionality.
public enum FieldType: Hashable, Sendable, CustomStringConvertible {
    /// A built-in type.
    case scalar(ScalarType)
    /// An enum declared in the same version.
    case enumeration(String)
    /// A value type declared in the same version (`types:`), stored as its storage scalar.
    case value(String)
    /// A to-one reference to another entity: stored as that entity's primary key.
    case reference(String)

    public var description: String {
        switch self {
        case .scalar(let scalar): return scalar.name
        case .enumeration(let name), .value(let name), .reference(let name): return name
        }
    }
}
