import GRDB
import GRDBSQLite
import StrataRuntime
import StrataStorage

extension SQLiteStore {
    /// An aggregate over the records matching `filter` (all when nil):
    /// `try db.todoItems.aggregate { $0.priority.max }` is a `Priority?`.
    @inlinable
    public func aggregate<Value: StrataSQLiteValue>(
        _ aggregate: (Record.Columns) -> StrataAggregate<Record, Value>,
        where filter: ((Record.Columns) -> StrataPredicate<Record>)? = nil
    ) throws -> Value {
        let columns = Record.Columns()
        let dateText = aggregate(columns).dateText
        let query = StrataSQL.aggregate(aggregate, groupedBy: [], where: filter)
        return try read { db in try StrataSQLiteAggregate.value(db, query, dateText: dateText) }
    }

    /// An aggregate per group of the records matching `filter` that have the same value in the
    /// `key` column, in the order of that value; no group for a value no record has.
    /// `try db.todoItems.aggregate({ $0.title.count }, groupedBy: { $0.priority })`.
    @inlinable
    public func aggregate<Key: StrataSQLiteValue & StrataSortableColumnValue, Value: StrataSQLiteValue>(
        _ aggregate: (Record.Columns) -> StrataAggregate<Record, Value>,
        groupedBy key: (Record.Columns) -> StrataColumn<Record, Key>,
        where filter: ((Record.Columns) -> StrataPredicate<Record>)? = nil
    ) throws -> [StrataGroup<Key, Value>] {
        let columns = Record.Columns()
        let (column, dateText) = (key(columns), aggregate(columns).dateText)
        let query = StrataSQL.aggregate(aggregate, groupedBy: [column.sql], where: filter)
        return try read { db in
            try StrataSQLiteAggregate.groups(db, query, dateText: dateText) {
                try StrataRead.value(Key.self, $0, 0, dateText: column.dateText)
            }
        }
    }

    /// An aggregate per group of the records matching `filter` that have the same values in two
    /// columns, in the order of those values: `groupedBy: { ($0.priority, $0.isDone) }`.
    @inlinable
    public func aggregate<
        Key1: StrataSQLiteValue & StrataSortableColumnValue, Key2: StrataSQLiteValue & StrataSortableColumnValue,
        Value: StrataSQLiteValue
    >(
        _ aggregate: (Record.Columns) -> StrataAggregate<Record, Value>,
        groupedBy keys: (Record.Columns) -> (StrataColumn<Record, Key1>, StrataColumn<Record, Key2>),
        where filter: ((Record.Columns) -> StrataPredicate<Record>)? = nil
    ) throws -> [StrataGroup<(Key1, Key2), Value>] {
        let columns = Record.Columns()
        let (first, second) = keys(columns)
        let dateText = aggregate(columns).dateText
        let query = StrataSQL.aggregate(aggregate, groupedBy: [first.sql, second.sql], where: filter)
        return try read { db in
            try StrataSQLiteAggregate.groups(db, query, dateText: dateText) {
                (
                    try StrataRead.value(Key1.self, $0, 0, dateText: first.dateText),
                    try StrataRead.value(Key2.self, $0, 1, dateText: second.dateText)
                )
            }
        }
    }

    /// The number of records matching `filter` per value of the `key` column.
    @inlinable
    public func count<Key: StrataSQLiteValue & StrataSortableColumnValue>(
        groupedBy key: (Record.Columns) -> StrataColumn<Record, Key>,
        where filter: ((Record.Columns) -> StrataPredicate<Record>)? = nil
    ) throws -> [StrataGroup<Key, Int>] {
        try aggregate({ _ in .count }, groupedBy: key, where: filter)
    }

    /// The number of records matching `filter` per pair of values of two columns.
    @inlinable
    public func count<Key1: StrataSQLiteValue & StrataSortableColumnValue, Key2: StrataSQLiteValue & StrataSortableColumnValue>(
        groupedBy keys: (Record.Columns) -> (StrataColumn<Record, Key1>, StrataColumn<Record, Key2>),
        where filter: ((Record.Columns) -> StrataPredicate<Record>)? = nil
    ) throws -> [StrataGroup<(Key1, Key2), Int>] {
        try aggregate({ _ in .count }, groupedBy: keys, where: filter)
    }
}

extension SQLiteRepository {
    /// ``SQLiteStore/aggregate(_:where:)``, now and after every change that affects it.
    public func observeAggregate<Value: StrataSQLiteValue & Equatable>(
        _ aggregate: (Record.Columns) -> StrataAggregate<Record, Value>,
        where filter: ((Record.Columns) -> StrataPredicate<Record>)? = nil
    ) -> AsyncValueObservation<Value> {
        let dateText = aggregate(Record.Columns()).dateText
        let query = StrataSQL.aggregate(aggregate, groupedBy: [], where: filter)
        return StrataObservation.values(in: writer) { db in try StrataSQLiteAggregate.value(db, query, dateText: dateText) }
    }

    /// ``SQLiteStore/aggregate(_:groupedBy:where:)``, now and after every change that affects it.
    public func observeAggregate<Key: StrataSQLiteValue & StrataSortableColumnValue & Equatable, Value: StrataSQLiteValue & Equatable>(
        _ aggregate: (Record.Columns) -> StrataAggregate<Record, Value>,
        groupedBy key: (Record.Columns) -> StrataColumn<Record, Key>,
        where filter: ((Record.Columns) -> StrataPredicate<Record>)? = nil
    ) -> AsyncValueObservation<[StrataGroup<Key, Value>]> {
        let columns = Record.Columns()
        let (column, dateText) = (key(columns), aggregate(columns).dateText)
        let query = StrataSQL.aggregate(aggregate, groupedBy: [column.sql], where: filter)
        return StrataObservation.values(in: writer) { db in
            try StrataSQLiteAggregate.groups(db, query, dateText: dateText) {
                try StrataRead.value(Key.self, $0, 0, dateText: column.dateText)
            }
        }
    }
}

/// Runs aggregate queries on SQLite.
public enum StrataSQLiteAggregate {
    /// The one value of an ungrouped aggregate query.
    @inlinable
    public static func value<Value: StrataSQLiteValue>(
        _ db: Database, _ query: StrataSQL, dateText: SQLiteDateText? = nil
    ) throws -> Value {
        let value = try StrataStatement(db, query).fetchOne { try StrataRead.value(Value.self, $0, 0, dateText: dateText) }
        guard let value else { throw StrataDecodingError.missingColumn(position: 0) }
        return value
    }

    /// The groups of a grouped aggregate query: `key` reads the key columns from 0, the aggregate
    /// is the column after them.
    @inlinable
    public static func groups<Key, Value: StrataSQLiteValue>(
        _ db: Database, _ query: StrataSQL, dateText: SQLiteDateText? = nil, key: (SQLiteStatement) throws -> Key
    ) throws -> [StrataGroup<Key, Value>] {
        try StrataStatement(db, query).fetchAll { statement in
            StrataGroup(
                key: try key(statement),
                value: try StrataRead.value(Value.self, statement, sqlite3_column_count(statement) - 1, dateText: dateText))
        }
    }
}
