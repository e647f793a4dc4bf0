import StrataStorage

/// The migration files: `migrations/vN.sql` from version N-1 to N, per dialect.
public enum MigrationSQLRenderer {
    /// The statements of the migration into `plan.to`, in execution order, SQLite Date literals in
    /// `sqliteDateFormat` (``GeneratorConfiguration/sqliteDateFormat``).
    public static func statements(
        for plan: MigrationPlan, dialect: SQLDialect, sqliteDateFormat: SQLiteDateFormat = .current
    ) -> [SQLStatement] {
        dialect.rules(sqliteDateFormat: sqliteDateFormat).migrationStatements(plan)
    }

    /// The entities (names in version N) whose SQLite table the migration rebuilds (create a
    /// new table, copy every row, drop the old one) because `ALTER TABLE` cannot make the change.
    public static func sqliteRebuiltEntities(for plan: MigrationPlan) -> [String] {
        let renderer = SQLiteMigrationRenderer(plan: plan, sqliteDateFormat: .current)
        return plan.to.entities.compactMap { entity in
            plan.previous(of: entity).flatMap { renderer.needsRebuild(entity, previous: $0) ? entity.name : nil }
        }
    }

    /// The SQL expression computing `field` of version N from a row of its N-1 table (columns by
    /// their N-1 names): what the migration stores, for verification to evaluate beforehand.
    public static func valueExpression(for field: Field, in entity: Entity, plan: MigrationPlan, dialect: SQLDialect) -> String {
        MigrationValues(plan: plan, renderer: DDLRenderer(dialect: dialect)).expression(for: field, in: entity)
    }

    /// `migrations/vN.sql`: the header, whether code of N-1 runs against the database at N
    /// (``MigrationCompatibility``), the steps in words, and the statements; for SQLite, a file
    /// that drops tables starts by switching foreign keys off (``SQLiteForeignKeys``). Rendered
    /// for `configuration` (the command its header names, SQLite Date literals).
    public static func file(
        for plan: MigrationPlan, dialect: SQLDialect, configuration: GeneratorConfiguration = .commandLine
    ) -> String {
        file(
            for: plan, dialect: dialect, regeneration: configuration.regeneration,
            statements: statements(for: plan, dialect: dialect, sqliteDateFormat: configuration.sqliteDateFormat))
    }

    /// The PostgreSQL `migrations/vN.sql` as Strata 0.6.0 and earlier wrote it, with every
    /// statement in the version's transaction but the indexes marked `concurrently: true`; nil
    /// when it is the current text. Databases that applied it recorded its checksum. Package-wide
    /// for `strata-bench`, which measures it against the current text.
    /// Its header names `strata generate`: the checksum does not count comments.
    package static func postgresFileBeforeLockSafety(for plan: MigrationPlan) -> String? {
        let old = PostgresMigrationRenderer(plan: plan, lockSafe: false).statements()
        guard old != statements(for: plan, dialect: .postgres) else { return nil }
        return file(for: plan, dialect: .postgres, regeneration: .commandLine, statements: old)
    }

    /// The statements of a rolling version's contract, after a comment saying what they are
    /// (`dialect` PostgreSQL); empty for another version or dialect.
    public static func contractStatements(for plan: MigrationPlan, dialect: SQLDialect) -> [SQLStatement] {
        guard dialect == .postgres, plan.to.migration.rolling else { return [] }
        var statements = PostgresMigrationRenderer(plan: plan).contractStatements()
        guard !statements.isEmpty else { return [] }
        statements[0].comments =
            dialect.comment("The contract (v\(plan.to.version).contract.sql): strata migrate --contract, or the next version.")
            + statements[0].comments
        return statements
    }

