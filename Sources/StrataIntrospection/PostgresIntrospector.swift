import PostgresNIO
import StrataCore
import StrataSQLText

/// Reads the schema of a PostgreSQL database from `pg_catalog`: the tables of one schema
/// (`public` unless told), their columns (`format_type`, `attnotnull`, `pg_get_expr` of the
/// default, identity), constraints (`pg_constraint`) and the indexes that back no constraint.
public enum PostgresIntrospector {
    /// The serial type of a serial column of `type` (`integer` -> `serial`), as it was declared.
    static func serialType(_ type: String) -> String {
        switch SQLCanonicalForm.typeName(type, dialect: .postgres) {
        case "bigint": return "bigserial"
        case "smallint": return "smallserial"
        default: return "serial"
        }
    }

    /// The tables of `namespace` (a PostgreSQL schema, `public` by default).
    public static func schema(of session: PostgresSession, namespace: String = "public") async throws -> DatabaseSchema
    {
        var columns: [String: [DatabaseSchema.Column]] = [:]
        var tableNames: [String] = []
        // The generation expressions of the generated tsvector columns, by table then column.
        var generationExpressions: [String: [String: String]] = [:]
        var unmanaged: [DatabaseSchema.Unmanaged] = []
        // A partitioned table and its partitions are one table in several: Strata declares
        // neither, so they are named apart rather than read as unrelated tables.
        for row in try await session.textRows(
            """
            SELECT c.relname::text, c.relkind::text, c.relispartition::text,
                   (SELECT p.relname::text FROM pg_catalog.pg_inherits i
                    JOIN pg_catalog.pg_class p ON p.oid = i.inhparent WHERE i.inhrelid = c.oid LIMIT 1)
            FROM pg_catalog.pg_class c
            JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
            WHERE n.nspname = \(namespace) AND c.relkind IN ('r', 'p')
            ORDER BY c.relname
            """)
        {
            guard row.count == 4, let name = row[0] else { continue }
            if row[1] == "p" {
                unmanaged.append(DatabaseSchema.Unmanaged(name: name, kind: "partitioned table"))
            } else if row[2] == "true" {
                let parent = row[3].map { " of \(SQLCanonicalForm.identifier($0))" } ?? ""
                unmanaged.append(DatabaseSchema.Unmanaged(name: name, kind: "partition\(parent)"))
            } else {
                tableNames.append(name)
            }
        }
        for row in try await session.textRows(
            """
            SELECT c.relname::text, a.attname::text, pg_catalog.format_type(a.atttypid, a.atttypmod),
                   a.attnotnull::text, pg_catalog.pg_get_expr(d.adbin, d.adrelid), a.attidentity::text,
                   (a.attidentity = '' AND pg_catalog.pg_get_expr(d.adbin, d.adrelid) LIKE 'nextval(%'
                    AND pg_catalog.pg_get_serial_sequence(format('%I.%I', n.nspname, c.relname), a.attname)
                        IS NOT NULL)::text,
                   a.attgenerated::text
            FROM pg_catalog.pg_attribute a
            JOIN pg_catalog.pg_class c ON c.oid = a.attrelid
            JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
            LEFT JOIN pg_catalog.pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
            WHERE n.nspname = \(namespace) AND c.relkind IN ('r', 'p') AND a.attnum > 0 AND NOT a.attisdropped
            ORDER BY c.relname, a.attnum
            """)
        {
            guard row.count == 8, let table = row[0], let name = row[1], let type = row[2] else { continue }
            // A serial column (an owned sequence and its nextval default) is assigned by the
            // database as an identity column is; its default is that assignment, not a value.
            let isSerial = row[6] == "true"
            var column = DatabaseSchema.Column(
                name: name, type: isSerial ? serialType(type) : SQLCanonicalForm.typeName(type, dialect: .postgres),
                isNullable: row[3] != "true",
                defaultValue: isSerial ? nil : SQLCanonicalForm.defaultValue(row[4], dialect: .postgres),
                isAutoincrement: isSerial || (row[5].map { !$0.isEmpty } ?? false),
                generated: row[7] == "s" ? "STORED" : nil)
            if column.type == searchVectorType {
                column.searchSources = []
                if row[7] == "s", let expression = row[4] {
                    generationExpressions[table, default: [:]][name] = expression
                }
            }
            columns[table, default: []].append(column)
        }
        try await findSearchSources(of: &columns, generationExpressions: generationExpressions, session, namespace)

        var primaryKeys: [String: DatabaseSchema.Key] = [:]
        var uniques: [String: [DatabaseSchema.Key]] = [:]
        var foreignKeys: [String: [DatabaseSchema.ForeignKey]] = [:]
        var checks: [String: [DatabaseSchema.Check]] = [:]
        for row in try await session.textRows(
            """
            SELECT c.relname::text, con.conname::text, con.contype::text, pg_catalog.pg_get_constraintdef(con.oid),
                   ARRAY(SELECT a.attname::text FROM unnest(con.conkey) WITH ORDINALITY AS k(num, ord)
                         JOIN pg_catalog.pg_attribute a ON a.attrelid = con.conrelid AND a.attnum = k.num
                         ORDER BY k.ord)::text,
                   CASE WHEN rc.oid IS NULL OR rn.nspname = \(namespace) THEN rc.relname::text
                        ELSE format('%I.%I', rn.nspname, rc.relname) END,
                   ARRAY(SELECT a.attname::text FROM unnest(con.confkey) WITH ORDINALITY AS k(num, ord)
                         JOIN pg_catalog.pg_attribute a ON a.attrelid = con.confrelid AND a.attnum = k.num
                         ORDER BY k.ord)::text,
                   con.confdeltype::text
            FROM pg_catalog.pg_constraint con
            JOIN pg_catalog.pg_class c ON c.oid = con.conrelid
            JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
            LEFT JOIN pg_catalog.pg_class rc ON rc.oid = con.confrelid
            LEFT JOIN pg_catalog.pg_namespace rn ON rn.oid = rc.relnamespace
            WHERE n.nspname = \(namespace) AND con.contype IN ('p', 'u', 'f', 'c')
            ORDER BY c.relname, con.conname
            """)
        {
            guard row.count == 8, let table = row[0], let name = row[1], let type = row[2] else { continue }
            let keyColumns = try textArray(row[4] ?? "{}")
            switch type {
            case "p":
                primaryKeys[table] = DatabaseSchema.Key(name: name, columns: keyColumns)
            case "u":
                uniques[table, default: []].append(DatabaseSchema.Key(name: name, columns: keyColumns))
            case "f":
                foreignKeys[table, default: []].append(
                    DatabaseSchema.ForeignKey(
                        name: name, columns: keyColumns, referencedTable: row[5] ?? "",
                        referencedColumns: try textArray(row[6] ?? "{}"),
                        onDelete: action(row[7] ?? "a")))
            default:
                checks[table, default: []].append(
                    DatabaseSchema.Check(name: name, rule: SQLCanonicalForm.checkRule(row[3] ?? "", dialect: .postgres))
                )
            }
        }

        var indexes: [String: [DatabaseSchema.Index]] = [:]
        for row in try await session.textRows(
            """
            SELECT c.relname::text, ic.relname::text, i.indisunique::text,
                   ARRAY(SELECT COALESCE(a.attname::text, '(expression)')
                         FROM unnest(i.indkey::int2[]) WITH ORDINALITY AS k(num, ord)
                         LEFT JOIN pg_catalog.pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.num
                         ORDER BY k.ord)::text,
                   pg_catalog.pg_get_expr(i.indpred, i.indrelid)
            FROM pg_catalog.pg_index i
            JOIN pg_catalog.pg_class c ON c.oid = i.indrelid
            JOIN pg_catalog.pg_class ic ON ic.oid = i.indexrelid
            JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
            WHERE n.nspname = \(namespace)
              AND NOT EXISTS (SELECT 1 FROM pg_catalog.pg_constraint con
                              WHERE con.conindid = i.indexrelid AND con.conrelid = i.indrelid AND con.contype IN ('p', 'u', 'x'))
            ORDER BY c.relname, ic.relname
            """)
        {
            guard row.count == 5, let table = row[0], let name = row[1] else { continue }
            indexes[table, default: []].append(
                DatabaseSchema.Index(
                    name: name, columns: try textArray(row[3] ?? "{}"), isUnique: row[2] == "true",
                    condition: row[4].map { SQLCanonicalForm.expression($0, dialect: .postgres) }))
        }

        return DatabaseSchema(
            tables: tableNames.map { name in
                DatabaseSchema.Table(
                    name: name, columns: columns[name] ?? [], primaryKey: primaryKeys[name],
                    uniqueConstraints: uniques[name] ?? [],
                    indexes: indexes[name] ?? [], foreignKeys: foreignKeys[name] ?? [], checks: checks[name] ?? [])
            }, unmanaged: unmanaged)
    }

    /// The SQL spelling of `pg_constraint.confdeltype`.
    static func action(_ code: String) -> String {
        switch code {
        case "c": return "CASCADE"
        case "n": return "SET NULL"
        case "d": return "SET DEFAULT"
        case "r": return "RESTRICT"
        default: return "NO ACTION"
        }
    }

    /// The elements of a one-dimensional text array in PostgreSQL's output form: `{a,"b c","d\"e"}`.
    static func textArray(_ text: String) throws -> [String] {
        let scalars = Array(text.unicodeScalars)
        guard scalars.first == "{", scalars.last == "}" else {
            throw SQLLexer.Failure(description: "not an array: \(text)")
        }
        var items: [String] = []
        var index = 1
        let end = scalars.count - 1
        while index < end {
            var item = String.UnicodeScalarView()
            if scalars[index] == "\"" {
                index += 1
                while index < end, scalars[index] != "\"" {
                    if scalars[index] == "\\", index + 1 < end { index += 1 }
                    item.append(scalars[index])
                    index += 1
                }
                index += 1
            } else {
                while index < end, scalars[index] != "," {
                    item.append(scalars[index])
                    index += 1
                }
            }
            items.append(String(item))
            index += 1  // the comma
        }
        return items
    }
}
