/// A literal value from the schema: a field default or an enum raw value.
public enum Literal: Hashable, Sendable, CustomStringConvertible {
    case string(String)
    case integer(Int64)
    case double(Double)
    case bool(Bool)
    /// An enum case, by name (for defaults of enum-typed fields).
    case enumCase(String)
    /// `null`, for optional fields.
    case null
    /// `[]`, the empty array (for defaults of array fields).
    case emptyArray

    public var description: String {
        switch self {
        case .string(let value): return "\"\(value)\""
        case .integer(let value): return String(value)
        case .double(let value): return String(value)
        case .bool(let value): return String(value)
        case .enumCase(let name): return name
        case .null: return "null"
        case .emptyArray: return "[]"
        }
    }
}
