extension StrataStore {
    /// An aggregate over the records matching `filter` (all when nil):
    /// `try db.todoItems.aggregate { $0.priority.max }` is a `Priority?`.
    @inlinable
    public func aggregate<Value: StrataColumnValue>(
        _ aggregate: (Record.Columns) -> StrataAggregate<Record, Value>, where filter: StrataFilter<Record>? = nil
    ) throws -> Value {
        try StrataValueRow.first(of: rows(.aggregate(aggregate, where: filter)))
    }

    /// An aggregate per group of the records matching `filter` that have the same value in the
    /// `key` column, in the order of that value; no group for a value no record has.
    /// `try db.todoItems.aggregate({ $0.title.count }, groupedBy: { $0.priority })`.
    @inlinable
    public func aggregate<Key: StrataSortableColumnValue, Value: StrataColumnValue>(
        _ aggregate: (Record.Columns) -> StrataAggregate<Record, Value>,
        groupedBy key: (Record.Columns) -> StrataColumn<Record, Key>, where filter: StrataFilter<Record>? = nil
    ) throws -> [StrataGroup<Key, Value>] {
        try rows(.aggregate(aggregate, groupedBy: key, where: filter))
    }

    /// An aggregate per group of the records matching `filter` that have the same values in two
    /// columns, in the order of those values: `groupedBy: { ($0.priority, $0.isDone) }`.
    @inlinable
    public func aggregate<Key1: StrataSortableColumnValue, Key2: StrataSortableColumnValue, Value: StrataColumnValue>(
        _ aggregate: (Record.Columns) -> StrataAggregate<Record, Value>,
        groupedBy keys: (Record.Columns) -> (StrataColumn<Record, Key1>, StrataColumn<Record, Key2>),
        where filter: StrataFilter<Record>? = nil
    ) throws -> [StrataGroup<(Key1, Key2), Value>] {
        try rows(.aggregate(aggregate, groupedBy: keys, where: filter))
    }

    /// The number of records matching `filter` per value of the `key` column.
    @inlinable
    public func count<Key: StrataSortableColumnValue>(
        groupedBy key: (Record.Columns) -> StrataColumn<Record, Key>, where filter: StrataFilter<Record>? = nil
    ) throws -> [StrataGroup<Key, Int>] {
        try aggregate({ _ in .count }, groupedBy: key, where: filter)
    }

    /// The number of records matching `filter` per pair of values of two columns.
    @inlinable
    public func count<Key1: StrataSortableColumnValue, Key2: StrataSortableColumnValue>(
        groupedBy keys: (Record.Columns) -> (StrataColumn<Record, Key1>, StrataColumn<Record, Key2>),
        where filter: StrataFilter<Record>? = nil
    ) throws -> [StrataGroup<(Key1, Key2), Int>] {
        try aggregate({ _ in .count }, groupedBy: keys, where: filter)
    }
}
