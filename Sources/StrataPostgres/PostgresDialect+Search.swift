import StrataRuntime

extension PostgresDialect {
    /// Full-text search on PostgreSQL: the `tsvector` column `<table>_search` (set by a trigger),
    /// matched (`@@`) against `plainto_tsquery` of the bound query in the search's configuration,
    /// ranked by `ts_rank` (higher is better).
    public static func fullText(_ part: StrataFullTextPart, of search: StrataSearch, query: String) -> String {
        let column = quoted(search.rows) + "." + quoted(search.name)
        let configuration = "'" + search.language.replacingOccurrences(of: "'", with: "''") + "'::regconfig"
        let alias = quoted("strata_query")
        switch part {
        case .filter:
            return "\(column) @@ plainto_tsquery(\(configuration), \(query))"
        case .join:
            return " JOIN plainto_tsquery(\(configuration), \(query)) AS \(alias) ON \(column) @@ \(alias)"
        case .rank:
            return "ts_rank(\(column), \(alias)) DESC"
        }
    }
}
