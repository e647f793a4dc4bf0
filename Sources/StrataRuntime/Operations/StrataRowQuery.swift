import StrataStorage

/// How each row of a query is read: the decoding of joins, counts and aggregates, written once
/// and run by each database's executor over its ``StrataRowReader``.
public protocol StrataRowShape: Sendable {
    /// What one row is read as.
    associatedtype Row
    /// Reads one row.
    func read(from row: inout some StrataRowReader) throws -> Row
}

/// A query and how its rows are read: what the joins, counts and aggregates of the stores run,
/// built once for every database (``StrataRowQuery/joined(_:joining:on:where:orderBy:limit:offset:)``…).
public struct StrataRowQuery<Shape: StrataRowShape>: Sendable {
    /// The statement.
    public let sql: StrataSQL
    /// How its rows are read.
    public let shape: Shape

    /// A query whose rows `shape` reads.
    @inlinable
    public init(_ sql: StrataSQL, _ shape: Shape) {
        self.sql = sql
        self.shape = shape
    }
}

/// Rows read by their type's `init(row:)`.
public struct StrataDecodedRow<Row: StrataRowDecodable>: StrataRowShape {
    /// The shape.
    @inlinable
    public init() {}

    @inlinable
    public func read(from row: inout some StrataRowReader) throws -> Row { try Row(row: &row) }
}

/// A row of one value (an aggregate, a group key), a Date as a field declared with `format:`
/// keeps it when `dateText` says so.
public struct StrataValueRow<Value: StrataColumnValue>: StrataRowShape {
    /// How SQLite stores the value when it is a Date kept as text.
    public let dateText: SQLiteDateText?

    /// The shape of a value stored as `dateText` says (nil: as its type says).
    @inlinable
    public init(dateText: SQLiteDateText? = nil) {
        self.dateText = dateText
    }

    @inlinable
    public func read(from row: inout some StrataRowReader) throws -> Value { try row.next(Value.self, dateText: dateText) }
}

/// Two shapes, one after the other: the key of a group over two columns.
public struct StrataPairRow<First: StrataRowShape, Second: StrataRowShape>: StrataRowShape {
    /// The first columns.
    public let first: First
    /// The columns after them.
    public let second: Second

    /// The shape of `first`'s columns, then `second`'s.
    @inlinable
    public init(_ first: First, _ second: Second) {
        self.first = first
        self.second = second
    }

    @inlinable
    public func read(from row: inout some StrataRowReader) throws -> (First.Row, Second.Row) {
        (try first.read(from: &row), try second.read(from: &row))
    }
}

/// A group of a grouped aggregate: its key's columns, then the aggregate.
public struct StrataGroupRow<Key: StrataRowShape, Value: StrataColumnValue>: StrataRowShape {
    /// The key's columns.
    public let key: Key
    /// The aggregate.
    public let value: StrataValueRow<Value>

    /// The shape of a group.
    @inlinable
    public init(key: Key, value: StrataValueRow<Value>) {
        self.key = key
        self.value = value
    }

    @inlinable
    public func read(from row: inout some StrataRowReader) throws -> StrataGroup<Key.Row, Value> {
        StrataGroup(key: try key.read(from: &row), value: try value.read(from: &row))
    }
}

extension StrataCounted: StrataRowDecodable where Record: StrataRowDecodable {
    /// The record's columns, then the count.
    @inlinable
    public init(row: inout some StrataRowReader) throws {
        self.init(record: try Record(row: &row), count: try row.read(Int.self))
    }
}

// MARK: Queries

extension StrataRowQuery {
    /// The records matching `filter`, each with the `Partner` record its `reference` property holds
    /// the key of (an inner join).
    @inlinable
    public static func joined<Record: StrataRecord, Partner: StrataRecord>(
        _ record: Record.Type, joining partner: Partner.Type, on reference: PartialKeyPath<Record> & Sendable,
        where filter: StrataJoinFilter<Record, Partner>?, orderBy order: StrataJoinOrder<Record, Partner>?,
        limit: Int?, offset: Int?
    ) -> Self where Shape == StrataDecodedRow<StrataJoined<Record, Partner>> {
        let query = StrataJoinQuery(
            record, joining: partner, on: reference, optional: false, where: filter, orderBy: order, limit: limit,
            offset: offset)
        return StrataRowQuery(query.statement, StrataDecodedRow())
    }

