import StrataStorage

extension StrataSQL {
    /// `SELECT selection FROM table [WHERE …] [ORDER BY …] [LIMIT … OFFSET …]`.
    public static func select<Root>(
        _ selection: StrataSQL,
        from table: StrataSQL,
        where predicate: StrataPredicate<Root>?,
        orderBy orderings: [StrataOrdering<Root>] = [],
        limit: Int? = nil,
        offset: Int? = nil
    ) -> StrataSQL {
        var query: StrataSQL = "SELECT \(selection) FROM \(table)"
        query.appendWhere(predicate)
        if !orderings.isEmpty {
            query.append(" ORDER BY ")
            query.append(joined(orderings.map(\.sql)))
        }
        if limit != nil || offset != nil {
            // No limit is the largest one: both databases accept it (SQLite has no OFFSET without LIMIT).
            query.append(" LIMIT \(value: .integer(limit.map(Int64.init) ?? .max)) OFFSET \(value: .integer(Int64(offset ?? 0)))")
        }
        return query
    }

    /// `SELECT` of the columns of `Record`'s table, for the rows matching `filter`, sorted by `order`.
    @inlinable
    public static func select<Record: StrataRecord>(
        _ type: Record.Type,
        where filter: ((Record.Columns) -> StrataPredicate<Record>)?,
        orderBy order: ((Record.Columns) -> [StrataOrdering<Record>])?,
        limit: Int? = nil,
        offset: Int? = nil
    ) -> StrataSQL {
        let columns = Record.Columns()
        let table = Record.strataTable
        return select(
            table.selection, from: table.sql, where: filter?(columns), orderBy: order?(columns) ?? [],
            limit: limit, offset: offset)
    }

    /// `SELECT COUNT(*) FROM table [WHERE …]`.
    public static func count<Root>(from table: StrataSQL, where predicate: StrataPredicate<Root>?) -> StrataSQL {
        var query: StrataSQL = "SELECT COUNT(*) FROM \(table)"
        query.appendWhere(predicate)
        return query
    }

    /// `SELECT COUNT(*) FROM (SELECT 1 FROM table [WHERE …] LIMIT 1)`: 1 when a row matches, else 0,
    /// an integer on every database (PostgreSQL's `EXISTS` is a boolean, SQLite's an integer); the
    /// scan stops at the first match.
    public static func exists<Root>(in table: StrataSQL, where predicate: StrataPredicate<Root>?) -> StrataSQL {
        var inner: StrataSQL = "SELECT 1 FROM \(table)"
        inner.appendWhere(predicate)
        return "SELECT COUNT(*) FROM (\(inner) LIMIT 1) AS \(identifier: "strata_exists")"
    }

    /// `DELETE FROM table [WHERE …]`.
    public static func delete<Root>(from table: StrataSQL, where predicate: StrataPredicate<Root>?) -> StrataSQL {
        var query: StrataSQL = "DELETE FROM \(table)"
        query.appendWhere(predicate)
        return query
    }

    /// `UPDATE table SET … [WHERE …]`; nil when there is nothing to set.
    public static func update<Root>(
        _ table: StrataSQL,
        set assignments: [StrataAssignment<Root>],
        where predicate: StrataPredicate<Root>?
    ) -> StrataSQL? {
        guard !assignments.isEmpty else { return nil }
        var query: StrataSQL = "UPDATE \(table) SET "
        query.append(joined(assignments.map { "\($0.column) = \(value: $0.value)" }))
        query.appendWhere(predicate)
        return query
    }

    mutating func appendWhere<Root>(_ predicate: StrataPredicate<Root>?) {
        guard let predicate else { return }
        append(" WHERE ")
        append(predicate.sql)
    }
}

/// A new value for a column, for updates of chosen fields: `$0.isDone.set(true)`.
public struct StrataAssignment<Root>: Sendable {
    /// The column.
    public let column: StrataSQL
    /// The value, as stored.
    public let value: StrataSQLValue

    /// Creates an assignment; `column` must be a column of `Root`'s table.
    public init(column: StrataSQL, value: StrataSQLValue) {
        self.column = column
        self.value = value
    }
}

extension StrataColumn {
    /// Sets the column to `value` in an update.
    public func set(_ value: Value) -> StrataAssignment<Root> {
        StrataAssignment(column: sql, value: argument(value))
    }

    /// Sets the column to `value` when there is one (nil changes nothing; for an optional column,
    /// `.some(nil)` stores NULL).
    public func set(ifGiven value: Value?) -> StrataAssignment<Root>? {
        value.map(set)
    }
}

extension StrataAssignment {
    /// Sets the column named `column` (its name in the table) to `value` when there is one (nil
    /// changes nothing; for an optional column, `.some(nil)` stores NULL): the arguments of the
    /// deprecated generated `update(_:field:…)` methods. It takes the column's name rather than a
    /// key path so that a method setting twenty fields compiles to twenty calls, a `StaticString`
    /// (a pointer and a length) in a function never inlined.
    @inline(never)
    public static func set<Value: StrataColumnValue>(_ column: StaticString, ifGiven value: Value?) -> Self? {
        value.map {
            let name = column.description
            var stored = $0.strataSQLValue
            if case .date(let date) = stored, let record = Root.self as? any StrataRecord.Type,
                let format = dateText(record, name)
            {
                stored = .textDate(date, format)
            }
            return Self(column: .identifier(name), value: stored)
        }
    }

    /// The format of a column of dates stored as text (`format:`), by its name.
    private static func dateText<Record: StrataRecord>(_ type: Record.Type, _ name: String) -> SQLiteDateText? {
        Record.strataTable.dateTextsByColumn[name]
    }
}
