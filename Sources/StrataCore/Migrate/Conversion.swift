/// How a continued field's stored values become the new column's values.
public enum Conversion: Hashable, Sendable {
    /// The values are kept as they are.
    case keep
    /// A conversion the tool knows to be lossless (integer widening, Float to Double, numbers to text…).
    case cast(from: ScalarType, to: ScalarType)
    /// The field's `transform` computes the value.
    case transform(DialectSQL)

    /// The lossless conversions Strata applies without a `transform`, by stored type.
    static func isLossless(from: ScalarType, to: ScalarType) -> Bool {
        from == to || from.descriptor.losslessTargets.contains(to)
    }
}

/// An old enum raw value and the raw value it becomes.
public struct RawValueMapping: Hashable, Sendable {
    /// The stored value in N-1.
    public var from: Literal
    /// The stored value in N.
    public var to: Literal
}

/// Where a column of version N gets its values from, during the migration into N.
public struct ValueSource: Hashable, Sendable {
    /// The field of N-1 the values come from; nil for a new field.
    public var previous: Field?
    /// How the old values are converted (for a new field: `.transform`, or `.keep` for its default).
    public var conversion: Conversion
    /// What replaces NULLs when the field may hold them but must not (made required): its
    /// `transform` or `default`.
    public var fill: Conversion?
    /// Enum raw values that change (new raw values, removed cases mapped to `unknown`).
    public var remap: [RawValueMapping]
    /// The edits to each stored JSON object, for a field whose JSON value type changed shape.
    public var reshape: [JSONEdit] = []
}
