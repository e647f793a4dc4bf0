import ArgumentParser
import Foundation
import GRDB
import StrataCLI
import StrataCore
import StrataRuntime

struct Migrate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Apply a model's pending migrations to a SQLite database file (created if absent).",
        discussion: """
            Applied versions are recorded with their checksum in the table strata_migrations. Each
            version runs in its own transaction; re-running applies nothing. A database newer than the
            model, or whose applied migrations were since edited, is refused and left untouched.
            """
    )

    @Option(help: ArgumentHelp("The SQLite database file.", valueName: "path")) var database: String
    @Option(help: "The model to migrate (default: the only model in the schemas folder).") var model: String?
    @Option(help: "The version to migrate to (default: the latest).") var to: Int?
    @Flag(help: "Print the SQL that would run, and change nothing.") var dryRun = false
    @OptionGroup var schemaOptions: SchemaOptions

    func run() throws {
        let history = try ModelSelection.history(model, schemas: schemaOptions.schemas)
        let migrator = StrataMigrator(
            model: history.model,
            migrations: MigrationSources.sqlite(for: history).map { StrataMigration(version: $0.version, sql: $0.sql, checksum: $0.checksum) })
        do {
            if dryRun {
                let pending: [StrataMigration]
                if FileManager.default.fileExists(atPath: database) {
                    var configuration = Configuration()
                    configuration.readonly = true
                    pending = try migrator.pending(in: try DatabaseQueue(path: database, configuration: configuration), to: to)
                } else {
                    pending = try migrator.migrations.filter { $0.version <= (to ?? migrator.latestVersion) }
                        .map { $0 }
                    _ = try migrator.pending(in: try DatabaseQueue(), to: to)
                }
                if pending.isEmpty { print("\(database) is at the requested version of \(history.model): nothing to apply.") }
                for migration in pending {
                    print("-- version \(migration.version)")
                    print(migration.sql)
                }
                return
            }
            let queue: DatabaseQueue
            do {
                queue = try DatabaseQueue(path: database, configuration: Self.waitingConfiguration(database))
            } catch let error as DatabaseError {
                Console.error("\(database): could not be opened: \(error.message ?? "\(error)"); nothing was changed")
                throw ExitCode.failure
            }
            let before = try migrator.currentVersion(in: queue)
            do {
                let applied = try migrator.migrate(queue, to: to)
                if applied.isEmpty {
                    let now = try migrator.currentVersion(in: queue)
                    print("\(database) is at version \(now) of \(history.model): nothing to apply.")
                } else {
                    print("\(database): \(history.model) migrated from version \(before) to \(applied.last?.version ?? before) (applied \(applied.map { "v\($0.version)" }.joined(separator: ", "))).")
                }
            } catch let error as DatabaseError {
                // Each version runs in its own transaction: the failing one was rolled back, the
                // ones before it stay applied. Say where the database now is.
                let now = (try? migrator.currentVersion(in: queue)).map { "; the database is at version \($0)" } ?? ""
                Console.error("\(database): the migration failed and its transaction was rolled back\(now): \(error.message ?? "\(error)")")
                throw ExitCode.failure
            }
        } catch let error as StrataMigrationError {
            Console.error("\(database): \(error.description)")
            throw ExitCode.failure
        } catch let error as DatabaseError {
            Console.error("\(database): could not be read: \(error.message ?? "\(error)"); nothing was changed")
            throw ExitCode.failure
        }
    }

    func validate() throws {
        if database.isEmpty || database == ":memory:" || database.hasPrefix("file::memory:") {
            throw ValidationError("--database needs a file path; '\(database)' names a temporary database that vanishes when strata exits")
        }
    }

    /// How long a second `migrate` waits for the lock of a first one before giving up.
    static let lockTimeout: TimeInterval = 600

    /// A connection that waits for another process's lock, saying once that it waits.
    static func waitingConfiguration(_ path: String) -> Configuration {
        var configuration = Configuration()
        let pause = 0.05
        configuration.busyMode = .callback { retries in
            if retries == 0 {
                Console.error("\(path): another process is changing the database; waiting for it (up to \(Int(lockTimeout)) s)…")
            }
            Thread.sleep(forTimeInterval: pause)
            return Double(retries) * pause < lockTimeout
        }
        return configuration
    }
}

/// Picks the model a command works on.
enum ModelSelection {
    static func history(_ name: String?, schemas: String) throws -> SchemaHistory {
        let plan = Workspace.plan(schemas: schemas, output: "", render: false)
        if plan.hasErrors {
            Console.report(plan.diagnostics)
            throw ExitCode.failure
        }
        if let name {
            guard let history = plan.histories.first(where: { $0.model == name }) else {
                throw ValidationError("no model '\(name)' in '\(schemas)'; models: \(plan.histories.map(\.model).joined(separator: ", "))")
            }
            return history
        }
        guard plan.histories.count == 1, let only = plan.histories.first else {
            throw ValidationError("'\(schemas)' holds \(plan.histories.count) models (\(plan.histories.map(\.model).joined(separator: ", "))): choose one with --model")
        }
        return only
    }
}
