import StrataStorage

/// A SQL statement with the values bound to its `?` parameters, built by generated code from
/// quoted names, predicates and orderings: never from user text.
public struct StrataSQL: Hashable, Sendable {
    /// The SQL text.
    public var sql: String
    /// The values of its parameters, in order.
    public var arguments: [StrataSQLValue]

    /// Creates a statement.
    public init(sql: String, arguments: [StrataSQLValue] = []) {
        self.sql = sql
        self.arguments = arguments
    }

    /// `SELECT selection FROM table [WHERE …] [ORDER BY …] [LIMIT … OFFSET …]`.
    public static func select<Root>(
        _ selection: String,
        from table: String,
        where predicate: StrataPredicate<Root>?,
        orderBy orderings: [StrataOrdering<Root>] = [],
        limit: Int? = nil,
        offset: Int? = nil
    ) -> StrataSQL {
        var query = StrataSQL(sql: "SELECT \(selection) FROM \(table)")
        query.appendWhere(predicate)
        if !orderings.isEmpty {
            query.sql += " ORDER BY " + orderings.map(\.sql).joined(separator: ", ")
        }
        if limit != nil || offset != nil {
            query.sql += " LIMIT ? OFFSET ?"
            // No limit is the largest one: both databases accept it (SQLite has no OFFSET without LIMIT).
            query.arguments += [.integer(limit.map(Int64.init) ?? .max), .integer(Int64(offset ?? 0))]
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
            table.selection,
            from: table.quotedName,
            where: filter?(columns),
            orderBy: order?(columns) ?? [],
            limit: limit,
            offset: offset
        )
    }

    /// `SELECT COUNT(*) FROM table [WHERE …]`.
    public static func count<Root>(from table: String, where predicate: StrataPredicate<Root>?) -> StrataSQL {
        var query = StrataSQL(sql: "SELECT COUNT(*) FROM \(table)")
        query.appendWhere(predicate)
        return query
    }

    /// `SELECT EXISTS (SELECT 1 FROM table [WHERE …])`.
    public static func exists<Root>(in table: String, where predicate: StrataPredicate<Root>?) -> StrataSQL {
        var inner = StrataSQL(sql: "SELECT 1 FROM \(table)")
        inner.appendWhere(predicate)
        return StrataSQL(sql: "SELECT EXISTS (\(inner.sql))", arguments: inner.arguments)
    }

    /// `DELETE FROM table [WHERE …]`.
    public static func delete<Root>(from table: String, where predicate: StrataPredicate<Root>?) -> StrataSQL {
        var query = StrataSQL(sql: "DELETE FROM \(table)")
        query.appendWhere(predicate)
        return query
    }

    /// `UPDATE table SET … [WHERE …]`; nil when there is nothing to set.
    public static func update<Root>(
        _ table: String,
        set assignments: [StrataAssignment<Root>],
        where predicate: StrataPredicate<Root>?
    ) -> StrataSQL? {
        guard !assignments.isEmpty else { return nil }
        var query = StrataSQL(
            sql: "UPDATE \(table) SET " + assignments.map { "\($0.column) = ?" }.joined(separator: ", "),
            arguments: assignments.map(\.value)
        )
        query.appendWhere(predicate)
        return query
    }

    mutating func appendWhere<Root>(_ predicate: StrataPredicate<Root>?) {
        guard let predicate else { return }
        sql += " WHERE " + predicate.sql
        arguments += predicate.arguments
    }
}

/// A new value for a column, for updates of chosen fields: `$0.isDone.set(true)`.
public struct StrataAssignment<Root>: Sendable {
    /// The quoted column name.
    public let column: String
    /// The value, as stored.
    public let value: StrataSQLValue

    /// Creates an assignment; `column` must be a quoted column of `Root`'s table.
    public init(column: String, value: StrataSQLValue) {
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
    /// Sets the column named `column` (its name in the table, unquoted) to `value` when there is
    /// one (nil changes nothing; for an optional column, `.some(nil)` stores NULL): the arguments
    /// of the generated `update(_:field:…)` methods. It takes the column's name rather than a key
    /// path so that a method setting twenty fields compiles to twenty calls: in a release build the
    /// key path form made those methods about a third of the generated repositories' code. The
    /// name is a `StaticString` (a literal, as generated code writes it) and the function is never
    /// inlined, so that each field costs a release build one call with a pointer and a length:
    /// with `String` names, building the literals took most of the optimizer's time in those methods.
    @inline(never)
    public static func set<Value: StrataColumnValue>(_ column: StaticString, ifGiven value: Value?) -> Self? {
        value.map {
            let quoted = StrataTable<Root>.quoted(column.description)
            var stored = $0.strataSQLValue
            if case .date(let date) = stored, let record = Root.self as? any StrataRecord.Type,
                let format = dateText(record, quoted)
            {
                stored = .textDate(date, format)
            }
            return Self(column: quoted, value: stored)
        }
    }

    /// The format of a column of dates stored as text (`format:`), by its quoted name.
    private static func dateText<Record: StrataRecord>(_ type: Record.Type, _ quoted: String) -> SQLiteDateText? {
        Record.strataTable.dateTextsByColumn[quoted]
    }
}
