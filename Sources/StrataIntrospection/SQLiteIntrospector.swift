import GRDB
import StrataCore
import StrataSQLText

/// Reads the schema of a SQLite database: `PRAGMA table_info`, `index_list`, `index_info` and
/// `foreign_key_list`, plus what only the `CREATE TABLE` text in `sqlite_master` tells
/// (constraint names, checks, AUTOINCREMENT).
public enum SQLiteIntrospector {
    /// The tables of the database, except SQLite's own (`sqlite_*`).
    public static func schema(of db: Database) throws -> DatabaseSchema {
        let rows = try Row.fetchAll(
            db,
            sql:
                "SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name"
        )
        var tables: [DatabaseSchema.Table] = []
        let unmanaged = try unmanagedTables(rows, in: db)
        let unmanagedNames = Set(unmanaged.map(\.name))
        for row in rows {
            let name = try row.decode(String.self, forColumn: "name")
            if unmanagedNames.contains(name) { continue }
            let sql = try row.decode(String?.self, forColumn: "sql") ?? ""
            tables.append(try table(named: name, sql: sql, in: db))
        }
        return DatabaseSchema(tables: tables, unmanaged: unmanaged)
    }

    /// Virtual tables (`CREATE VIRTUAL TABLE … USING fts5`) and the shadow tables that hold
    /// their data (`docs_content`, `docs_idx`, …): SQLite's `table_list` says which are which;
    /// before SQLite 3.37 a shadow table is told by its virtual table's name and a `_` prefix.
    private static func unmanagedTables(_ rows: [Row], in db: Database) throws -> [DatabaseSchema.Unmanaged] {
        var virtual: [(name: String, module: String)] = []
        var searches: [String: (table: String, columns: [String])] = [:]
        for row in rows {
            let name = try row.decode(String.self, forColumn: "name")
            let sql = try row.decode(String?.self, forColumn: "sql") ?? ""
            let tokens = (try? SQLLexer(dialect: SQLDialect.sqlite.syntax).significantTokens(sql)) ?? []
            guard tokens.count > 2, tokens[1].isKeyword("VIRTUAL") else { continue }
            let module = tokens.firstIndex { $0.isKeyword("USING") }.flatMap {
                tokens.index(after: $0) < tokens.endIndex ? tokens[tokens.index(after: $0)].value : nil
            }
            virtual.append((name, module?.lowercased() ?? "unknown module"))
            if module?.lowercased() == "fts5", let search = externalContent(tokens) { searches[name] = search }
        }
        var found = virtual.map {
            DatabaseSchema.Unmanaged(name: $0.name, kind: "virtual table (\($0.module))", fullTextSearch: searches[$0.name])
        }
        let shadowNames: Set<String>
        if let listed = try? String.fetchAll(db, sql: "SELECT name FROM pragma_table_list WHERE type = 'shadow'") {
            shadowNames = Set(listed)
        } else {
            shadowNames = Set(
                try rows.map { try $0.decode(String.self, forColumn: "name") }.filter { name in
                    virtual.contains { name.hasPrefix($0.name + "_") }
                })
        }
        for row in rows {
            let name = try row.decode(String.self, forColumn: "name")
            guard shadowNames.contains(name) else { continue }
            let owner = virtual.filter { name.hasPrefix($0.name + "_") }.max { $0.name.count < $1.name.count }
            found.append(
                DatabaseSchema.Unmanaged(
                    name: name,
                    kind: "shadow table" + (owner.map { " of virtual table \(SQLCanonicalForm.identifier($0.name))" } ?? "")))
        }
        return found
    }

    /// The table an FTS5 table indexes (`content='note'`) and its indexed columns (the
    /// arguments that are not options, `UNINDEXED` ones left out), from its `CREATE VIRTUAL
    /// TABLE … USING fts5(…)`; nil for an FTS5 table that keeps its own content.
    static func externalContent(_ tokens: [SQLToken]) -> (table: String, columns: [String])? {
        guard let open = tokens.firstIndex(where: { $0.isSymbol("(") }) else { return nil }
        var arguments: [[SQLToken]] = [[]]
        var depth = 0
        for token in tokens[tokens.index(after: open)...] {
            if token.isSymbol("(") { depth += 1 }
            if token.isSymbol(")") {
                if depth == 0 { break }
                depth -= 1
            }
            if depth == 0, token.isSymbol(",") {
                arguments.append([])
            } else {
                arguments[arguments.count - 1].append(token)
            }
        }
        var content: String?
        var columns: [String] = []
        for argument in arguments where !argument.isEmpty {
            if argument.count >= 3, argument[1].isSymbol("=") {
                if argument[0].value.lowercased() == "content" { content = argument[2].value }
            } else if !argument.contains(where: { $0.isKeyword("UNINDEXED") }) {
                columns.append(argument[0].value)
            }
        }
        guard let content, !content.isEmpty, !columns.isEmpty else { return nil }
        return (content, columns)
    }

    /// The condition of a partial index from its `CREATE INDEX … WHERE condition`, in canonical form.
    static func partialIndexCondition(_ sql: String) throws -> String? {
        let tokens = try SQLLexer(dialect: SQLDialect.sqlite.syntax).significantTokens(sql)
        var depth = 0
        for (offset, token) in tokens.enumerated() {
            if token.isSymbol("(") { depth += 1 }
            if token.isSymbol(")") { depth -= 1 }
            if depth == 0, token.isKeyword("WHERE") {
                let condition = tokens[(offset + 1)...].map(\.text).joined(separator: " ")
                return SQLCanonicalForm.expression(condition, dialect: .sqlite)
            }
        }
        return nil
    }

