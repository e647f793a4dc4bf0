import StrataCore
import StrataIntrospection

/// Proves a model's migrations on a real database:
///
/// 1. the chain v1 -> … -> vN gives exactly the schema of a fresh vN (introspected and compared,
///    names included; physical column order is not compared, since ADD COLUMN appends), and the
///    fresh vN is what the model declares;
/// 2. rows seeded at v1 for every table are all present after each step, every continued field
///    holding what the step defines: the same value (renamed or not), its lossless conversion, its
///    remapped enum raw value, its default, or its `transform` — evaluated by the database on the
///    rows before the step, and compared with what the migrated table holds after it.
public struct MigrationVerifier: Sendable {
    /// The rows written at version 1.
    public var seeder: RowSeeder
    /// At most this many data differences are listed per step.
    public var differenceLimit = 20
    /// Told what the verifier is doing as it goes (`strata verify` prints it on standard error):
    /// the fresh schema, then each version of the chain.
    public var progress: @Sendable (String) -> Void = { _ in }

    /// A verifier.
    public init(seeder: RowSeeder = RowSeeder()) { self.seeder = seeder }

    /// Prepares every named query on `database` (its `:name` parameters as `$n`) and lists
    /// those the database refuses, with its message.
    func prepareQueries(_ queries: [AnalyzedQuery], on database: some VerificationDatabase, report: inout VerificationReport)
        async throws
    {
        for (index, query) in queries.enumerated() {
            let name = "strata_query_\(index + 1)"
            report.queriesPrepared += 1
            if let message = await Self.preparingFails(query.postgresSQL, as: name, on: database) {
                report.queryProblems.append(
                    "'\(query.source.name)' (\(query.source.nameLocation)) does not run on \(database.dialect.displayName): \(message)")
            }
        }
    }

    /// Prepares `sql` on a PostgreSQL `database` as the statement `name` (and deallocates it);
    /// the server's message when it refuses it, nil when it parses and plans.
    static func preparingFails(_ sql: String, as name: String, on database: some VerificationDatabase) async -> String? {
        do {
            try await database.execute("PREPARE \(name) AS \(sql)")
            try await database.execute("DEALLOCATE \(name)")
            return nil
        } catch {
            return (error as? PostgresSessionError)?.message ?? "\(error)"
        }
    }

    /// Runs both checks; `chain` and `fresh` must be empty databases of the same dialect.
    public func verify(_ history: SchemaHistory, chain: some VerificationDatabase, fresh: some VerificationDatabase) async throws
        -> VerificationReport
    {
        let dialect = chain.dialect
        guard let first = history.version(1), let latest = history.latest else {
            return VerificationReport(model: history.model, dialect: dialect, latestVersion: 0)
        }
        var report = VerificationReport(model: history.model, dialect: dialect, latestVersion: latest.version)
        let prefix = "\(history.model) on \(dialect.displayName)"
        progress("\(prefix): creating a fresh v\(latest.version)…")
        try await fresh.execute(SQLSchemaRenderer.schemaFile(for: latest, dialect: dialect))
        if dialect == .postgres, !history.queries.isEmpty {
            progress("\(prefix): preparing the named queries…")
            try await prepareQueries(history.queries, on: fresh, report: &report)
        }

        progress("\(prefix): applying v1 and seeding rows…")
        try await chain.applyMigration(version: 1, sql: SQLSchemaRenderer.initialMigrationFile(for: first, dialect: dialect))
        for statement in seeder.inserts(for: first, dialect: dialect) { try await chain.execute(statement) }
        for entity in first.entities {
            let count = try await chain.textRows("SELECT CAST(count(*) AS TEXT) FROM \(dialect.quoted(entity.table))").first?.first ?? nil
            report.rowsSeeded.append((entity.table, Int(count ?? "") ?? 0))
        }

        for plan in Generator.migrationPlans(for: history) {
            progress("\(prefix): applying v\(plan.to.version) and comparing rows…")
            try await step(plan, on: chain, report: &report)
        }
        progress("\(prefix): comparing the migrated schema with the fresh one…")
        await SearchCheck.check(latest, on: chain, report: &report)

        let comparison = SchemaComparison(comparesColumnOrder: false)
        let chained = try await chain.schema()
        let fresh = try await fresh.schema()
        report.tablesCompared = fresh.tables.count
        report.schemaDifferences += comparison.differences(expected: fresh, actual: chained).map { "migrated vs fresh: \($0)" }
        report.schemaDifferences += comparison.differences(expected: ExpectedSchema.of(latest, dialect: dialect), actual: fresh)
            .map { "fresh vs \(latest.fileName): \($0)" }
        return report
    }

