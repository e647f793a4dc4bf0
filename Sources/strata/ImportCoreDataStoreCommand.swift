import ArgumentParser
import Foundation
import StrataCLI
import StrataCore
import StrataCoreDataMapping
import StrataCoreDataStore
import StrataSQLite

/// `strata import coredata-store --store X.sqlite [--schemas DIR] [--model M] --database Y.sqlite`.
struct ImportCoreDataStore: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "coredata-store",
        abstract: "Move the rows of a Core Data SQLite store into a new Strata database.",
        discussion: """
            For a model imported with 'strata import coredata' (its folder holds coredata-mapping.json). \
            Opens the store read-only (its -wal file included) and never writes it; recognises which \
            version of the model wrote it: the one version whose layout accounts for every entity, \
            table and column of the store, with compatible column types (a store that fits no version, \
            or several alike, is refused, naming the closest versions and what differs); copies every \
            row of every entity (Z_PK, attribute columns, to-one relationships, ordered positions, \
            many-to-many pairs), each checked, into a database at that version in one transaction, \
            checks that every entity has as many rows as in the store, then migrates it to the latest \
            version. The database is built beside --database and moved there when everything \
            succeeded: all rows or none. When --database already holds an imported store, nothing is \
            done (and said so).

            Exit status: 1 when the store matches no version of the model or several alike, a row \
            cannot be copied as it is, the copy would hold fewer rows than the store, or --database \
            exists and holds no imported store; 2 when the store is not a Core Data SQLite store or a file cannot \
            be written.
            """
    )

    @Option(name: .long, help: ArgumentHelp("The Core Data SQLite store (read, never written).", valueName: "path"))
    var store: String

    @OptionGroup var schemaOptions: SchemaOptions

    @Option(name: .long, help: ArgumentHelp("The model (needed when the schemas hold several).", valueName: "name"))
    var model: String?

    @Option(name: .long, help: ArgumentHelp("The Strata SQLite database to create.", valueName: "path"))
    var database: String

    @Option(
        name: .long,
        help: ArgumentHelp(
            "The version that wrote the store, when it fits several versions alike (the same tables, columns and indexes).",
            valueName: "n"))
    var storeVersion: Int?

    func run() throws {
        let history = try ModelSelection.history(model, schemas: schemaOptions.schemas)
        let mappingPath = SchemaLoader.join(
            SchemaLoader.join(schemaOptions.schemas, history.model), CoreDataMapping.fileName)
        guard let json = FileManager.default.contents(atPath: mappingPath) else {
            throw ValidationError(
                "model '\(history.model)' was not imported from Core Data: there is no \(mappingPath) (write it with 'strata import coredata')"
            )
        }
        let migrator = SQLiteMigrator(
            model: history.model, migrations: MigrationSources.sqlite(for: history).map(StrataMigration.init))
        do {
            var importer = try CoreDataStoreImporter(mappingJSON: json, migrator: migrator)
            importer.chosenVersion = storeVersion
            switch try importer.importStore(at: store, intoDatabaseAt: database) {
            case .imported(let version, let rows):
                print(
                    "\(history.model): the store was at v\(version); copied \(rows) row\(rows == 1 ? "" : "s") into \(database) and migrated it to v\(migrator.latestVersion)"
                )
            case .alreadyImported(let version):
                print(
                    "\(history.model): \(database) already holds the rows of a Core Data store (imported at v\(version)); nothing to do"
                )
            }
        } catch let error as CoreDataStoreImportError {
            Console.error(error.description)
            switch error {
            case .notACoreDataStore: throw StrataExitCode.couldNotRun.exitCode
            case .unknownLayout, .ambiguousLayout, .invalidRow, .incompleteCopy, .unsupported:
                throw StrataExitCode.problemsFound.exitCode
            case .copyFailed:
                throw FileManager.default.fileExists(atPath: database)
                    ? StrataExitCode.problemsFound.exitCode : StrataExitCode.couldNotRun.exitCode
            }
        } catch let error as DecodingError {
            throw CouldNotRun("cannot read \(mappingPath): \(error)")
        }
    }
}
