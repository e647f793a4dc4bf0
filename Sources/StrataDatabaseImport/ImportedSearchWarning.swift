import StrataCore
import StrataIntrospection

/// The warnings for a database's own full-text search (a SQLite FTS5 table over a table's rows, a
/// PostgreSQL `tsvector` column), which `import database` leaves as it is while naming the
/// `search:` declaration with which Strata keeps its own.
enum ImportedSearchWarning {
    /// An FTS5 table `table` over the rows of `search.table`, indexing `search.columns`.
    static func fts5(table: String, over search: (table: String, columns: [String])) -> String {
        let columns = search.columns.joined(separator: ", ")
        return "table '\(table)' is a full-text index (FTS5) of \(search.table) (\(columns)); "
            + notImported(
                fields: search.columns, language: nil, on: "the entity of \(search.table)",
                keptAs: "a table \(search.table)_search kept by triggers")
    }

    /// A `tsvector` column `column` of `table` built from `sources` (columns), which are the
    /// fields `fields`, with the text search configuration `configuration` (nil when unknown);
    /// with no sources, the columns it is built from are unknown.
    static func searchVector(
        column: String, table: String, sources: [String], fields: [String], configuration: String?
    ) -> String {
        let what =
            sources.isEmpty
            ? "over columns Strata cannot tell (it is kept neither by a generation expression nor by tsvector_update_trigger)"
            : "over \(sources.joined(separator: ", "))"
        let language = configuration.flatMap(SearchLanguage.init(rawValue:))
        let unaccepted =
            configuration.map {
                language == nil
                    ? "; its text search configuration '\($0)' is not a language Strata's 'search:' accepts" : ""
            } ?? ""
        return "column '\(column)' of table '\(table)' is a full-text search vector (tsvector) \(what); "
            + notImported(
                fields: fields.isEmpty ? nil : fields, language: language, on: "the entity",
                keptAs: "a tsvector column kept by a trigger, with a GIN index") + unaccepted
    }

    /// What is done and what Strata declares instead: `search: [fields]` on `entity` (with
    /// `language` unless it is nil or `simple`, the shorthand's), kept as `keptAs`.
    private static func notImported(
        fields: [String]?, language: SearchLanguage?, on entity: String, keptAs: String
    ) -> String {
        let withLanguage = language.map { $0 == .simple ? "" : ", with 'language: \($0.rawValue)'" } ?? ""
        let declaration =
            fields.map { fields in
                let list = "[\(fields.joined(separator: ", "))]"
                guard let language, language != .simple else { return "'search: \(list)' on \(entity)" }
                return "'search: { fields: \(list), language: \(language.rawValue) }' on \(entity)"
            }
            ?? "'search: [...]' on \(entity), naming the fields it searches\(withLanguage)"
        return
            "not imported, and left as it is: Strata declares its own with \(declaration) (\(keptAs)), which a later version can add"
    }
}
