import StrataRuntime

extension PostgresDialect {
    /// Tests on an array field's native array column: `contains` is `@>` with the bound
    /// one-element array (which a GIN index on the column serves); `isEmpty` its cardinality.
    public static func arrayTest(_ test: StrataArrayTest, column: String, array: String) -> String {
        switch test {
        case .contains: "\(column) @> \(array)"
        case .isEmpty: "cardinality(\(column)) = 0"
        }
    }
}
