extension PostgresRules {
    /// A stored generated `tsvector` column `<table>_search` over the searched columns (each
    /// `coalesce`d to `''`, joined by a space) in the search's configuration, and a GIN index
    /// `<table>_search_idx` over it. Adding the column computes it for every row: a rewrite of
    /// the table under ACCESS EXCLUSIVE (``LockWarnings`` warns of it for an existing table).
    public func createSearch(_ search: FullTextSearch, of entity: Entity, fill: Bool) -> [SQLStatement] {
        let dialect = SQLDialect.postgres
        let name = FullTextSearch.name(table: entity.table)
        let index = FullTextSearch.indexName(table: entity.table)
        let table = dialect.quoted(entity.table)
        return [
            SQLStatement(
                kind: .addColumn(table: entity.table, column: name),
                comments: dialect.comment(
                    "Full-text search of \(entity.name) (\(search.fields.joined(separator: ", ")); \(search.language.rawValue))."),
                sql: "ALTER TABLE \(table) ADD COLUMN \(dialect.quoted(name)) tsvector GENERATED ALWAYS AS (\(searchDocument(search, of: entity))) STORED"),
            SQLStatement(
                kind: .createIndex(name: index, table: entity.table),
                sql: "CREATE INDEX \(dialect.quoted(index)) ON \(table) USING GIN (\(dialect.quoted(name)))"),
        ]
    }

    /// The `tsvector` of a row: `to_tsvector` of the searched columns (each optional one
    /// `coalesce`d to `''`) joined by a space, in the search's configuration.
    public func searchDocument(_ search: FullTextSearch, of entity: Entity) -> String {
        let dialect = SQLDialect.postgres
        let text = search.fields.compactMap { entity.field(named: $0) }.map { field in
            field.isOptional ? "coalesce(\(dialect.quoted(field.column)), '')" : dialect.quoted(field.column)
        }.joined(separator: " || ' ' || ")
        return "to_tsvector(\(dialect.literal(.text(search.language.postgresConfiguration)))::regconfig, \(text))"
    }

    /// Drops the `tsvector` column of `entity`'s search, and with it its index.
    public func dropSearch(of entity: Entity) -> [SQLStatement] {
        let dialect = SQLDialect.postgres
        let name = FullTextSearch.name(table: entity.table)
        return [
            SQLStatement(
                kind: .dropColumn(table: entity.table, column: name),
                sql: "ALTER TABLE \(dialect.quoted(entity.table)) DROP COLUMN \(dialect.quoted(name))")
        ]
    }
}
