import StrataStorage

/// The built-in field types of the schema language. They are the storage encodings of
/// `StrataStorage`, so that the schema, the SQL and the runtime name each type the same way.
public typealias ScalarType = ColumnEncoding

extension ColumnEncoding {
    /// The schema spelling, which is also the Swift type name.
    public var name: String { rawValue }

    /// How values of the type are stored in each database (shared with the runtime).
    public var encoding: ColumnEncoding { self }

    /// True for the integer types.
    public var isInteger: Bool {
        switch self {
        case .int, .int64, .int32, .int16: return true
        default: return false
        }
    }

    /// True for the floating-point types.
    public var isFloatingPoint: Bool { self == .double || self == .float }

    /// The inclusive range of an integer type.
    public var integerRange: ClosedRange<Int64>? {
        switch self {
        case .int, .int64: return Int64.min...Int64.max
        case .int32: return Int64(Int32.min)...Int64(Int32.max)
        case .int16: return Int64(Int16.min)...Int64(Int16.max)
        default: return nil
        }
    }
}

/// The raw type of an enum.
public enum EnumRawType: String, CaseIterable, Sendable, Hashable {
    case int16 = "Int16"
    case int32 = "Int32"
    case int64 = "Int64"
    case int = "Int"
    case string = "String"

    /// The scalar type the raw values are stored as.
    public var scalar: ScalarType {
        switch self {
        case .int16: return .int16
        case .int32: return .int32
        case .int64: return .int64
        case .int: return .int
        case .string: return .string
        }
    }
}
