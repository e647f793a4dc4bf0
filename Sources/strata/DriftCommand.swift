import ArgumentParser
import Foundation
import GRDB
import StrataCLI
import StrataCore
import StrataIntrospection
import StrataPostgres
import StrataRuntime

/// `strata drift`: has a database drifted from the version its ledger records?
struct Drift: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check that a database's schema is still the one of the version its migration ledger records.",
        discussion: """
            Give exactly one of --database (a SQLite file) and --postgres (a URL; also the environment \
            variable STRATA_POSTGRES_URL). Reads the version the ledger (strata_migrations) records, and \
            compares the live schema with that version's, as strata migrate --baseline does: a \
            hand-made index, a column added, dropped or changed by hand, a missing constraint. Writes \
            nothing. Meant for a nightly job against production (or a replica).

            Exit status: 0 no drift; 1 the schema differs (each difference listed), or the ledger is \
            refused as strata migrate refuses it (a database newer than the model, another model, an \
            applied migration since edited); 2 could not run (no such file, no ledger, a server that \
            cannot be reached, a database at a version newer than the schemas: a rolling deploy's). With --format json: one object, {"database", "model", "version", \
            "drifted", "differences": [text], "error"}.
            """
    )

    @Option(help: ArgumentHelp("The SQLite database file.", valueName: "path")) var database: String?
    @Option(
        help: ArgumentHelp("A PostgreSQL URL (also STRATA_POSTGRES_URL).", valueName: "url"))
    var postgres: String?
    @Option(help: "The model (default: the only model in the schemas folder).") var model: String?
    @OptionGroup var schemaOptions: SchemaOptions
    @OptionGroup var formatOptions: FormatOptions

    func validate() throws {
        _ = try DatabaseChoice.validate(sqliteOption: "--database", sqlite: database, postgres: postgres)
    }

    func run() async throws {
        let history = try ModelSelection.history(model, schemas: schemaOptions.schemas, format: formatOptions.format)
        let name: String
        let result: Result<DriftReport, any Error>
        if let text = DatabaseChoice.postgresURL(postgres, sqlite: database) {
            let url = try PostgresURL(parsing: text)
            name = url.description
            result = await Self.checkPostgres(url, history: history)
        } else {
            name = database ?? ""
            result = Self.checkSQLite(name, history: history)
        }
        switch result {
        case .success(let report):
            print(render(report, database: name))
            if report.hasDrifted { throw StrataExitCode.problemsFound.exitCode }
        case .failure(let error):
            let status: StrataExitCode = error is StrataMigrationError ? .problemsFound : .couldNotRun
            if formatOptions.format == .json {
                print(
                    JSONValue.object([
                        ("database", .string(name)), ("model", .string(history.model)), ("version", .null),
                        ("drifted", .null), ("differences", .array([])), ("error", .string("\(error)")),
                    ]).rendered)
            } else {
                Console.error("\(name): \(error)")
            }
            throw status.exitCode
        }
    }

    static func checkSQLite(_ path: String, history: SchemaHistory) -> Result<DriftReport, any Error> {
        guard FileManager.default.fileExists(atPath: path) else {
            return .failure(CouldNotRun("no such database file"))
        }
        do {
            var configuration = Configuration()
            configuration.readonly = true
            let queue = try DatabaseQueue(path: path, configuration: configuration)
            return .success(try queue.read { db in try DriftCheck.check(db, history: history) })
        } catch let error as DatabaseError {
            return .failure(CouldNotRun("cannot read the database: \(error.message ?? "\(error)")"))
        } catch {
            return .failure(error)
        }
    }

    static func checkPostgres(_ url: PostgresURL, history: SchemaHistory) async -> Result<DriftReport, any Error> {
        let session: PostgresSession
        do {
            session = try await PostgresSession.connect(to: url)
        } catch {
            return .failure(CouldNotRun("cannot connect: \(PostgresServerMessage(error).oneLine)"))
        }
        do {
            let report = try await DriftCheck.check(session, history: history)
            try? await session.close()
            return .success(report)
        } catch {
            try? await session.close()
            return .failure(error)
        }
    }

    private func render(_ report: DriftReport, database: String) -> String {
        switch formatOptions.format {
        case .json:
            return JSONValue.object([
                ("database", .string(database)), ("model", .string(report.model)), ("version", .int(report.version)),
                ("drifted", .bool(report.hasDrifted)),
                ("differences", .array(report.differences.map { .string($0.description) })), ("error", .null),
            ]).rendered
        case .text:
            guard report.hasDrifted else {
                return
                    "\(database): no drift: the schema is \(report.model) v\(report.version)'s, as the ledger records."
            }
            let count = report.differences.count
            return
                ([
                    "\(database): drifted from \(report.model) v\(report.version) (\(count) difference\(count == 1 ? "" : "s")):"
                ]
                + report.differences.map { "  - \($0.description)" }).joined(separator: "\n")
        }
    }
}
