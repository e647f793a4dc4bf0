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
    public var isInteger: Bool { descriptor.integerRange != nil }

    /// True for the floating-point types.
    public var isFloatingPoint: Bool { descriptor.isFloatingPoint }

    /// The inclusive range of an integer type.
    public var integerRange: ClosedRange<Int64>? { descriptor.integerRange }

    /// Of `candidates`, types stored in one column type, the one that column reads back as when
    /// nothing else tells: the one the most others convert to without loss (`Int64` takes every
    /// narrower integer, `Double` takes `Float`, `String` takes `Decimal`), a tie going to the one
    /// declared last (`Int64` over `Int`, `Data` over `UUID`: the one that constrains the stored
    /// value least). Nil when `candidates` is empty.
    public static func widest(of candidates: [ScalarType]) -> ScalarType? {
        let ordered = allCases.filter { candidates.contains($0) }
        func reach(_ type: ScalarType) -> Int {
            ordered.filter { $0 != type && $0.descriptor.losslessTargets.contains(type) }.count
        }
        return ordered.reversed().max { reach($0) < reach($1) }
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
