import StrataRuntime

extension SQLiteDialect {
    /// Tests on an array field's column, a JSON array's text on SQLite: `contains` looks for the
    /// bound one-element JSON array's element among the column's (`json_each`, which gives text,
    /// integers, reals, and `true`/`false` as 1/0 on both sides alike); `isEmpty` counts them.
    public static func arrayTest(_ test: StrataArrayTest, column: String, array: String) -> String {
        switch test {
        case .contains:
            "EXISTS (SELECT 1 FROM json_each(\(column)) WHERE value IN (SELECT value FROM json_each(\(array))))"
        case .isEmpty:
            "json_array_length(\(column)) = 0"
        }
    }
}
