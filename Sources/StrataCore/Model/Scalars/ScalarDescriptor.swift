import Foundation
import StrataStorage

/// Everything the generator knows about one built-in scalar type, in one place: which defaults it
/// accepts, how a default is stored in each database and written in Swift, and which other types
/// its stored values convert to without loss. Its storage (column types) is ``ColumnEncoding``'s,
/// shared with the runtime, where one `StrataColumnValue` conformance per Swift type binds and
/// reads it on every database.
///
/// No requirement has a default, and ``ScalarType/descriptor`` is the only switch over the
/// scalar types in the generator: a new type (`URL`, say) is a new ``ColumnEncoding`` case and a
/// new descriptor, and the compiler lists everything else left to fill in.
protocol ScalarDescriptor: Sendable {
    /// The range of an integer type; nil for the others.
    var integerRange: ClosedRange<Int64>? { get }
    /// True for the floating-point types.
    var isFloatingPoint: Bool { get }
    /// The types whose columns take this type's stored values without loss (integer widening,
    /// Float to Double, numbers to Decimal or text…), applied by migrations without a `transform`.
    var losslessTargets: Set<ScalarType> { get }
    /// The literal of a default written in the schema, or what was expected instead.
    func parseDefault(_ value: DefaultScalar) -> Result<Literal, DefaultMismatch>
    /// How a column stores a literal of this type in a database, or nil when it does not fit.
    func storedValue(of literal: Literal, rules: any SQLDialectRules) -> SQLValue?
    /// A literal of this type as a Swift expression (a model struct's default argument).
    func swiftExpression(of literal: Literal) -> String
}

/// A default as YAML wrote it: its text and the type YAML's core schema gives it.
struct DefaultScalar {
    /// What YAML's core schema makes of the scalar.
    enum Kind { case string, integer, float, bool, null }
    var text: String
    var kind: Kind
    /// The value, for the kinds that have one.
    var integer: Int64?
    var number: Double?
    var flag: Bool?
}

/// What a default should have been, for the message: "expected an integer".
struct DefaultMismatch: Error {
    var expected: String
}

extension ColumnEncoding {
    /// The type's descriptor: the only switch over the scalar types in the generator.
    var descriptor: any ScalarDescriptor {
        switch self {
        case .string: return StringScalar()
        case .int: return IntegerScalar(type: .int)
        case .int64: return IntegerScalar(type: .int64)
        case .int32: return IntegerScalar(type: .int32)
        case .int16: return IntegerScalar(type: .int16)
        case .double: return FloatingPointScalar(type: .double)
        case .float: return FloatingPointScalar(type: .float)
        case .bool: return BoolScalar()
        case .uuid: return UUIDScalar()
        case .date: return DateScalar()
        case .data: return DataScalar()
        case .decimal: return DecimalScalar()
        case .url: return URLScalar()
        case .json: return JSONScalar()
        }
    }
}

/// Shared by the descriptors: a decimal in the canonical text the runtime writes (`12.50` -> `12.5`).
func storedDecimal(_ text: String, rules: any SQLDialectRules) -> SQLValue? {
    guard let value = SQLiteStorage.decimal(text: text), !value.isNaN else { return nil }
    return rules.storedDecimal(canonical: SQLiteStorage.text(of: value))
}