    /// One migration: the expected rows of every continued table, computed before; the rows after.
    private func step(_ plan: MigrationPlan, on database: some VerificationDatabase, report: inout VerificationReport) async throws {
        let dialect = database.dialect
        let before = plan.to.migration.before.flatMap(dialect.rules.sql)
        // Custom 'after' SQL changes values in ways only its author knows: the columns it names are not compared.
        let after = plan.to.migration.after.flatMap(dialect.rules.sql) ?? ""
        func isTouchedByAfter(_ field: Field) -> Bool { !after.isEmpty && after.contains(field.column) }
        let untouched = plan.to.entities.flatMap { entity in entity.fields.filter(isTouchedByAfter).map { "\(entity.name).\($0.name)" } }
        if !untouched.isEmpty {
            report.notes.append("v\(plan.to.version) runs custom 'after' SQL naming \(untouched.joined(separator: ", ")): those values not compared")
        }
        var expectations: [(entity: Entity, rows: [[String?]])] = []
        for entity in plan.to.entities {
            guard let old = plan.previous(of: entity) else { continue }
            let keyFields = entity.primaryKeyFields
            let expressions = (keyFields + entity.fields).map { field in
                dialect.comparableText(
                    MigrationSQLRenderer.valueExpression(for: field, in: entity, plan: plan, dialect: dialect),
                    storedAs: plan.to.columnEncoding(of: field))
            }
            let query = "SELECT \(expressions.joined(separator: ", ")) FROM \(dialect.quoted(old.table))"
            expectations.append((entity, try await database.rowsAfter(before, query)))
        }

        try await database.applyMigration(version: plan.to.version, sql: MigrationSQLRenderer.file(for: plan, dialect: dialect))
        if dialect == .postgres, plan.to.migration.rolling {
            // A rolling version's contract, which `strata migrate` runs before the next version.
            try await database.execute(MigrationSQLRenderer.contractFile(for: plan))
        }

        for (entity, expected) in expectations {
            let keyFields = entity.primaryKeyFields
            let columns = (keyFields + entity.fields).map { field in
                dialect.comparableText(dialect.quoted(field.column), storedAs: plan.to.columnEncoding(of: field))
            }
            let actual = try await database.textRows("SELECT \(columns.joined(separator: ", ")) FROM \(dialect.quoted(entity.table))")
            let where_ = "v\(plan.to.version) \(entity.name) (table \(entity.table))"
            report.rowsFollowed += expected.count
            if actual.count != expected.count {
                report.dataProblems.append("\(where_): \(expected.count) rows before the migration, \(actual.count) after")
            }
            let keyCount = keyFields.count
            func key(_ row: [String?]) -> String { row.prefix(keyCount).map { $0 ?? "NULL" }.joined(separator: "|") }
            var actualByKey: [String: [String?]] = [:]
            for row in actual { actualByKey[key(row)] = row }
            var problems = 0
            for row in expected {
                guard let found = actualByKey[key(row)] else {
                    problems += 1
                    if problems <= differenceLimit { report.dataProblems.append("\(where_): row with key \(key(row)) is missing") }
                    continue
                }
                for (offset, field) in entity.fields.enumerated() where !isTouchedByAfter(field) {
                    report.valuesCompared += 1
                    let want = row[keyCount + offset]
                    let got = found[keyCount + offset]
                    if want != got {
                        problems += 1
                        if problems <= differenceLimit {
                            report.dataProblems.append(
                                "\(where_): row \(key(row)), field \(field.name): \(got ?? "NULL"), expected \(want ?? "NULL")")
                        }
                    }
                }
            }
            if problems > differenceLimit { report.dataProblems.append("\(where_): \(problems - differenceLimit) more differences") }
        }
    }
}
