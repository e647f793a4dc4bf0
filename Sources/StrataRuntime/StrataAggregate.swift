import StrataStorage

/// An aggregate of one column over the rows of `Root`'s table, typed by what it returns: of an
/// `Int32` column, `sum` is an `Int64` and `average` a `Double?`; of a `Date` column, `min` is a
/// `Date?`. Built in the closures of a store's `aggregate(_:where:)` and
/// `aggregate(_:groupedBy:where:)`: `try db.todoItems.aggregate { $0.priority.max }`.
///
/// Sums and averages are cast to the database's 64-bit integer or double type (PostgreSQL's `SUM`
/// of a `BIGINT` is a `NUMERIC`), and a sum of no rows is 0.
public struct StrataAggregate<Root, Value>: Sendable {
    /// The aggregate expression (`MAX("priority")`).
    public let sql: StrataSQL
    /// The format of the dates it returns when they are ISO 8601 text (the `MIN` or `MAX` of a
    /// Date column declared with `format:`): how SQLite's value is read.
    public let dateText: SQLiteDateText?

    /// An aggregate from its SQL expression over quoted columns.
    public init(_ sql: StrataSQL, dateText: SQLiteDateText? = nil) {
        self.sql = sql
        self.dateText = dateText
    }

    /// The number of records (`COUNT(*)`).
    public static var count: StrataAggregate<Root, Int> { StrataAggregate<Root, Int>("COUNT(*)") }
}

/// One group of a grouped aggregate: the values of the grouping columns (a tuple in the order they
/// were given, for several) and the aggregate over the group's records.
public struct StrataGroup<Key, Value> {
    /// The grouping columns' values.
    public let key: Key
    /// The aggregate over the group.
    public let value: Value

    /// A group.
    public init(key: Key, value: Value) {
        self.key = key
        self.value = value
    }
}

extension StrataGroup: Sendable where Key: Sendable, Value: Sendable {}

/// An integer column value: its sum is an `Int64`, its average a `Double`.
public protocol StrataIntegerColumnValue: StrataColumnValue {}
/// A floating-point column value: its sum is a `Double`, its average a `Double`.
public protocol StrataFloatingPointColumnValue: StrataColumnValue {}

extension Int: StrataIntegerColumnValue {}
extension Int64: StrataIntegerColumnValue {}
extension Int32: StrataIntegerColumnValue {}
extension Int16: StrataIntegerColumnValue {}
extension Double: StrataFloatingPointColumnValue {}
extension Float: StrataFloatingPointColumnValue {}
extension Optional: StrataIntegerColumnValue where Wrapped: StrataIntegerColumnValue {}
extension Optional: StrataFloatingPointColumnValue where Wrapped: StrataFloatingPointColumnValue {}

extension StrataColumn {
    /// The number of records whose value is not NULL.
    public var count: StrataAggregate<Root, Int> { StrataAggregate("COUNT(\(sql))") }
}

extension StrataColumn where Value: StrataIntegerColumnValue {
    /// The sum of the values (NULLs left out), 0 for no rows; an error when it passes `Int64`.
    public var sum: StrataAggregate<Root, Int64> { StrataAggregate("CAST(COALESCE(SUM(\(sql)), 0) AS \(type: .integer))") }

    /// The mean of the values (NULLs left out), nil for no rows.
    public var average: StrataAggregate<Root, Double?> { StrataAggregate("CAST(AVG(\(sql)) AS \(type: .real))") }
}

extension StrataColumn where Value: StrataFloatingPointColumnValue {
    /// The sum of the values (NULLs left out), 0 for no rows.
    public var sum: StrataAggregate<Root, Double> {
        StrataAggregate("CAST(COALESCE(SUM(\(sql)), 0) AS \(type: .real))")
    }

    /// The mean of the values (NULLs left out), nil for no rows.
    public var average: StrataAggregate<Root, Double?> { StrataAggregate("CAST(AVG(\(sql)) AS \(type: .real))") }
}

extension StrataColumn where Value: StrataComparableColumnValue {
    /// The smallest value, nil for no rows.
    public var min: StrataAggregate<Root, Value?> { StrataAggregate("MIN(\(sql))", dateText: dateText) }
    /// The largest value, nil for no rows.
    public var max: StrataAggregate<Root, Value?> { StrataAggregate("MAX(\(sql))", dateText: dateText) }
}

extension StrataColumn where Value: StrataOptionalColumnValue, Value.Wrapped: StrataComparableColumnValue {
    /// The smallest value (NULLs left out), nil for no rows or only NULLs.
    public var min: StrataAggregate<Root, Value> { StrataAggregate("MIN(\(sql))", dateText: dateText) }
    /// The largest value (NULLs left out), nil for no rows or only NULLs.
    public var max: StrataAggregate<Root, Value> { StrataAggregate("MAX(\(sql))", dateText: dateText) }
}

extension StrataSQL {
    /// The query of an aggregate over `Record`'s table, grouped by the columns `keys`.
    @inlinable
    public static func aggregate<Record: StrataRecord, Value>(
        _ aggregate: (Record.Columns) -> StrataAggregate<Record, Value>, groupedBy keys: [StrataSQL],
        where filter: ((Record.Columns) -> StrataPredicate<Record>)?
    ) -> StrataSQL {
        let columns = Record.Columns()
        return StrataSQL.aggregate(
            aggregate(columns), groupedBy: keys, from: Record.strataTable.sql, where: filter?(columns))
    }

    /// `SELECT keys…, aggregate FROM table [WHERE …] [GROUP BY keys… ORDER BY keys…]`: one row,
    /// or one row per group in the order of its keys.
    public static func aggregate<Root>(
        _ aggregate: StrataAggregate<Root, some Any>, groupedBy keys: [StrataSQL] = [], from table: StrataSQL,
        where predicate: StrataPredicate<Root>?
    ) -> StrataSQL {
        var query: StrataSQL = "SELECT \(joined(keys + [aggregate.sql])) FROM \(table)"
        query.appendWhere(predicate)
        if !keys.isEmpty {
            let list = joined(keys)
            query.append(" GROUP BY \(list) ORDER BY \(list)")
        }
        return query
    }
}

extension StrataGroup: Equatable where Key: Equatable, Value: Equatable {}
