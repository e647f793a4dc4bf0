import StrataCore
import StrataPostgres
import StrataRuntime
import StrataSQLite

/// One statement that the code Strata generates for a version issues at run time.
public struct CompatibilityStatement: Hashable, Sendable {
    /// The entity it works on (nil for a named query).
    public var entity: String?
    /// What it does, in words: `insert`, `join Post.author`, `query 'recentPosts'`.
    public var kind: String
    /// The SQL, exactly as the runtime sends it.
    public var sql: String
}

/// Every statement the generated code of a version issues, per dialect: each table's insert,
/// upsert, find, update, delete and batch statements, the update of some fields, fetch, count,
/// exists, aggregates, updates and deletes by filter, the joins and counts along each reference,
/// and the named queries.
///
/// The SQL comes from the runtime's own builders (``StrataTable``, ``StrataSQL``,
/// ``StrataJoinQuery``, ``StrataSubquery``, `StrataPostgresTableSQL`), rendered in the dialect's
/// runtime dialect (`SQLiteDialect`, `PostgresDialect`), given tables built from the
/// version's entities with ``StrataTable/init(name:columns:primaryKey:assignsKey:)``: generated
/// record types hold the same names (column per field, in field order; the key; whether the
/// database assigns it), and the runtime's SQL depends on nothing else. Filters, sorts and
/// aggregates that application code writes name columns through the same quoting: one of each
/// per column stands for them.
public enum CompatibilityStatements {
    /// The statements of `schema`'s generated code on `dialect`, with `queries` (its named
    /// queries).
    public static func of(_ schema: Schema, queries: [AnalyzedQuery], dialect: SQLDialect) -> [CompatibilityStatement] {
        var tables: [String: StrataTable<Void>] = [:]
        for entity in schema.entities { tables[entity.name] = table(entity) }
        var statements: [CompatibilityStatement] = []
        for entity in schema.entities {
            guard let table = tables[entity.name] else { continue }
            func add(_ kind: String, _ sql: String) {
                statements.append(CompatibilityStatement(entity: entity.name, kind: kind, sql: sql))
            }
            func add(_ kind: String, _ sql: StrataSQL) {
                add(kind, dialect == .postgres ? sql.sql(PostgresDialect.self) : sql.sql(SQLiteDialect.self))
            }
            switch dialect {
            case .sqlite:
                let own = table.statements(SQLiteDialect.self)
                for kind in StrataTableStatementKind.allCases { kind.sql(in: own).map { add(kind.rawValue, $0) } }
            case .postgres:
                for (kind, sql) in StrataPostgresTableSQL.statements(of: table) { add(kind, sql) }
            }
            let none: StrataPredicate<Void>? = nil
            let assignments = entity.fields.filter { !entity.primaryKey.contains($0.name) }
                .map { StrataAssignment<Void>(column: .identifier($0.column), value: .null) }
            if !assignments.isEmpty { add("update of some fields", table.update(setting: assignments)) }
            add("fetch", StrataSQL.select(table.selection, from: table.sql, where: none, limit: 1, offset: 0))
            add("count", StrataSQL.count(from: table.sql, where: none))
            add("exists", StrataSQL.exists(in: table.sql, where: none))
            add("delete by filter", StrataSQL.delete(from: table.sql, where: none))
            if let update = StrataSQL.update(table.sql, set: assignments, where: none) { add("update by filter", update) }
            for field in entity.fields {
                let column = StrataColumn<Void, Int64>(sql: .identifier(field.column))
                add(
                    "aggregate by \(field.name)",
                    StrataSQL.aggregate(column.count, groupedBy: [column.sql], from: table.sql, where: none))
            }
            for field in entity.fields {
                guard let target = field.referencedEntity, let partner = tables[target] else { continue }
                let reference = StrataSQL.identifier(field.column)
                let join = StrataJoinQuery(
                    records: table, partners: partner, reference: reference, optional: field.isOptional,
                    where: none, orderBy: [], limit: nil, offset: nil)
                add("join \(entity.name).\(field.name)", join.statement)
                let related = StrataSubquery.related(table, via: reference, of: partner, where: nil)
                let counted = StrataSQL.select(partner, counting: StrataSubquery.count(related), where: nil, orderBy: [])
                add("\(target) counting \(entity.name) via \(field.name)", counted)
            }
        }
        for query in queries {
            statements.append(
                CompatibilityStatement(
                    entity: nil, kind: "query '\(query.source.name)'",
                    sql: dialect == .postgres ? query.postgresSQL : query.expandedSQL ?? query.source.sql))
        }
        return statements
    }

    /// The runtime table of `entity`, as its generated record type declares it.
    static func table(_ entity: Entity) -> StrataTable<Void> {
        StrataTable(
            name: entity.table, columns: entity.fields.map(\.column),
            primaryKey: entity.primaryKeyFields.map(\.column), assignsKey: entity.autoincrementField != nil)
    }
}
