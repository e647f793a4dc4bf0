import ArgumentParser
import Foundation
import StrataCLI
import StrataCore
import StrataDatabaseImport
import StrataIntrospection
import StrataPostgres

/// `strata import database --sqlite PATH | --postgres URL --model NAME [--schemas DIR]`.
struct ImportDatabase: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "database",
        abstract: "Write Schemas/<Model>/v1.yaml from an existing SQLite or PostgreSQL database's tables.",
        discussion: """
            Reads the tables of a SQLite file (opened read-only) or of the public schema of a \
            PostgreSQL database (--postgres, or the environment variable STRATA_POSTGRES_URL) the way \
            'strata verify' does, and writes the model's first version: one entity per table \
            (UpperCamelCase, the table name kept with 'table:' where naming would not derive it), one \
            field per column (lowerCamelCase, 'column:' likewise), in column order.

            Column types become the Strata types stored in them (SQLite INTEGER is Int64, or Bool \
            when a CHECK allows only 0 and 1; PostgreSQL uuid is UUID, timestamptz Date, …); NOT NULL \
            makes a field required; the primary key, single or composite, becomes primaryKey \
            (INTEGER PRIMARY KEY AUTOINCREMENT, identity and serial columns autoincrement: true); a \
            single-column foreign key to an imported table's primary key becomes a reference with its \
            onDelete; single-column unique constraints unique: true; a CHECK that a text column is one of some \
            names a String enum; indexes keep their names; literal \
            defaults become default. Whatever Strata cannot express is a warning naming \
            table.column: a type it does not declare (VARCHAR(20), numeric(10,2), json) gets the \
            closest type, arrays and other types are skipped, as are expression defaults, other checks, \
            composite foreign keys and tables without a primary key. Strata's own tables \
            (strata_migrations, strata_storage) are not imported.

            Writes nothing when there is an error (exit status 1), when Schemas/<Model> exists, or \
            when the result would not pass 'strata lint'. Exit status 2 when the database cannot be \
            opened or the server reached, 3 when the server refuses the credentials, 64 usage.

            Examples:
              strata import database --sqlite app.sqlite --model Shop
              strata import database --postgres postgres://app@db:5432/shop --model Shop
              STRATA_POSTGRES_URL=postgres://app@db/shop strata import database \\
                --model Shop --schemas Models
            """
    )

    @Option(help: ArgumentHelp("The SQLite database file (read, never written).", valueName: "path"))
    var sqlite: String?

    @Option(
        help: ArgumentHelp(
            "A PostgreSQL URL (also STRATA_POSTGRES_URL), e.g. postgres://user:password@host:5432/app?sslmode=require.",
            valueName: "url"))
    var postgres: String?

    @Option(
        help: ArgumentHelp("The Strata model's name: the folder and the generated types' prefix.", valueName: "name"))
    var model: String

    @OptionGroup var schemaOptions: SchemaOptions

    /// The PostgreSQL URL to read: `--postgres`, else `STRATA_POSTGRES_URL` when no `--sqlite` is given.
    var postgresURL: String? { DatabaseChoice.postgresURL(postgres, sqlite: sqlite) }

    func validate() throws {
        if let trimmed = try DatabaseChoice.validate(sqliteOption: "--sqlite", sqlite: sqlite, postgres: postgres),
            DatabaseChoice.isNotAFile(trimmed)
        {
            throw ValidationError("--sqlite must name a database file, found '\(sqlite ?? "")'")
        }
    }

    func run() async throws {
        let (database, dialect, source) = try await read()
        let outcome = DatabaseImporter.map(database, dialect: dialect, model: model, source: source)
        try ImportOutput.finish(outcome.diagnostics) { () throws(ImportedModelWriter.Failure) in
            try DatabaseImporter.write(outcome, schemas: schemaOptions.schemas)
        }
    }

    /// The database's schema, its dialect and its name for diagnostics; throws the exit status
    /// (after saying why) when it cannot be read.
    private func read() async throws -> (DatabaseSchema, SQLDialect, String) {
        func fail(_ source: String, _ message: String, _ status: StrataExitCode) -> ExitCode {
            Console.report([Diagnostic(.error, Migrate.oneLine(message), at: .file(source))])
            return status.exitCode
        }
        if let text = postgresURL {
            let url = try PostgresURL(parsing: text)
            do {
                return (try await DatabaseImporter.readPostgres(url: url), .postgres, url.description)
            } catch let error as PostgresSessionError where error.isAuthenticationFailure {
                let reason = PostgresServerMessage(error.underlying).description
                throw fail(url.description, "the server refused the credentials: \(reason)", .authenticationFailed)
            } catch let error as PostgresSessionError {
                throw fail(url.description, "cannot connect: \(PostgresServerMessage(error.underlying))", .couldNotRun)
            } catch {
                throw fail(url.description, "cannot read the database: \(PostgresServerMessage(error))", .couldNotRun)
            }
        }
        let path = sqlite ?? ""
        guard FileManager.default.fileExists(atPath: path) else {
            throw fail(path, "no such database file", .couldNotRun)
        }
        do {
            return (try DatabaseImporter.readSQLite(path: path), .sqlite, path)
        } catch {
            throw fail(path, "cannot read the database: \(error)", .couldNotRun)
        }
    }
}
