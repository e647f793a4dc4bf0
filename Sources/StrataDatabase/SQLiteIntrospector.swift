import GRDB
import StrataCore

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
        for row in rows {
            let name = try row.decode(String.self, forColumn: "name")
            let sql = try row.decode(String?.self, forColumn: "sql") ?? ""
            tables.append(try table(named: name, sql: sql, in: db))
        }
        return DatabaseSchema(tables: tables)
    }

    private static func table(named table: String, sql: String, in db: Database) throws -> DatabaseSchema.Table {
        let written = try SQLiteTableSQL(sql: sql)
        func constraintName(_ kind: SQLiteTableSQL.Constraint.Kind, columns: [String]) -> String? {
            written.constraints.first { $0.kind == kind && $0.columns == columns }?.name
        }

        var columns: [DatabaseSchema.Column] = []
        var keyColumns: [(position: Int, name: String)] = []
        for row in try Row.fetchAll(
            db, sql: "SELECT name, type, \"notnull\", dflt_value, pk FROM pragma_table_info(?) ORDER BY cid",
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
                    isAutoincrement: written.autoincrementColumns.contains(name)))
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
            db, sql: "SELECT name, \"unique\", origin FROM pragma_index_list(?)", arguments: [table])
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
                indexes.append(
                    DatabaseSchema.Index(
                        name: name, columns: indexColumns, isUnique: try row.decode(Int.self, forColumn: "unique") != 0)
                )
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
