extension SchemaValidator {
    /// The names full-text search takes: SQLite's FTS5 table `<table>_search` (and the shadow
    /// tables FTS5 names after it), PostgreSQL's index `<table>_search_idx`; none may be the
    /// table or index of another entity (tables and indexes share one namespace).
    static func checkSearchNames(
        of schema: Schema, tables: [String: String], indexNames: [String: SourceLocation], _ bag: inout DiagnosticBag
    ) {
        for entity in schema.entities {
            guard let search = entity.search else { continue }
            let name = FullTextSearch.name(table: entity.table)
            let taken = [name] + ["data", "idx", "content", "docsize", "config"].map { "\(name)_\($0)" }
            for candidate in taken {
                if let owner = tables[candidate.lowercased()] {
                    bag.error(
                        "the full-text search of '\(entity.name)' needs the table name '\(candidate)' on SQLite, which entity '\(owner)' uses; choose another table name",
                        at: search.location)
                }
            }
            let index = FullTextSearch.indexName(table: entity.table)
            if indexNames[index.lowercased()] != nil || tables[index.lowercased()] != nil {
                bag.error(
                    "the full-text search of '\(entity.name)' needs the index name '\(index)' on PostgreSQL, which is already used",
                    at: search.location)
            }
        }
    }
}
