import ArgumentParser
import Foundation
import StrataCLI
import StrataCore
import StrataDatabase

struct Verify: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Prove every model's migrations on SQLite, and on PostgreSQL when a URL is given.",
        discussion: """
            For each model: (a) the chain of migrations v1 -> … -> vN gives exactly the schema of a fresh \
            vN (tables, columns, types, nullability, defaults, keys, indexes, constraints and their names); \
            (b) rows seeded at v1 in every table are all present after every step, with every value what \
            the step defines. On PostgreSQL, every named query (queries/*.sql) is also prepared, and those \
            the server refuses are listed with its message (they do not fail verification: their \
            functions are generated for SQLite). PostgreSQL checks run in two scratch databases created on the server and \
            dropped afterwards. Progress goes to standard error as it goes. Exits 1 with the \
            differences, 2 when the server cannot be reached. With --format json: one object, \
            {"passed", "postgresChecked", "diagnostics", "reports": [{"model", "dialect", "passed", …}]}.
            """
    )

    @OptionGroup var schemaOptions: SchemaOptions
    @Option(
        help: ArgumentHelp(
            "A PostgreSQL URL (also STRATA_POSTGRES_URL), e.g. postgres://user@127.0.0.1:5432/postgres.",
            valueName: "url"))
    var postgres: String?
    @Option(help: "Rows seeded per table at version 1.") var rows = 200
    @OptionGroup var formatOptions: FormatOptions

    func run() async throws {
        let plan = Workspace.plan(schemas: schemaOptions.schemas, output: "", render: false)
        let json = formatOptions.format == .json
        if plan.hasErrors {
            if json {
                print(
                    JSONValue.object([
                        ("passed", .bool(false)), ("diagnostics", .diagnostics(plan.diagnostics)),
                        ("reports", .array([])),
                    ]).rendered)
            } else {
                Console.report(plan.diagnostics)
            }
            throw StrataExitCode.problemsFound.exitCode
        }
        if !json { Console.report(plan.diagnostics) }
        let url = postgres ?? ProcessInfo.processInfo.environment["STRATA_POSTGRES_URL"]
        var verifier = MigrationVerifier(seeder: RowSeeder(rowsPerTable: rows))
        verifier.progress = { message in
            var stream = StandardError()
            print(message, to: &stream)
        }
        var reports: [VerificationReport] = []
        for history in plan.histories {
            let report = try await verifier.verify(
                history, chain: try SQLiteVerificationDatabase(model: history.model),
                fresh: try SQLiteVerificationDatabase(model: history.model))
            if !json { report.lines.forEach { print($0) } }
            reports.append(report)
            if let url {
                let report: VerificationReport
                do {
                    report = try await PostgresScratch.verify(history, url: url, verifier: verifier)
                } catch {
                    throw CouldNotRun("PostgreSQL at \(url): \(error)")
                }
                if !json { report.lines.forEach { print($0) } }
                reports.append(report)
            }
        }
        let passed = reports.allSatisfy(\.passed)
        if json {
            let items = reports.map { report -> JSONValue in
                .object([
                    ("model", .string(report.model)), ("dialect", .string(report.dialect.rawValue)),
                    ("passed", .bool(report.passed)),
                    ("latestVersion", .int(report.latestVersion)), ("tablesCompared", .int(report.tablesCompared)),
                    ("rowsSeeded", .int(report.rowsSeeded.map(\.count).reduce(0, +))),
                    ("rowsFollowed", .int(report.rowsFollowed)),
                    ("valuesCompared", .int(report.valuesCompared)),
                    ("schemaDifferences", .array(report.schemaDifferences.map(JSONValue.string))),
                    ("dataProblems", .array(report.dataProblems.map(JSONValue.string))),
                    ("notes", .array(report.notes.map(JSONValue.string))),
                    ("queriesPrepared", .int(report.queriesPrepared)),
                    ("queryProblems", .array(report.queryProblems.map(JSONValue.string))),
                ])
            }
            print(
                JSONValue.object([
                    ("passed", .bool(passed)), ("postgresChecked", .bool(url != nil)),
                    ("diagnostics", .diagnostics(plan.diagnostics)),
                    ("reports", .array(items)),
                ]).rendered)
        } else if url == nil {
            print("PostgreSQL not checked: pass --postgres URL or set STRATA_POSTGRES_URL.")
        }
        if !passed { throw StrataExitCode.problemsFound.exitCode }
    }
}
