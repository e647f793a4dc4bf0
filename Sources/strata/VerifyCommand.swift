import ArgumentParser
import Foundation
import StrataCLI
import StrataCore
import StrataVerification

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

            With --compat: instead, whether the code generated for each model's version N-1 still \
            runs against a database migrated to its latest version N (a rolling deploy). An empty \
            database is migrated to N (SQLite in memory; PostgreSQL in a scratch database when a \
            URL is given), then every statement N-1's generated code issues (insert, upsert, \
            find, update, delete, fetch, count, aggregates, joins and counts along references, \
            named queries; the SQL the runtime builds) is prepared, never run; those the database \
            refuses are listed with its message, and the command exits 1. The generator's \
            classification of N is printed beside it. With --format json: {"passed", \
            "postgresChecked", "compat": [{"model", "dialect", "codeVersion", "databaseVersion", \
            "compatible", "incompatibilities", "prepared", "failures": [{"entity", "kind", "sql", \
            "message"}]}]}.
            """
    )

    @OptionGroup var schemaOptions: SchemaOptions
    @Option(
        help: ArgumentHelp(
            "A PostgreSQL URL (also STRATA_POSTGRES_URL), e.g. postgres://user@127.0.0.1:5432/postgres.",
            valueName: "url"))
    var postgres: String?
    @Option(help: "Rows seeded per table at version 1.") var rows = 200
    @Flag(
        help: "Check instead that the code of each model's version N-1 runs against a database at its latest version N.")
    var compat = false
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
        if compat {
            try await verifyCompatibility(plan.histories, url: url, json: json)
            return
        }
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

    /// `--compat`: prepares the statements of each model's previous version against its latest.
    private func verifyCompatibility(_ histories: [SchemaHistory], url: String?, json: Bool) async throws {
        var reports: [CompatibilityReport] = []
        for history in histories {
            guard let report = try CompatibilityCheck.sqlite(history) else {
                if !json { print("\(history.model): one version only: no earlier code to check.") }
                continue
            }
            if !json { report.lines.forEach { print($0) } }
            reports.append(report)
            if let url {
                let report: CompatibilityReport?
                do {
                    report = try await CompatibilityCheck.postgres(history, url: url)
                } catch {
                    throw CouldNotRun("PostgreSQL at \(url): \(error)")
                }
                if let report {
                    if !json { report.lines.forEach { print($0) } }
                    reports.append(report)
                }
            }
        }
        let passed = reports.allSatisfy(\.passed)
        if json {
            let items = reports.map { report -> JSONValue in
                .object([
                    ("model", .string(report.model)), ("dialect", .string(report.dialect.rawValue)),
                    ("codeVersion", .int(report.codeVersion)), ("databaseVersion", .int(report.databaseVersion)),
                    ("compatible", .bool(report.compatibility.isCompatible)),
                    ("incompatibilities", .array(report.compatibility.reasons.map(JSONValue.string))),
                    ("prepared", .int(report.prepared)), ("passed", .bool(report.passed)),
                    (
                        "failures",
                        .array(
                            report.failures.map {
                                .object([
                                    ("entity", .string($0.statement.entity)), ("kind", .string($0.statement.kind)),
                                    ("sql", .string($0.statement.sql)), ("message", .string($0.message)),
                                ])
                            })
                    ),
                ])
            }
            print(
                JSONValue.object([
                    ("passed", .bool(passed)), ("postgresChecked", .bool(url != nil)), ("compat", .array(items)),
                ]).rendered)
        } else if url == nil {
            print("PostgreSQL not checked: pass --postgres URL or set STRATA_POSTGRES_URL.")
        }
        if !passed { throw StrataExitCode.problemsFound.exitCode }
    }
}