    private static func table(named table: String, sql: String, in db: Database) throws -> DatabaseSchema.Table {
        let written = try SQLiteTableSQL(sql: sql)
        func constraintName(_ kind: SQLiteTableSQL.Constraint.Kind, columns: [String]) -> String? {
            written.constraints.first { $0.kind == kind && $0.columns == columns }?.name
        }

        var columns: [DatabaseSchema.Column] = []
        var keyColumns: [(position: Int, name: String)] = []
        for row in try Row.fetchAll(
            db,
            sql: "SELECT name, type, \"notnull\", dflt_value, pk, hidden FROM pragma_table_xinfo(?) WHERE hidden != 1 ORDER BY cid",
            arguments: [table])
        {
            let name = try row.decode(String.self, forColumn: "name")
            let position = try row.decode(Int.self, forColumn: "pk")
            if position > 0 { keyColumns.append((position, name)) }
            columns.append(
                DatabaseSchema.Column(
                    name: name,
                    type: SQLCanonicalForm.typeName(try row.decode(String.self, forColumn: "type"), dialect: .sqlite),
                    isNullable: try row.decode(Int.self, forColumn: "notnull") == 0,
                    defaultValue: SQLCanonicalForm.defaultValue(
                        try row.decode(String?.self, forColumn: "dflt_value"), dialect: .sqlite),
                    isAutoincrement: written.autoincrementColumns.contains(name),
                    generated: [2: "VIRTUAL", 3: "STORED"][try row.decode(Int.self, forColumn: "hidden")]))
        }
        let keyNames = keyColumns.sorted { $0.position < $1.position }.map(\.name)
        // A single-column INTEGER PRIMARY KEY is the rowid, which is never NULL, whatever the
        // table says (`id INTEGER PRIMARY KEY` reads back as allowing NULL).
        if keyNames.count == 1, let index = columns.firstIndex(where: { $0.name == keyNames[0] }),
            columns[index].type == "INTEGER"
        {
            columns[index].isNullable = false
        }
        let primaryKey =
            keyNames.isEmpty
            ? nil : DatabaseSchema.Key(name: constraintName(.primaryKey, columns: keyNames), columns: keyNames)

        var uniques: [DatabaseSchema.Key] = []
        var indexes: [DatabaseSchema.Index] = []
        for row in try Row.fetchAll(
            db, sql: "SELECT name, \"unique\", origin, partial FROM pragma_index_list(?)", arguments: [table])
        {
            let name = try row.decode(String.self, forColumn: "name")
            let origin = try row.decode(String.self, forColumn: "origin")
            let indexColumns = try Row.fetchAll(
                db, sql: "SELECT name FROM pragma_index_info(?) ORDER BY seqno", arguments: [name]
            ).map { try $0.decode(String?.self, forColumn: "name") ?? "(expression)" }
            switch origin {
            case "u":
                uniques.append(
                    DatabaseSchema.Key(name: constraintName(.unique, columns: indexColumns), columns: indexColumns))
            case "pk":
                continue
            default:
                let condition =
                    try row.decode(Int.self, forColumn: "partial") != 0
                    ? try partialIndexCondition(
                        String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE type = 'index' AND name = ?",
                            arguments: [name]) ?? "") : nil
                indexes.append(
                    DatabaseSchema.Index(
                        name: name, columns: indexColumns, isUnique: try row.decode(Int.self, forColumn: "unique") != 0,
                        condition: condition))
            }
        }

        var foreignKeys: [Int: DatabaseSchema.ForeignKey] = [:]
        for row in try Row.fetchAll(
            db,
            sql: "SELECT id, \"table\", \"from\", \"to\", on_delete FROM pragma_foreign_key_list(?) ORDER BY id, seq",
            arguments: [table])
        {
            let id = try row.decode(Int.self, forColumn: "id")
            var key =
                try foreignKeys[id]
                ?? DatabaseSchema.ForeignKey(
                    name: nil, columns: [], referencedTable: try row.decode(String.self, forColumn: "table"),
                    referencedColumns: [],
                    onDelete: try row.decode(String.self, forColumn: "on_delete").uppercased())
            key.columns.append(try row.decode(String.self, forColumn: "from"))
            key.referencedColumns.append(try row.decode(String?.self, forColumn: "to") ?? "")
            foreignKeys[id] = key
        }
        let namedForeignKeys = foreignKeys.values.map { key in
            var key = key
            key.name = constraintName(.foreignKey, columns: key.columns)
            return key
        }

        let checks = written.constraints.filter { $0.kind == .check }.map { check in
            DatabaseSchema.Check(
                name: check.name,
                rule: SQLCanonicalForm.checkRule(check.condition.map(\.text).joined(separator: " "), dialect: .sqlite))
        }
        return DatabaseSchema.Table(
            name: table, columns: columns, primaryKey: primaryKey, uniqueConstraints: uniques, indexes: indexes,
            foreignKeys: namedForeignKeys, checks: checks)
    }
}
