import StrataStorage

/// A column of the table of `Root`, holding values of type `Value`. Generated code declares one
/// per field (`TODOItemColumns().isDone` is a `StrataColumn<TODOItem, Bool>`); filters and sorts
/// are built from them, so comparing a column with a value of another type does not compile.
public struct StrataColumn<Root, Value: StrataColumnValue>: Sendable {
    /// The column, as SQL (its name, qualified by a table's alias in a join).
    public let sql: StrataSQL
    /// For a `Date` field declared with `format:`, how SQLite stores it (ISO 8601 text): what
    /// values compared with the column are bound as.
    public let dateText: SQLiteDateText?

    /// Creates a column from its SQL (and, for a Date stored as text, its format).
    public init(sql: StrataSQL, dateText: SQLiteDateText? = nil) {
        self.sql = sql
        self.dateText = dateText
    }

    /// A value compared with or stored in this column, as bound: a Date of a column of text dates
    /// becomes ``StrataSQLValue/textDate(_:_:)``.
    public func argument(_ value: some StrataColumnValue) -> StrataSQLValue {
        let argument = value.strataSQLValue
        if let dateText, case .date(let date) = argument { return .textDate(date, dateText) }
        return argument
    }
}

extension StrataColumn where Value: StrataSortableColumnValue {
    /// Sorts by this column, smallest first (NULL first).
    public var ascending: StrataOrdering<Root> { StrataOrdering("\(sql) ASC") }

    /// Sorts by this column, largest first (NULL last).
    public var descending: StrataOrdering<Root> { StrataOrdering("\(sql) DESC") }
}

extension StrataColumn {
    /// Rows whose value is one of `values` (none when `values` is empty).
    public func `in`(_ values: some Sequence<Value>) -> StrataPredicate<Root> {
        let arguments = values.map { StrataSQL.value(argument($0)) }
        guard !arguments.isEmpty else { return StrataPredicate("FALSE") }
        return StrataPredicate("\(sql) IN (\(StrataSQL.joined(arguments)))")
    }

    /// Rows whose value is none of `values` (all rows when `values` is empty).
    public func notIn(_ values: some Sequence<Value>) -> StrataPredicate<Root> {
        !self.in(values)
    }
}

extension StrataColumn where Value: StrataOptionalColumnValue {
    /// Rows where the column is NULL.
    public var isNull: StrataPredicate<Root> { StrataPredicate("\(sql) IS NULL") }

    /// Rows where the column is not NULL.
    public var isNotNull: StrataPredicate<Root> { StrataPredicate("\(sql) IS NOT NULL") }
}

extension StrataColumn where Value == String {
    /// Rows whose text matches a SQL LIKE pattern (`%` any run, `_` one character). Case follows
    /// the database: SQLite matches ASCII letters regardless of case, PostgreSQL matches case.
    public func like(_ pattern: String) -> StrataPredicate<Root> {
        StrataPredicate("\(sql) LIKE \(value: .text(pattern))")
    }
}

extension StrataColumn where Value == String? {
    /// Rows whose text matches a SQL LIKE pattern (NULL never matches).
    public func like(_ pattern: String) -> StrataPredicate<Root> {
        StrataPredicate("\(sql) LIKE \(value: .text(pattern))")
    }
}

extension StrataColumn where Value: StrataArrayColumnValue {
    /// Rows whose array holds `element` (NULL never does): `$0.tags.contains("swift")`.
    public func contains(_ element: Value.StrataElement) -> StrataPredicate<Root> {
        let array = StrataSQLValue.array(Value.StrataElement.strataArray([element]))
        return StrataPredicate(StrataSQL(segments: [.arrayTest(.contains, column: sql, array)]))
    }

    /// Rows whose array holds no element (NULL is not empty).
    public var isEmpty: StrataPredicate<Root> {
        StrataPredicate(StrataSQL(segments: [.arrayTest(.isEmpty, column: sql, nil)]))
    }
}

extension StrataColumn where Value: StrataJSONCodable {
    /// The member `key` of the JSON value this column holds, as a column of its own for filters
    /// and sorts: `$0.settings.theme == "dark"`. Generated JSON value types declare one property
    /// per member that databases can compare. A row whose value lacks the member reads NULL there.
    @inlinable
    public func member<Member: StrataColumnValue>(_ key: String, _ type: StrataJSONMemberType, as member: Member.Type = Member.self)
        -> StrataColumn<Root, Member>
    {
        StrataColumn<Root, Member>(
            sql: StrataSQL(segments: [.jsonMember(.open(type))]) + sql + StrataSQL(segments: [.jsonMember(.close(key, type))]),
            dateText: type == .date ? .timestamp : nil)
    }
}
