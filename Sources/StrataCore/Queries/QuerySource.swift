/// One named SQL query as written in `Schemas/<Model>/queries/*.sql`, before it is checked.
///
/// ```sql
/// -- name: filteredItems
/// -- The items that are done (or not), highest priority first, then by title.
/// SELECT * FROM todo_item WHERE is_done = :isDone ORDER BY priority DESC, title
/// ```
public struct QuerySource: Hashable, Sendable {
    /// A parameter type written in the query's header: `-- param: limit Int`.
    public struct DeclaredParameter: Hashable, Sendable {
        /// The parameter's name, without the `:`.
        public var name: String
        /// The type as written (`Int`, `String?`, an enum of the model).
        public var type: String
        /// Where the declaration is written.
        public var location: SourceLocation
    }

    /// The query's name: the generated function's name (`filteredItems`).
    public var name: String
    /// Where the name is written, on its `-- name:` line.
    public var nameLocation: SourceLocation
    /// The comment lines right after the name line, as documentation.
    public var doc: String?
    /// The parameter types the header declares.
    public var declaredParameters: [DeclaredParameter]
    /// The SQL of the statement, as written (without the header, a final `;` and trailing space).
    public var sql: String
    /// Where ``sql`` starts in the file.
    public var sqlStart: SourceLocation

    /// The location of the UTF-8 byte `offset` of ``sql`` in the file.
    public func location(ofByte offset: Int) -> SourceLocation {
        var line = sqlStart.line
        var column = sqlStart.column
        var consumed = 0
        for scalar in sql.unicodeScalars {
            guard consumed < offset else { break }
            consumed += UTF8.width(scalar)
            if scalar == "\n" {
                line += 1
                column = 1
            } else {
                column += 1
            }
        }
        return SourceLocation(file: sqlStart.file, line: line, column: column)
    }
}