    /// `migrations/vN.contract.sql` of a rolling version (PostgreSQL): what only code of N-1
    /// needed, dropped in one transaction once no instance runs it (``RollingExpand``). Its header
    /// names the command of `configuration`.
    public static func contractFile(for plan: MigrationPlan, configuration: GeneratorConfiguration = .commandLine) -> String {
        let dialect = SQLDialect.postgres
        let summary = "PostgreSQL contract of \(plan.to.model) version \(plan.to.version) (migration.rolling)."
        var header = SQLSchemaRenderer.header(
            for: plan.to, dialect: dialect, summary: summary, regeneration: configuration.regeneration)
        let compatibility = MigrationCompatibility(plan)
        header += dialect.comment(
            "Compatible with code of version \(plan.from.version) afterwards: " + (compatibility.reason.map { "no (\($0))" } ?? "yes"))
        header += dialect.comment("")
        header += [
            "Run once no instance runs code of version \(plan.from.version) any more: `strata migrate --contract`, or",
            "the migration of the next version, which runs it first. One transaction, catalog changes only;",
            "the ledger then records that code of version \(plan.from.version) no longer runs against the database.",
        ].flatMap { dialect.comment($0) }
        return SQLScript(header: header, statements: PostgresMigrationRenderer(plan: plan).contractStatements()).rendered
    }

    private static func file(
        for plan: MigrationPlan, dialect: SQLDialect, regeneration: Regeneration, statements: [SQLStatement]
    ) -> String {
        var statements = statements
        let summary = "\(dialect.displayName) migration of \(plan.to.model) from version \(plan.from.version) to \(plan.to.version)."
        var header = SQLSchemaRenderer.header(for: plan.to, dialect: dialect, summary: summary, regeneration: regeneration)
        // A comment: the ledger checksum does not count it.
        header += dialect.comment(MigrationCompatibility(plan, expanded: dialect == .postgres).line)
        if !plan.steps.isEmpty {
            header += dialect.comment("")
            header += dialect.comment("Steps:")
            header += plan.steps.flatMap { dialect.comment("- " + $0.line) }
        }
        let leading = statements.prefix(while: \.runsBeforeTheTransaction).count
        if statements.contains(where: { $0.kind == .beginTransaction }) {
            header += dialect.comment("")
            header += [
                "This version runs in several transactions, so that no lock that blocks writers is held while a",
                "table is read or its rows written: indexes built CONCURRENTLY and constraints added NOT VALID then",
                "validated, each on its own; columns filled in batches of rows, each committed on its own, while a",
                "trigger keeps the rows the application writes in step. `strata migrate` records each step as it",
                "completes, resumes a killed run where it stopped, and undoes the steps of a version that fails.",
                "The last transaction is the version's, recorded in the ledger. Do not apply this file with psql -1.",
            ].flatMap { dialect.comment($0) }
            if dialect == .postgres, plan.to.migration.rolling {
                header += dialect.comment("")
                header += [
                    "Rolling (migration.rolling): this is the expand. Renamed columns are added beside the old ones",
                    "and kept equal to them both ways, removed columns stay, and the triggers fill what code of",
                    "version \(plan.from.version) writes, so that it runs beside code of version \(plan.to.version). The contract",
                    "(v\(plan.to.version).contract.sql) drops what only code of version \(plan.from.version) needs: `strata migrate --contract`,",
                    "or the next version's migration, runs it.",
                ].flatMap { dialect.comment($0) }
            }
        } else if leading > 0 {
            header += dialect.comment("")
            header += [
                "The first \(leading == 1 ? "statement runs" : "\(leading) statements run") before the version's transaction, \(leading == 1 ? "on its own" : "each on its own"), so that",
                "no lock that blocks writers is held while a table is read: PostgreSQL builds an index CONCURRENTLY",
                "only outside a transaction, and validates a constraint added NOT VALID under a lock that lets",
                "writes go on. `strata migrate` runs \(leading == 1 ? "it" : "them") first, and undoes \(leading == 1 ? "it" : "them") if the version fails.",
                "Do not apply this file with psql -1.",
            ].flatMap { dialect.comment($0) }
        }
        if dialect == .sqlite, SQLiteForeignKeys.needOff(statements) {
            header += SQLiteForeignKeys.headerLines(version: plan.to.version).flatMap { dialect.comment($0) }
            statements.insert(SQLiteForeignKeys.statement, at: 0)
        }
        return SQLScript(header: header, statements: statements).rendered
    }
}
