extension SQLiteRules {
    /// An external-content FTS5 table `<table>_search` over the searched columns (its rowid the
    /// row's), kept in step by an AFTER INSERT, an AFTER UPDATE (of the searched columns and the
    /// key) and an AFTER DELETE trigger, as sqlite.org's FTS5 documentation shows; with `fill`,
    /// then built from the rows already there (`'rebuild'`).
    public func createSearch(_ search: FullTextSearch, of entity: Entity, fill: Bool) -> [SQLStatement] {
        let dialect = SQLDialect.sqlite
        let name = FullTextSearch.name(table: entity.table)
        let index = dialect.quoted(name)
        let table = dialect.quoted(entity.table)
        let columns = search.fields.compactMap { entity.field(named: $0)?.column }
        let list = columns.map(dialect.quoted).joined(separator: ", ")
        func values(_ row: String) -> String { columns.map { "\(row).\(dialect.quoted($0))" }.joined(separator: ", ") }
        let insert = "INSERT INTO \(index)(rowid, \(list)) VALUES (new.rowid, \(values("new")));"
        let delete = "INSERT INTO \(index)(\(index), rowid, \(list)) VALUES ('delete', old.rowid, \(values("old")));"
        let options = [
            "content = \(dialect.literal(.text(entity.table)))", "content_rowid = 'rowid'",
            "tokenize = \(dialect.literal(.text(search.language.sqliteTokenizer)))",
        ]
        var statements = [
            SQLStatement(
                kind: .createSearchTable(name: name, table: entity.table),
                comments: dialect.comment(
                    "Full-text search of \(entity.name) (\(search.fields.joined(separator: ", ")); \(search.language.rawValue)): FTS5 over the rows of \(entity.table), kept in step by its triggers."),
                sql: "CREATE VIRTUAL TABLE \(index) USING fts5(\(list), \(options.joined(separator: ", ")))")
        ]
        let updated = (columns + entity.primaryKeyFields.map(\.column)).map(dialect.quoted).joined(separator: ", ")
        for (event, timing, body) in [
            ("insert", "AFTER INSERT", [insert]), ("update", "AFTER UPDATE OF \(updated)", [delete, insert]),
            ("delete", "AFTER DELETE", [delete]),
        ] {
            let trigger = FullTextSearch.triggerName(table: entity.table, event: event)
            statements.append(
                SQLStatement(
                    kind: .createTrigger(name: trigger, table: entity.table),
                    sql: "CREATE TRIGGER \(dialect.quoted(trigger)) \(timing) ON \(table) BEGIN\n"
                        + body.map { "    " + $0 }.joined(separator: "\n") + "\nEND"))
        }
        if fill {
            statements.append(
                SQLStatement(kind: .update(table: name, column: name), sql: "INSERT INTO \(index)(\(index)) VALUES ('rebuild')"))
        }
        return statements
    }

    /// Drops the triggers and the FTS5 table of `entity`'s search (as version N-1 declared it).
    public func dropSearch(of entity: Entity) -> [SQLStatement] {
        let dialect = SQLDialect.sqlite
        let name = FullTextSearch.name(table: entity.table)
        return ["insert", "update", "delete"].map { event in
            let trigger = FullTextSearch.triggerName(table: entity.table, event: event)
            return SQLStatement(
                kind: .dropTrigger(name: trigger, table: entity.table), sql: "DROP TRIGGER IF EXISTS \(dialect.quoted(trigger))")
        } + [SQLStatement(kind: .dropSearchTable(name: name, table: entity.table), sql: "DROP TABLE IF EXISTS \(dialect.quoted(name))")]
    }
}
