import StrataStorage

/// A column of the table of `Root`, holding values of type `Value`. Generated code declares one
/// per field (`TODOItemColumns().isDone` is a `StrataColumn<TODOItem, Bool>`); filters and sorts
/// are built from them, so comparing a column with a value of another type does not compile.
public struct StrataColumn<Root, Value: StrataColumnValue>: Sendable {
    /// The quoted SQL name of the column.
    public let sql: String
    /// For a `Date` field declared with `format:`, how SQLite stores it (ISO 8601 text): what
    /// values compared with the column are bound as.
    public let dateText: SQLiteDateText?

    /// Creates a column from its quoted SQL name (and, for a Date stored as text, its format).
    public init(sql: String, dateText: SQLiteDateText? = nil) {
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
    public var ascending: StrataOrdering<Root> { StrataOrdering(sql: sql + " ASC") }

    /// Sorts by this column, largest first (NULL last).
    public var descending: StrataOrdering<Root> { StrataOrdering(sql: sql + " DESC") }
}

extension StrataColumn {
    /// Rows whose value is one of `values` (none when `values` is empty).
    public func `in`(_ values: some Sequence<Value>) -> StrataPredicate<Root> {
        let arguments = values.map { argument($0) }
        guard !arguments.isEmpty else { return StrataPredicate(sql: "FALSE", arguments: []) }
        let placeholders = Array(repeating: "?", count: arguments.count).joined(separator: ", ")
        return StrataPredicate(sql: "\(sql) IN (\(placeholders))", arguments: arguments)
    }

    /// Rows whose value is none of `values` (all rows when `values` is empty).
    public func notIn(_ values: some Sequence<Value>) -> StrataPredicate<Root> {
        !self.in(values)
    }
}

extension StrataColumn where Value: StrataOptionalColumnValue {
    /// Rows where the column is NULL.
    public var isNull: StrataPredicate<Root> { StrataPredicate(sql: "\(sql) IS NULL", arguments: []) }

    /// Rows where the column is not NULL.
    public var isNotNull: StrataPredicate<Root> { StrataPredicate(sql: "\(sql) IS NOT NULL", arguments: []) }
}

extension StrataColumn where Value == String {
    /// Rows whose text matches a SQL LIKE pattern (`%` any run, `_` one character). Case follows
    /// the database: SQLite matches ASCII letters regardless of case, PostgreSQL matches case.
    public func like(_ pattern: String) -> StrataPredicate<Root> {
        StrataPredicate(sql: "\(sql) LIKE ?", arguments: [.text(pattern)])
    }
}

extension StrataColumn where Value == String? {
    /// Rows whose text matches a SQL LIKE pattern (NULL never matches).
    public func like(_ pattern: String) -> StrataPredicate<Root> {
        StrataPredicate(sql: "\(sql) LIKE ?", arguments: [.text(pattern)])
    }
}
