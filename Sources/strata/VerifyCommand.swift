import ArgumentParser
import Foundation
import StrataCLI
import StrataCore
import StrataDatabase

struct Verify: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Prove every model's migrations on SQLite, and on PostgreSQL when a URL is given.",
        discussion: """
            For each model: (a) the chain of migrations v1 -> … -> vN gives exactly the schema of a fresh
            vN (tables, columns, types, nullability, defaults, keys, indexes, constraints and their names);
            (b) rows seeded at v1 in every table are all present after every step, with every value what
            the step defines. PostgreSQL checks run in two scratch databases created on the server and
            dropped afterwards. Exits 1 with the differences.
            """
    )

    @OptionGroup var schemaOptions: SchemaOptions
    @Option(help: ArgumentHelp("A PostgreSQL URL (also STRATA_POSTGRES_URL), e.g. postgres://user@127.0.0.1:5432/postgres.", valueName: "url"))
    var postgres: String?
    @Option(help: "Rows seeded per table at version 1.") var rows = 200

    func run() async throws {
        let plan = Workspace.plan(schemas: schemaOptions.schemas, output: "", render: false)
        Console.report(plan.diagnostics)
        if plan.hasErrors { throw ExitCode.failure }
        let url = postgres ?? ProcessInfo.processInfo.environment["STRATA_POSTGRES_URL"]
        let verifier = MigrationVerifier(seeder: RowSeeder(rowsPerTable: rows))
        var failed = false
        for history in plan.histories {
            let report = try await verifier.verify(
                history, chain: try SQLiteVerificationDatabase(model: history.model), fresh: try SQLiteVerificationDatabase(model: history.model))
            report.lines.forEach { print($0) }
            failed = failed || !report.passed
            if let url {
                let report = try await PostgresScratch.verify(history, url: url, verifier: verifier)
                report.lines.forEach { print($0) }
                failed = failed || !report.passed
            }
        }
        if url == nil { print("PostgreSQL not checked: pass --postgres URL or set STRATA_POSTGRES_URL.") }
        if failed { throw ExitCode.failure }
    }
}
