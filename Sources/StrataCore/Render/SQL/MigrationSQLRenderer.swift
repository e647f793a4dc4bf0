/// The migration files: `migrations/vN.sql` from version N-1 to N, per dialect.
public enum MigrationSQLRenderer {
    /// The statements of the migration into `plan.to`, in execution order.
    public static func statements(for plan: MigrationPlan, dialect: SQLDialect) -> [SQLStatement] {
        dialect.rules.migrationStatements(plan)
    }

    /// The SQL expression computing `field` of version N from a row of its N-1 table (columns by
    /// their N-1 names): what the migration stores, for verification to evaluate beforehand.
    public static func valueExpression(for field: Field, in entity: Entity, plan: MigrationPlan, dialect: SQLDialect) -> String {
        MigrationValues(plan: plan, renderer: DDLRenderer(dialect: dialect)).expression(for: field, in: entity)
    }

    /// `migrations/vN.sql`: the header, the steps in words, and the statements; for SQLite, a file
    /// that drops tables starts by switching foreign keys off (``SQLiteForeignKeys``).
    public static func file(for plan: MigrationPlan, dialect: SQLDialect) -> String {
        let summary = "\(dialect.displayName) migration of \(plan.to.model) from version \(plan.from.version) to \(plan.to.version)."
        var header = SQLSchemaRenderer.header(for: plan.to, dialect: dialect, summary: summary)
        if !plan.steps.isEmpty {
            header += dialect.comment("")
            header += dialect.comment("Steps:")
            header += plan.steps.flatMap { dialect.comment("- " + $0.line) }
        }
        var statements = statements(for: plan, dialect: dialect)
        if dialect == .sqlite, SQLiteForeignKeys.needOff(statements) {
            header += SQLiteForeignKeys.headerLines(version: plan.to.version).flatMap { dialect.comment($0) }
            statements.insert(SQLiteForeignKeys.statement, at: 0)
        }
        return SQLScript(header: header, statements: statements).rendered
    }
}
