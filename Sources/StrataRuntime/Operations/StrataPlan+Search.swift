// Full-text search, written once for every database: the dialects write the SQL of each part
// (``StrataSQLDialect/fullText(_:of:query:)``).

extension StrataPlan where Record: StrataSearchable, Output == [Record] {
    /// The records whose searched fields contain every word of `text`, best match first (SQLite's
    /// `bm25`, PostgreSQL's `ts_rank`; ties in key order), that also match `filter` (all when nil),
    /// at most `limit`. A text without a word (empty, only spaces or punctuation) finds nothing.
    /// The text is never search syntax (``StrataSearch/query(_:)``).
    public static func search(_ text: String, where filter: StrataFilter<Record>? = nil, limit: Int? = nil) -> Self {
        guard let query = StrataSearch.query(text) else { return .result([]) }
        let table = Record.strataTable
        let search = Record.strataSearch
        var sql: StrataSQL = "SELECT \(table.selection) FROM \(table.sql)"
        sql.append(.fullText(.join, search, query: .text(query)))
        sql.appendWhere(filter?(Record.Columns()))
        sql.append(" ORDER BY ")
        sql.append(.fullText(.rank, search, query: nil))
        for column in table.primaryKey {
            sql.append(", ")
            sql.append(StrataSQL.column(column, of: table.name))
        }
        if let limit { sql.append(" LIMIT \(value: .integer(Int64(max(limit, 0))))") }
        return .records(StrataCommand(.query(sql), writes: false)) { $0 }
    }
}

extension StrataColumns where Record: StrataSearchable {
    /// The records whose searched fields contain every word of `text`: a filter for any `where:`
    /// (`{ $0.matches("swift nio") && $0.isArchived == false }`), unranked. A text without a word
    /// matches nothing. The text is never search syntax (``StrataSearch/query(_:)``).
    public func matches(_ text: String) -> StrataPredicate<Record> {
        guard let query = StrataSearch.query(text) else { return StrataPredicate("FALSE") }
        return StrataPredicate(StrataSQL(segments: [.fullText(.filter, Record.strataSearch, query: .text(query))]))
    }
}

extension StrataJoinColumns where Record: StrataSearchable {
    /// The rows of this table of the join whose searched fields contain every word of `text`
    /// (`{ post, writer in post.matches("swift") }`), unranked; none for a text without a word.
    public func matches(_ text: String) -> StrataPredicate<Root> {
        guard let query = StrataSearch.query(text) else { return StrataPredicate("FALSE") }
        return StrataPredicate(StrataSQL(segments: [.fullText(.filter, Record.strataSearch.aliased(alias), query: .text(query))]))
    }
}
