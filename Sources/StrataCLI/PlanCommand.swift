import ArgumentParser
import StrataCore

package struct Plan: ParsableCommand {
    package static let configuration = CommandConfiguration(
        abstract: "Show the migration steps between two versions of a model, in words and in SQL.",
        discussion: """
            Destructive steps are marked, with the allowDataLoss entry that allowed them. Guard errors
            (a required field without a default, a removal not allowed…) are reported as diagnostics
            and make the command exit 1. Version 0 is the empty database.
            """
    )

    @Argument(help: "The model (a folder under the schemas folder).") var model: String
    @OptionGroup var schemaOptions: SchemaOptions
    @Option(help: "The version the database is at (0 for an empty database; default: the one before --to).") var from: Int?
    @Option(help: "The version to migrate to (default: the latest).") var to: Int?
    @Option(help: "The SQL dialect to show: sqlite or postgres.") var dialect: SQLDialect = .sqlite

    package init() {}

    package func run() throws {
        let (history, _, diagnostics) = SchemaLoader.loadModel(named: model, in: schemaOptions.schemas)
        guard let history, let latest = history.latest else {
            Console.report(diagnostics.isEmpty ? [Diagnostic(.error, "no model '\(model)' in '\(schemaOptions.schemas)'", at: .file(schemaOptions.schemas))] : diagnostics)
            throw ExitCode.failure
        }
        let target = to ?? latest.version
        let start = from ?? max(0, target - 1)
        guard (1...latest.version).contains(target), (0...target).contains(start) else {
            throw ValidationError("versions of \(model) run from 1 to \(latest.version); --from must be at most --to (got \(start) to \(target))")
        }
        let plans = Generator.migrationPlans(for: history)
        let shown = plans.filter { $0.from.version >= start && $0.to.version <= target }
        Console.report(diagnostics + shown.flatMap(\.diagnostics))
        print("\(model): version \(start) -> \(target) (\(dialect.displayName))")
        if start == 0, let first = history.version(1) {
            print("\nv0 -> v1: create every table")
            for entity in first.entities { print("  - create \(entity.name) (table \(entity.table))") }
            printSQL(SQLSchemaRenderer.createStatements(for: first, dialect: dialect))
        }
        for plan in shown {
            print("\nv\(plan.from.version) -> v\(plan.to.version):")
            if plan.isEmpty { print("  (no changes)") }
            for step in plan.steps { print("  - \(step.line)") }
            printSQL(MigrationSQLRenderer.statements(for: plan, dialect: dialect))
        }
        if (diagnostics + shown.flatMap(\.diagnostics)).contains(where: { $0.severity == .error }) { throw ExitCode.failure }
    }

    private func printSQL(_ statements: [SQLStatement]) {
        guard !statements.isEmpty else { return }
        print("  SQL:")
        for statement in statements {
            for line in statement.rendered.split(separator: "\n", omittingEmptySubsequences: false) { print("    \(line)") }
        }
    }
}

extension SQLDialect: ExpressibleByArgument {}