    /// The records matching `filter`, each with the `Partner` record its optional `reference`
    /// property holds the key of, or nil (a left join).
    @inlinable
    public static func leftJoined<Record: StrataRecord, Partner: StrataRecord>(
        _ record: Record.Type, joining partner: Partner.Type, on reference: PartialKeyPath<Record> & Sendable,
        where filter: StrataJoinFilter<Record, Partner>?, orderBy order: StrataJoinOrder<Record, Partner>?,
        limit: Int?, offset: Int?
    ) -> Self where Shape == StrataDecodedRow<StrataJoined<Record, Partner?>> {
        let query = StrataJoinQuery(
            record, joining: partner, on: reference, optional: true, where: filter, orderBy: order, limit: limit,
            offset: offset)
        return StrataRowQuery(query.statement, StrataDecodedRow())
    }

    /// The records matching `filter`, sorted by `order`, each with the number of `Other` records
    /// (among those matching `counted`) whose `reference` property holds its key.
    @inlinable
    public static func counting<Record: StrataRecord, Other: StrataRecord>(
        _ record: Record.Type, _ other: Other.Type, via reference: PartialKeyPath<Other> & Sendable,
        where counted: StrataFilter<Other>?, filter: StrataFilter<Record>?, orderBy order: StrataSort<Record>?
    ) -> Self where Shape == StrataDecodedRow<StrataCounted<Record>> {
        let query = StrataSQL.select(record, counting: other, via: reference, where: counted, filter: filter, orderBy: order)
        return StrataRowQuery(query, StrataDecodedRow())
    }

    /// An aggregate over the records matching `filter` (all when nil): one row.
    @inlinable
    public static func aggregate<Record: StrataRecord, Value>(
        _ aggregate: (Record.Columns) -> StrataAggregate<Record, Value>, where filter: StrataFilter<Record>?
    ) -> Self where Shape == StrataValueRow<Value> {
        let dateText = aggregate(Record.Columns()).dateText
        return StrataRowQuery(.aggregate(aggregate, groupedBy: [], where: filter), StrataValueRow(dateText: dateText))
    }

    /// An aggregate per value of the `key` column, in the order of that value.
    @inlinable
    public static func aggregate<Record: StrataRecord, Key: StrataColumnValue, Value>(
        _ aggregate: (Record.Columns) -> StrataAggregate<Record, Value>,
        groupedBy key: (Record.Columns) -> StrataColumn<Record, Key>, where filter: StrataFilter<Record>?
    ) -> Self where Shape == StrataGroupRow<StrataValueRow<Key>, Value> {
        let columns = Record.Columns()
        let (column, dateText) = (key(columns), aggregate(columns).dateText)
        return StrataRowQuery(
            .aggregate(aggregate, groupedBy: [column.sql], where: filter),
            StrataGroupRow(key: StrataValueRow(dateText: column.dateText), value: StrataValueRow(dateText: dateText)))
    }

    /// An aggregate per pair of values of two columns, in the order of those values.
    @inlinable
    public static func aggregate<Record: StrataRecord, Key1: StrataColumnValue, Key2: StrataColumnValue, Value>(
        _ aggregate: (Record.Columns) -> StrataAggregate<Record, Value>,
        groupedBy keys: (Record.Columns) -> (StrataColumn<Record, Key1>, StrataColumn<Record, Key2>),
        where filter: StrataFilter<Record>?
    ) -> Self where Shape == StrataGroupRow<StrataPairRow<StrataValueRow<Key1>, StrataValueRow<Key2>>, Value> {
        let columns = Record.Columns()
        let (first, second) = keys(columns)
        let key = StrataPairRow(StrataValueRow<Key1>(dateText: first.dateText), StrataValueRow<Key2>(dateText: second.dateText))
        return StrataRowQuery(
            .aggregate(aggregate, groupedBy: [first.sql, second.sql], where: filter),
            StrataGroupRow(key: key, value: StrataValueRow(dateText: aggregate(columns).dateText)))
    }
}

extension StrataValueRow {
    /// The one row of an ungrouped aggregate.
    @inlinable
    public static func first(of rows: [Value]) throws -> Value {
        guard let value = rows.first else { throw StrataDecodingError.missingColumn(position: 0) }
        return value
    }
}
