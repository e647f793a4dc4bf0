// Comparison operators between a column and a value of the column's type. There is no overload
// for other types: `isDone == "x"` does not compile.

extension StrataColumn {
    /// Rows whose value equals `value` (`IS NULL` when `value` is nil).
    public static func == (column: StrataColumn, value: Value) -> StrataPredicate<Root> {
        let argument = column.argument(value)
        if argument == .null { return StrataPredicate("\(column.sql) IS NULL") }
        return StrataPredicate("\(column.sql) = \(value: argument)")
    }

    /// Rows whose value differs from `value` (`IS NOT NULL` when `value` is nil; with a non-nil
    /// `value`, NULL rows do not match, as in SQL).
    public static func != (column: StrataColumn, value: Value) -> StrataPredicate<Root> {
        let argument = column.argument(value)
        if argument == .null { return StrataPredicate("\(column.sql) IS NOT NULL") }
        return StrataPredicate("\(column.sql) <> \(value: argument)")
    }
}

extension StrataColumn where Value: StrataComparableColumnValue {
    /// Rows whose value is smaller than `value`.
    public static func < (column: StrataColumn, value: Value) -> StrataPredicate<Root> {
        column.compare("<", value)
    }

    /// Rows whose value is smaller than or equal to `value`.
    public static func <= (column: StrataColumn, value: Value) -> StrataPredicate<Root> {
        column.compare("<=", value)
    }

    /// Rows whose value is larger than `value`.
    public static func > (column: StrataColumn, value: Value) -> StrataPredicate<Root> {
        column.compare(">", value)
    }

    /// Rows whose value is larger than or equal to `value`.
    public static func >= (column: StrataColumn, value: Value) -> StrataPredicate<Root> {
        column.compare(">=", value)
    }
}

extension StrataColumn where Value: StrataOptionalColumnValue, Value.Wrapped: StrataComparableColumnValue {
    /// Rows whose value is not NULL and smaller than `value`.
    public static func < (column: StrataColumn, value: Value.Wrapped) -> StrataPredicate<Root> {
        column.compare("<", value)
    }

    /// Rows whose value is not NULL and smaller than or equal to `value`.
    public static func <= (column: StrataColumn, value: Value.Wrapped) -> StrataPredicate<Root> {
        column.compare("<=", value)
    }

    /// Rows whose value is not NULL and larger than `value`.
    public static func > (column: StrataColumn, value: Value.Wrapped) -> StrataPredicate<Root> {
        column.compare(">", value)
    }

    /// Rows whose value is not NULL and larger than or equal to `value`.
    public static func >= (column: StrataColumn, value: Value.Wrapped) -> StrataPredicate<Root> {
        column.compare(">=", value)
    }
}

extension StrataColumn {
    fileprivate func compare(_ operation: String, _ value: some StrataColumnValue) -> StrataPredicate<Root> {
        StrataPredicate("\(sql) \(StrataSQL(verbatim: operation)) \(value: argument(value))")
    }
}
