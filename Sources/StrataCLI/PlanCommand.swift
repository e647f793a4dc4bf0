import ArgumentParser
import Foundation
import StrataCore

package struct Plan: ParsableCommand {
    package static let configuration = CommandConfiguration(
        abstract: "Show the migration steps between two versions of a model, in words and in SQL.",
        discussion: """
            Destructive steps are marked, with the allowDataLoss entry that allowed them. Guard errors \
            (a required field without a default, a removal not allowed…) are reported as diagnostics \
            and make the command exit 1. Version 0 is the empty database. With --format json: one \
            object, {"model", "dialect", "from", "to", "diagnostics", "migrations": [{"from", "to", \
            "compatibleWithPreviousCode" (null for v0 -> v1), "incompatibilities": [reason], \
            "steps": [{"description", "destructive", "allowedBy", "postgresLock"}], "sql": [statements]}]}. \
            Each version says whether the code generated for the version before keeps working \
            against a database migrated to it (a rolling deploy), and if not, why. \
            With --format github: the diagnostics as GitHub Actions annotations.

            With --base <ref> (the branch a pull request merges into, e.g. origin/main): the versions \
            this branch adds to every model (or to the one named) since <ref>, and with --format \
            markdown a report for the pull request: each step, destructive ones with the \
            allowDataLoss entry that allows them, the lock it takes on PostgreSQL and whether SQLite \
            rebuilds the table, the entities and fields changed, and the generated files that change \
            (--format text prints the same report).
            """
    )

    @Argument(help: "The model (a folder under the schemas folder); with --base, default: every model.")
    var model: String?
    @OptionGroup var schemaOptions: SchemaOptions
    @Option(help: ArgumentHelp("A git ref: show the versions added since it (e.g. origin/main).", valueName: "ref"))
    var base: String?
    @Option(help: "The version the database is at (0 for an empty database; default: the one before --to).") var from:
        Int?
    @Option(help: "The version to migrate to (default: the latest).") var to: Int?
    @Option(help: "The SQL dialect to show: sqlite or postgres.") var dialect: SQLDialect = .sqlite
    @OptionGroup var formatOptions: ReviewFormatOptions

    package init() {}

    package func validate() throws {
        if base == nil && model == nil { throw ValidationError("name a model, or give --base <ref> for every model") }
        if base == nil && formatOptions.format == .markdown {
            throw ValidationError("--format markdown is the pull request report: give --base <ref>")
        }
        if base != nil && (from != nil || to != nil) {
            throw ValidationError("--from and --to cannot be given with --base: the versions come from the ref")
        }
    }

    /// One version's migration as the command shows it.
    struct Shown {
        var from: Int
        var to: Int
        var steps: [(line: String, destructive: Bool, allowedBy: String?, lock: String?)]
        var sql: [String]
        /// Whether code of `to - 1` runs against a database at `to` (nil for v0 -> v1).
        var compatibility: MigrationCompatibility?
    }

    package func run() throws {
        if let base {
            try BaseReport(
                ref: base, model: model, schemas: schemaOptions.schemas, dialect: dialect, format: formatOptions.format
            ).run()
            return
        }
        guard let model else { return }
        var isFolder: ObjCBool = false
        guard
            FileManager.default.fileExists(
                atPath: SchemaLoader.join(schemaOptions.schemas, model), isDirectory: &isFolder), isFolder.boolValue
        else {
            throw ValidationError("no model '\(model)' in '\(schemaOptions.schemas)'")
        }
        let (history, _, loadDiagnostics) = SchemaLoader.loadModel(named: model, in: schemaOptions.schemas)
        guard let history, let latest = history.latest else {
            report(loadDiagnostics, migrations: [], start: from ?? 0, target: to ?? 0, model: model)
            throw StrataExitCode.problemsFound.exitCode
        }
        let target = to ?? latest.version
        let start = from ?? max(0, target - 1)
        guard (1...latest.version).contains(target), (0...target).contains(start) else {
            throw ValidationError(
                "versions of \(model) run from 1 to \(latest.version); --from must be at most --to (got \(start) to \(target))"
            )
        }
        let plans = Generator.migrationPlans(for: history).filter {
            $0.from.version >= start && $0.to.version <= target
        }
        var migrations: [Shown] = []
        if start == 0, let first = history.version(1) {
            migrations.append(
                Shown(
                    from: 0, to: 1,
                    steps: first.entities.map { ("create \($0.name) (table \($0.table))", false, nil, nil) },
                    sql: SQLSchemaRenderer.createStatements(for: first, dialect: dialect).map(\.rendered)))
        }
        for plan in plans {
            migrations.append(
                Shown(
                    from: plan.from.version, to: plan.to.version,
                    steps: zip(plan.steps, plan.postgresLocks()).map { step, lock in
                        (step.line, step.isDestructive, step.allowedBy?.spelled, lock.summary)
                    },
                    sql: MigrationSQLRenderer.statements(for: plan, dialect: dialect).map(\.rendered)
                        + MigrationSQLRenderer.contractStatements(for: plan, dialect: dialect).map(\.rendered),
                    compatibility: MigrationCompatibility(plan, expanded: dialect == .postgres)))
        }
        let diagnostics = loadDiagnostics + plans.flatMap(\.diagnostics)
        report(diagnostics, migrations: migrations, start: start, target: target, model: model)
        if diagnostics.contains(where: { $0.severity == .error }) { throw StrataExitCode.problemsFound.exitCode }
    }

    private func report(_ diagnostics: [Diagnostic], migrations: [Shown], start: Int, target: Int, model: String) {
        switch formatOptions.format {
        case .github:
            print(DiagnosticAnnotations.render(diagnostics), terminator: "")
        case .json:
            let items = migrations.map { shown -> JSONValue in
                let steps = shown.steps.map { step -> JSONValue in
                    .object([
                        ("description", .string(step.line)), ("destructive", .bool(step.destructive)),
                        ("allowedBy", .string(step.allowedBy)), ("postgresLock", .string(step.lock)),
                    ])
                }
                return .object([
                    ("from", .int(shown.from)), ("to", .int(shown.to)),
                    ("compatibleWithPreviousCode", shown.compatibility.map { .bool($0.isCompatible) } ?? .null),
                    ("incompatibilities", .array((shown.compatibility?.reasons ?? []).map(JSONValue.string))),
                    ("steps", .array(steps)), ("sql", .array(shown.sql.map(JSONValue.string))),
                ])
            }
            let output: JSONValue = .object([
                ("model", .string(model)), ("dialect", .string(dialect.rawValue)), ("from", .int(start)),
                ("to", .int(target)),
                ("diagnostics", .diagnostics(diagnostics)), ("migrations", .array(items)),
            ])
            print(output.rendered)
        case .text, .markdown:
            Console.report(diagnostics)
            guard !migrations.isEmpty || !diagnostics.contains(where: { $0.severity == .error }) else { return }
            print("\(model): version \(start) -> \(target) (\(dialect.displayName))")
            for shown in migrations {
                print(shown.from == 0 ? "\nv0 -> v1: create every table" : "\nv\(shown.from) -> v\(shown.to):")
                if let compatibility = shown.compatibility {
                    print("  " + (compatibility.isCompatible ? compatibility.line : "Compatible with code of version \(compatibility.version - 1): no"))
                    for reason in compatibility.reasons { print("    - \(reason)") }
                }
                if shown.steps.isEmpty && shown.sql.isEmpty { print("  (no changes)") }
                for step in shown.steps {
                    print("  - \(step.line)")
                    if dialect == .postgres, let lock = step.lock { print("    lock: \(lock)") }
                }
                guard !shown.sql.isEmpty else { continue }
                print("  SQL:")
                for statement in shown.sql {
                    for line in statement.split(separator: "\n", omittingEmptySubsequences: false) {
                        print("    \(line)")
                    }
                }
            }
        }
    }
}

extension SQLDialect: ExpressibleByArgument {}
