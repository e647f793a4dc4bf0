import StrataStorage

/// A named query checked against the latest version of its model: what its Swift function takes
/// and returns.
public struct AnalyzedQuery: Hashable, Sendable {
    /// A name and its Swift type: a parameter, or a property of a row type.
    public struct TypedName: Hashable, Sendable {
        /// The name: a parameter's without its `:` (the argument label), or the property's.
        public var name: String
        /// The Swift type (`Bool`, `Priority`, `String?`).
        public var swiftType: String
        /// For a `Date` of a column declared with `format:`: its ISO 8601 text, how SQLite binds
        /// and reads it.
        public var dateText: SQLiteDateText?

        /// Creates a typed name.
        public init(name: String, swiftType: String, dateText: SQLiteDateText? = nil) {
            self.name = name
            self.swiftType = swiftType
            self.dateText = dateText
        }
    }

    /// A parameter of the function, bound to the statement's parameter of the same name.
    public typealias Parameter = TypedName
    /// A property of the generated row type: one result column, read by its index.
    public typealias Column = TypedName

    /// What the function returns.
    public enum Result: Hashable, Sendable {
        /// Nothing but the number of rows changed: a statement without result columns.
        case changes
        /// Records of an entity: the statement selects every column of its table, in order.
        case entity(String)
        /// A generated row type (`<QueryName>Row`) of these columns.
        case rows(type: String, columns: [Column])
    }

    /// The query as written.
    public var source: QuerySource
    /// The parameters in the order SQLite numbers them (the first use of each name).
    public var parameters: [Parameter]
    /// What it returns.
    public var result: Result
    /// True when the statement does not write: it runs in a read.
    public var isReadOnly: Bool
    /// For a generated row type, where each result column is read from (`todo_item.priority`),
    /// nil for an expression; empty otherwise.
    public var columnOrigins: [String?] = []
    /// The SQL with the stars of its result (`*`, `t.*`, `RETURNING *`) written as the explicit
    /// column list, when it has some (``QueryStarExpansion``): what PostgreSQL runs, so that
    /// columns a migration moved to the end of a table are still read at their position. Made
    /// from `source.sql`: nil again once that changes.
    public var expandedSQL: String? {
        get { expansion.flatMap { $0.from == source.sql ? $0.sql : nil } }
        set { expansion = newValue.map { Expansion(from: source.sql, sql: $0) } }
    }

    /// ``expandedSQL``, with the SQL it was made from.
    struct Expansion: Hashable, Sendable {
        var from: String
        var sql: String
    }
    var expansion: Expansion? = nil
}

extension SchemaHistory {
    /// True when the model folder holds a `queries` folder with at least one `.sql` file: then
    /// `<Model>QueryRows.swift` and each database's queries file (`<Model>Queries.swift`,
    /// `<Model>PostgresQueries.swift`) are generated, even when the files hold no query.
    public var hasQueryFiles: Bool { !queryFiles.isEmpty }
}
