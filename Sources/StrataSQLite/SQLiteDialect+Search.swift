import StrataRuntime

extension SQLiteDialect {
    /// Full-text search on SQLite: the external-content FTS5 table `<table>_search`, whose rowid
    /// is the row's, queried with `MATCH` and ranked by `bm25` (lower is better).
    public static func fullText(_ part: StrataFullTextPart, of search: StrataSearch, query: String) -> String {
        let table = quoted(search.rows)
        let index = quoted(search.name)
        switch part {
        case .filter:
            return "\(table).rowid IN (SELECT rowid FROM \(index) WHERE \(index) MATCH \(query))"
        case .join:
            let alias = quoted("strata_search")
            return " JOIN (SELECT rowid AS \(quoted("strata_rowid")), bm25(\(index)) AS \(quoted("strata_rank")) FROM \(index) WHERE \(index) MATCH \(query)) AS \(alias) ON \(alias).\(quoted("strata_rowid")) = \(table).rowid"
        case .rank:
            return "\(quoted("strata_search")).\(quoted("strata_rank"))"
        }
    }
}
