extension PostgresRules {
    /// A `tsvector` column `<table>_search` kept by a trigger (`strata_search_<table>`: before
    /// an insert, or an update of a searched column, it sets the column to
    /// ``searchDocument(_:of:row:)`` of the row), and a GIN index `<table>_search_idx` over it;
    /// with `fill`, the rows already there are computed by one `UPDATE`, in the version's
    /// transaction (``LockWarnings`` warns of it for an existing table).
    ///
    /// Not a stored generated column: adding one to an existing table rewrites it under
    /// ACCESS EXCLUSIVE before anything else can happen (squawk's `adding-field-with-default`),
    /// where a column without a default is a change of the catalog only.
    public func createSearch(_ search: FullTextSearch, of entity: Entity, fill: Bool) -> [SQLStatement] {
        let dialect = SQLDialect.postgres
        let name = FullTextSearch.name(table: entity.table)
        let index = FullTextSearch.indexName(table: entity.table)
        let table = dialect.quoted(entity.table)
        var statements = [
            SQLStatement(
                kind: .addColumn(table: entity.table, column: name),
                comments: dialect.comment(
                    "Full-text search of \(entity.name) (\(search.fields.joined(separator: ", ")); \(search.language.rawValue)): a tsvector kept by its trigger."),
                sql: "ALTER TABLE \(table) ADD COLUMN \(dialect.quoted(name)) tsvector"),
            searchFunction(search, of: entity),
            searchTrigger(search, of: entity),
        ]
        if fill {
            statements.append(
                SQLStatement(
                    kind: .update(table: entity.table, column: name),
                    sql: "UPDATE \(table) SET \(dialect.quoted(name)) = \(searchDocument(search, of: entity))"))
        }
        statements.append(
            SQLStatement(
                kind: .createIndex(name: index, table: entity.table),
                sql: "CREATE INDEX \(dialect.quoted(index)) ON \(table) USING GIN (\(dialect.quoted(name)))"))
        return statements
    }

    /// `CREATE OR REPLACE FUNCTION "strata_search_<table>"()`: the trigger function that sets the
    /// row's search column. Its body names the searched columns: a version that renames one
    /// replaces it.
    public func searchFunction(_ search: FullTextSearch, of entity: Entity) -> SQLStatement {
        let dialect = SQLDialect.postgres
        let function = FullTextSearch.functionName(table: entity.table)
        let column = dialect.quoted(FullTextSearch.name(table: entity.table))
        return SQLStatement(
            kind: .createFunction(name: function),
            sql: [
                "CREATE OR REPLACE FUNCTION \(dialect.quoted(function))() RETURNS trigger LANGUAGE plpgsql AS $strata$",
                "BEGIN",
                "  NEW.\(column) := \(searchDocument(search, of: entity, row: "NEW."));",
                "  RETURN NEW;",
                "END",
                "$strata$",
            ].joined(separator: "\n"))
    }

    /// The trigger that runs ``searchFunction(_:of:)`` before an insert or an update of a searched column.
    private func searchTrigger(_ search: FullTextSearch, of entity: Entity) -> SQLStatement {
        let dialect = SQLDialect.postgres
        let function = dialect.quoted(FullTextSearch.functionName(table: entity.table))
        let columns = search.fields.compactMap { entity.field(named: $0)?.column }.map(dialect.quoted).joined(separator: ", ")
        return SQLStatement(
            kind: .createTrigger(name: FullTextSearch.functionName(table: entity.table), table: entity.table),
            sql:
                "CREATE TRIGGER \(function) BEFORE INSERT OR UPDATE OF \(columns) ON \(dialect.quoted(entity.table)) FOR EACH ROW EXECUTE FUNCTION \(function)()"
        )
    }

    /// The `tsvector` of a row: `to_tsvector` of the searched columns (each optional one
    /// `coalesce`d to `''`, each named after `row`: `NEW.` in the trigger) joined by a space, in
    /// the search's configuration.
    public func searchDocument(_ search: FullTextSearch, of entity: Entity, row: String = "") -> String {
        let dialect = SQLDialect.postgres
        let text = search.fields.compactMap { entity.field(named: $0) }.map { field in
            let column = row + dialect.quoted(field.column)
            return field.isOptional ? "coalesce(\(column), '')" : column
        }.joined(separator: " || ' ' || ")
        return "to_tsvector(\(dialect.literal(.text(search.language.postgresConfiguration)))::regconfig, \(text))"
    }

    /// Drops the trigger, its function and the `tsvector` column (with its index) of `entity`'s search.
    public func dropSearch(of entity: Entity) -> [SQLStatement] {
        let dialect = SQLDialect.postgres
        let function = FullTextSearch.functionName(table: entity.table)
        let table = dialect.quoted(entity.table)
        return [
            SQLStatement(
                kind: .dropTrigger(name: function, table: entity.table),
                sql: "DROP TRIGGER IF EXISTS \(dialect.quoted(function)) ON \(table)"),
            SQLStatement(kind: .dropFunction(name: function), sql: "DROP FUNCTION IF EXISTS \(dialect.quoted(function))()"),
            SQLStatement(
                kind: .dropColumn(table: entity.table, column: FullTextSearch.name(table: entity.table)),
                sql: "ALTER TABLE \(table) DROP COLUMN \(dialect.quoted(FullTextSearch.name(table: entity.table)))"),
        ]
    }
}
