import PostgresNIO
import StrataRuntime

extension PostgresStore {
    /// An aggregate over the records matching `filter` (all when nil):
    /// `try await db.todoItems.aggregate { $0.priority.max }` is a `Priority?`.
    @inlinable
    public func aggregate<Value: StrataPostgresValue>(
        _ aggregate: (Record.Columns) -> StrataAggregate<Record, Value>,
        where filter: ((Record.Columns) -> StrataPredicate<Record>)? = nil
    ) async throws -> Value {
        let query = StrataSQL.aggregate(aggregate, groupedBy: [], where: filter)
        let values = try await read { connection in
            try await connection.strataRows(query) { row in
                var cells = StrataPostgresRow(row)
                return try cells.next(as: Value.self)
            }
        }
        guard let value = values.first else { throw StrataDecodingError.missingColumn(position: 0) }
        return value
    }

    /// An aggregate per group of the records matching `filter` that have the same value in the
    /// `key` column, in the order of that value; no group for a value no record has.
    @inlinable
    public func aggregate<Key: StrataPostgresValue & StrataSortableColumnValue, Value: StrataPostgresValue>(
        _ aggregate: (Record.Columns) -> StrataAggregate<Record, Value>,
        groupedBy key: (Record.Columns) -> StrataColumn<Record, Key>,
        where filter: ((Record.Columns) -> StrataPredicate<Record>)? = nil
    ) async throws -> [StrataGroup<Key, Value>] {
        let query = StrataSQL.aggregate(aggregate, groupedBy: [key(Record.Columns()).sql], where: filter)
        return try await read { connection in
            try await connection.strataRows(query) { row in
                var cells = StrataPostgresRow(row)
                return StrataGroup(key: try cells.next(as: Key.self), value: try cells.next(as: Value.self))
            }
        }
    }

    /// An aggregate per group of the records matching `filter` that have the same values in two
    /// columns, in the order of those values: `groupedBy: { ($0.priority, $0.isDone) }`.
    @inlinable
    public func aggregate<
        Key1: StrataPostgresValue & StrataSortableColumnValue, Key2: StrataPostgresValue & StrataSortableColumnValue,
        Value: StrataPostgresValue
    >(
        _ aggregate: (Record.Columns) -> StrataAggregate<Record, Value>,
        groupedBy keys: (Record.Columns) -> (StrataColumn<Record, Key1>, StrataColumn<Record, Key2>),
        where filter: ((Record.Columns) -> StrataPredicate<Record>)? = nil
    ) async throws -> [StrataGroup<(Key1, Key2), Value>] {
        let (first, second) = keys(Record.Columns())
        let query = StrataSQL.aggregate(aggregate, groupedBy: [first.sql, second.sql], where: filter)
        return try await read { connection in
            try await connection.strataRows(query) { row in
                var cells = StrataPostgresRow(row)
                let key = (try cells.next(as: Key1.self), try cells.next(as: Key2.self))
                return StrataGroup(key: key, value: try cells.next(as: Value.self))
            }
        }
    }

    /// The number of records matching `filter` per value of the `key` column.
    @inlinable
    public func count<Key: StrataPostgresValue & StrataSortableColumnValue>(
        groupedBy key: (Record.Columns) -> StrataColumn<Record, Key>,
        where filter: ((Record.Columns) -> StrataPredicate<Record>)? = nil
    ) async throws -> [StrataGroup<Key, Int>] {
        try await aggregate({ _ in .count }, groupedBy: key, where: filter)
    }

    /// The number of records matching `filter` per pair of values of two columns.
    @inlinable
    public func count<
        Key1: StrataPostgresValue & StrataSortableColumnValue, Key2: StrataPostgresValue & StrataSortableColumnValue
    >(
        groupedBy keys: (Record.Columns) -> (StrataColumn<Record, Key1>, StrataColumn<Record, Key2>),
        where filter: ((Record.Columns) -> StrataPredicate<Record>)? = nil
    ) async throws -> [StrataGroup<(Key1, Key2), Int>] {
        try await aggregate({ _ in .count }, groupedBy: keys, where: filter)
    }
}
