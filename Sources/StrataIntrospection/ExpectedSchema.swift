import StrataCore

/// The schema a database should have for one version of a model, in one dialect: what
/// introspection must read back after running the version's SQL.
///
/// It is derived from the model (fields, keys, indexes, references), not from the generated
/// SQL, so that comparing it with a live database checks the DDL renderer. Column types come
/// from ``ColumnEncoding`` and values (defaults, allowed values) from the dialect's storage of
/// the schema's literals, both shared with the renderer and the runtime by design.
public enum ExpectedSchema {
    /// The expected schema of `schema` in `dialect`.
    public static func of(_ schema: Schema, dialect: SQLDialect) -> DatabaseSchema {
        DatabaseSchema(tables: schema.entities.map { table(of: $0, in: schema, dialect: dialect) })
    }

    /// The expected table of one entity.
    public static func table(of entity: Entity, in schema: Schema, dialect: SQLDialect) -> DatabaseSchema.Table {
        let renderer = DDLRenderer(dialect: dialect)
        var columns = entity.fields.map { field in
            DatabaseSchema.Column(
                name: field.column,
                type: SQLCanonicalForm.typeName(dialect.columnType(of: field, in: schema), dialect: dialect),
                isNullable: field.isOptional,
                defaultValue: renderer.defaultValue(of: field, in: schema).flatMap {
                    SQLCanonicalForm.defaultValue(dialect.literal($0), dialect: dialect)
                } ?? field.sqlDefault.flatMap(dialect.rules.sql).flatMap { SQLCanonicalForm.defaultValue($0, dialect: dialect) },
                // SQLite records AUTOINCREMENT; a rowid key is assigned without it.
                isAutoincrement: field.isAutoincrement
                    && !(field.isRowidKey && !dialect.rules.declaresAutoincrementKeyInTable))
        }
        let keyColumns = entity.primaryKeyFields.map(\.column)
        let uniques = entity.fields.filter(\.isUnique).map { field in
            DatabaseSchema.Key(
                name: SQLConstraintName.unique(table: entity.table, column: field.column), columns: [field.column])
        }
        var indexes = entity.indexes.map { index in
            DatabaseSchema.Index(
                name: index.name, columns: index.fields.compactMap { entity.field(named: $0)?.column },
                isUnique: index.isUnique,
                condition: index.condition.flatMap(dialect.rules.sql).map {
                    SQLCanonicalForm.expression($0, dialect: dialect)
                })
        }
        let foreignKeys = entity.fields.compactMap { field -> DatabaseSchema.ForeignKey? in
            guard let targetName = field.referencedEntity, let target = schema.entity(named: targetName),
                let key = target.singlePrimaryKey
            else { return nil }
            return DatabaseSchema.ForeignKey(
                name: SQLConstraintName.foreignKey(table: entity.table, column: field.column), columns: [field.column],
                referencedTable: target.table, referencedColumns: [key.column], onDelete: field.onDelete.sqlAction)
        }
        let checks = entity.fields.compactMap { field -> DatabaseSchema.Check? in
            if let condition = field.check.flatMap(dialect.rules.sql) {
                return DatabaseSchema.Check(
                    name: SQLConstraintName.check(table: entity.table, column: field.column),
                    rule: SQLCanonicalForm.checkRule(condition, dialect: dialect))
            }
            guard let values = renderer.allowedValues(of: field, in: schema) else { return nil }
            let canonical = values.map { SQLCanonicalForm.expression(dialect.literal($0), dialect: dialect) }.sorted()
            return DatabaseSchema.Check(
                name: SQLConstraintName.check(table: entity.table, column: field.column),
                rule: .allowedValues(column: field.column, values: canonical))
        }
        let tableChecks = entity.checks.compactMap { check in
            dialect.rules.sql(check.condition).map {
                DatabaseSchema.Check(name: check.name, rule: SQLCanonicalForm.checkRule($0, dialect: dialect))
            }
        }
        if entity.search != nil, dialect == .postgres {
            // The tsvector of the entity's full-text search (set by its trigger), last, and its GIN index.
            let name = FullTextSearch.name(table: entity.table)
            columns.append(
                DatabaseSchema.Column(
                    name: name, type: SQLCanonicalForm.typeName("tsvector", dialect: dialect), isNullable: true,
                    defaultValue: nil, isAutoincrement: false))
            indexes.append(
                DatabaseSchema.Index(name: FullTextSearch.indexName(table: entity.table), columns: [name], isUnique: false))
        }
        return DatabaseSchema.Table(
            name: entity.table, columns: columns,
            primaryKey: keyColumns.isEmpty
                ? nil
                : DatabaseSchema.Key(name: SQLConstraintName.primaryKey(table: entity.table), columns: keyColumns),
            uniqueConstraints: uniques, indexes: indexes, foreignKeys: foreignKeys, checks: checks + tableChecks)
    }
}
