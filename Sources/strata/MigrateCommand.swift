import ArgumentParser
import Foundation
import GRDB
import StrataCLI
import StrataCore
import StrataIntrospection
import StrataRuntime
import StrataSQLite

struct Migrate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Apply a model's pending migrations to a SQLite file (created if absent) or a PostgreSQL database.",
        discussion: """
            Give exactly one of --database (a SQLite file) and --postgres (a URL; also the environment \
            variable STRATA_POSTGRES_URL). Applied versions are recorded with their checksum in the \
            table strata_migrations. Each version runs in its own transaction with its ledger row, \
            reported on standard error as it goes; re-running applies nothing. A database newer than \
            the model, of another model, or whose applied migrations were since edited, is refused \
            and left untouched. Two migrate processes started together apply each version once: on \
            SQLite the second waits for the write lock, on PostgreSQL for an advisory lock on the \
            model held across the whole run (saying so on standard error). A SQLite database written \
            by Strata 0.5 or earlier first has its Dates converted from seconds since 1970 to seconds \
            since 2001, once, in a transaction of its own recorded in the table strata_storage \
            (--dry-run shows the statements). --baseline N adopts a database made without Strata (see \
            strata import database): when it has no ledger (or an empty one) and its schema is exactly \
            version N's, as strata verify compares them, versions 1...N are recorded as applied, with \
            their checksums and without running their SQL, in one transaction, then the later versions \
            are applied up to --to as usual (--to N records the baseline only). A schema that differs \
            (each difference is listed), a ledger with rows, or an N that is not a version is refused, \
            and nothing is written. PostgreSQL TLS follows the URL's sslmode (disable, allow, prefer, \
            require, verify-ca, verify-full; default prefer).

            PostgreSQL waits are bounded: connecting by the URL's connect_timeout (seconds, default \
            10); each statement's wait for a table's lock by --lock-timeout (default 300ms), so \
            that the application's queries never queue behind a migration for longer: a version \
            whose statement times out is rolled back and tried again after a growing, jittered \
            pause, naming the sessions that hold the locks, until it has waited --lock-wait-limit \
            in all (default 60s; also the longest wait for another strata migrate's migration \
            lock); a statement by --statement-timeout when given; a transaction left idle by 60 s \
            (idle_in_transaction_session_timeout). A concurrent index build that an earlier run \
            left INVALID is dropped and built again. While a statement runs, a second \
            connection asks the server every 3 s whether the session is still there: a server that \
            died or went silent ends the run with exit status 2 within about 20 s, naming the \
            version the database is at when the server answers.

            A database ahead of these schemas (a rolling deploy: a newer release migrated it) is \
            accepted, with nothing to apply, when its ledger records every newer version as \
            compatible with the code of the latest version here; otherwise it is refused, naming \
            the first newer version that is not, and why. Migrations never go backwards. On \
            PostgreSQL a rolling version (migration.rolling) is applied as its expand, which code of \
            the version before keeps running against; --contract then runs the contracts of the \
            rolling versions applied (what only that code needs is dropped, in one transaction), \
            which the next version's migration otherwise runs first.

            Exit status: 0 applied, or nothing to apply; 1 refused (the database is untouched); \
            2 could not run (a file that cannot be opened or is not a SQLite database, a server that \
            cannot be reached, a lost connection, the migration lock not free within --lock-wait-limit); 3 the PostgreSQL server refused the credentials; \
            4 a migration failed and was rolled back (the database is at the previous version; its \
            locks not obtained within --lock-wait-limit included); \
            64 usage; 130 (128 + the signal's number) stopped by Ctrl-C, SIGTERM or SIGHUP: the \
            version being applied was rolled back (on SQLite at once, on PostgreSQL after the \
            running statement; a second Ctrl-C ends strata at once, and the server rolls back).\
             With --format json: one object, {"database", "model", "from", "to", "dryRun", \
            "aheadOfSchemas" (true for a compatible database ahead of the schemas), "applied": [{"version", "checksum"}], "contracted": [version], "expanded": [version], "pending": [{"version", "sql"}], "dateConversion": \
            {"version", "statements"} or null, "baseline": N or null, "recorded": [{"version", \
            "checksum"}] (the versions the baseline records), "schemaDifferences": [text], "error"}.
            """
    )

    @Option(help: ArgumentHelp("The SQLite database file.", valueName: "path")) var database: String?
    @Option(
        help: ArgumentHelp(
            "A PostgreSQL URL (also STRATA_POSTGRES_URL), e.g. postgres://user:password@host:5432/app?sslmode=require.",
            valueName: "url"))
    var postgres: String?
    @Option(help: "The model to migrate (default: the only model in the schemas folder).") var model: String?
    @Option(help: "The version to migrate to (default: the latest).") var to: Int?
    @Option(
        help: ArgumentHelp(
            "Adopt a database made without Strata whose schema is version N's: record 1...N as applied, then migrate.",
            valueName: "N"))
    var baseline: Int?
    @Option(
        help: ArgumentHelp(
            "PostgreSQL: the longest one statement may run, in seconds (0: no limit; default: the server's statement_timeout).",
            valueName: "seconds"))
    var statementTimeout: Int?
    @Option(
        help: ArgumentHelp(
            "PostgreSQL: the longest one statement waits for a table's lock before its version is rolled back and retried, e.g. 300ms, 2s (default: 300ms).",
            valueName: "duration"))
    var lockTimeout: DurationArgument?
    @Option(
        help: ArgumentHelp(
            "PostgreSQL: the longest a version keeps waiting for locks across its retries, and the longest wait for another strata migrate, e.g. 60s, 10m (default: 60s).",
            valueName: "duration"))
    var lockWaitLimit: DurationArgument?
    @Option(
        help: ArgumentHelp(
            "PostgreSQL: the longest one statement of a migration's transaction may hold locks that block the application, e.g. 30s, 5m; 0: no limit (default: 10s).",
            valueName: "duration"))
    var lockHoldLimit: DurationArgument?
    @Option(
        help: ArgumentHelp(
            "PostgreSQL: the rows one batch of a backfill updates, each batch committed on its own (default: 1000).",
            valueName: "rows"))
    var batchSize: Int?
    @Flag(
        help: ArgumentHelp(
            "PostgreSQL: then run the contract of the rolling versions applied (migration.rolling): drop what only code of the version before needs. Run it once no instance runs that code."
        ))
    var contract = false
    @Flag(help: "Print the SQL that would run, and change nothing.") var dryRun = false
    @OptionGroup var schemaOptions: SchemaOptions
    @OptionGroup var formatOptions: FormatOptions

    /// What the command did, for its report.
    struct Outcome {
        var from: Int?
        var to: Int?
        var applied: [StrataMigration] = []
        /// The rolling versions whose contract ran (`--contract`), or would run (a dry run).
        var contracted: [StrataMigration] = []
        /// The rolling versions applied and not contracted after the run (PostgreSQL).
        var expanded: [StrataMigration] = []
        /// The versions a baseline recorded (or, in a dry run, would record) without running them.
        var recorded: [StrataMigration] = []
        /// The differences that made a baseline refuse the database.
        var schemaDifferences: [String] = []
        var pending: [StrataMigration] = []
        /// The conversion of a Strata 0.5 database's Dates that a dry run would run first.
        var dateConversion: StrataDateConversion?
        var error: String?
        /// The signal that stopped the run (then `error` says where the database is).
        var signal: Int32?
        /// How the connection to the PostgreSQL server was lost, when it was (then the command
        /// reads the database's version on a new connection for `error`).
        var connectionLoss: String?
    }

    /// What a progress callback throws once a signal was noted: the migrator rolls back the
    /// version it is applying and rethrows it.
    struct Stopped: Error {}

    /// The PostgreSQL URL to migrate: `--postgres`, else `STRATA_POSTGRES_URL` when no
    /// `--database` is given.
    var postgresURL: String? { DatabaseChoice.postgresURL(postgres, sqlite: database) }

    func validate() throws {
        if let statementTimeout, statementTimeout < 0 || statementTimeout > 86_400 {
            throw ValidationError("--statement-timeout must be from 0 to 86400 seconds, not \(statementTimeout)")
        }
        try lockTimeout?.check("--lock-timeout")
        try lockWaitLimit?.check("--lock-wait-limit")
        try lockHoldLimit?.check("--lock-hold-limit")
        if let batchSize, batchSize < 1 || batchSize > 10_000_000 {
            throw ValidationError("--batch-size must be from 1 to 10000000 rows, not \(batchSize)")
        }
        let postgresOnly = [
            ("--statement-timeout", statementTimeout != nil), ("--lock-timeout", lockTimeout != nil),
            ("--lock-wait-limit", lockWaitLimit != nil), ("--lock-hold-limit", lockHoldLimit != nil),
            ("--batch-size", batchSize != nil),
        ]
        for (name, given) in postgresOnly where given && postgresURL == nil {
            throw ValidationError("\(name) applies to PostgreSQL only (--postgres)")
        }
        if let baseline, let to, to < baseline {
            throw ValidationError("--to \(to) is below --baseline \(baseline): migrations only go forward")
        }
        guard
            let trimmed = try DatabaseChoice.validate(sqliteOption: "--database", sqlite: database, postgres: postgres),
            let database
        else { return }
        // An in-memory or temporary database would be migrated, reported, and gone when strata exits.
        if DatabaseChoice.isNotAFile(trimmed) {
            throw ValidationError(
                "--database must name a database file; '\(database)' is \(trimmed.isEmpty ? "empty (SQLite would use a temporary database)" : "not a file path"), which would vanish when strata exits"
            )
        }
    }

    func run() async throws {
        let history = try ModelSelection.history(model, schemas: schemaOptions.schemas, format: formatOptions.format)
        // Ctrl-C rolls back the version being applied and says so, instead of leaving it to the
        // database's journal (which is as safe, and silent).
        if !dryRun { Interruption.noteSignals() }
        let name: String
        let result: (outcome: Outcome, status: StrataExitCode)
        if let text = postgresURL {
            let url = try PostgresURL(parsing: text)
            name = url.description
            result = await migratePostgres(history, url: url)
        } else {
            name = database ?? ""
            result = migrateSQLite(history, database: name)
        }
        report(result.outcome, model: history.model, latest: history.latest?.version ?? 0, database: name)
        // 128 + the signal's number, as a shell expects of a process a signal stopped.
        if let signal = result.outcome.signal { throw ExitCode(128 + signal) }
        if result.status != .success { throw result.status.exitCode }
    }

    /// Records, in `outcome`, that `signal` stopped the run with the database at `version` (when
    /// it could be read).
    static func stop(_ outcome: inout Outcome, by signal: Int32, database: String, model: String, at version: Int?) {
        outcome.signal = signal
        outcome.error =
            "\(database): interrupted (\(Interruption.name(of: signal))): "
            + (version.map { "the database is at version \($0) of \(model)" } ?? "the versions applied before the signal stay applied")
            + "; no version was left half-applied"
    }

    /// Tells `progress` events of a migration on standard error; throws ``Stopped`` once a signal
    /// was noted, which stops the migration before its next statement.
    static func reportProgress(model: String) -> (StrataMigrationProgress) throws -> Void {
        { event in
            if Interruption.received != nil { throw Stopped() }
            var stream = StandardError()
            switch event {
            case .willApply(let migration, let position, let count):
                print("\(model): applying v\(migration.version) (\(position) of \(count))…", to: &stream)
            case .willRun(let migration, let statement):
                FaultInjection.willRunStatement()
                if let table = SQLiteRebuildProgress.copiedTable(statement) {
                    print(
                        "\(model): v\(migration.version): copying the rows of \(table) into its rebuilt table…",
                        to: &stream)
                }
            case .didApply(let migration, let duration):
                print("\(model): applied v\(migration.version) in \(Self.seconds(duration))", to: &stream)
            case .willContract(let migration):
                print(
                    "\(model): contracting v\(migration.version) (dropping what only code of v\(migration.version - 1) needs)…",
                    to: &stream)
            case .didContract(let migration, let duration):
                print("\(model): contracted v\(migration.version) in \(Self.seconds(duration))", to: &stream)
            case .waitingForLock(let migration, let wait):
                print(
                    "\(model): v\(migration.version) could not get a lock within the lock timeout, \(wait.holdersDescription); "
                        + "rolled back, trying again in \(Self.seconds(wait.retryIn)) (attempt \(wait.attempt + 1), "
                        + "\(wait.waitedDescription) waited)"
                        + Self.autovacuumNote(wait.autovacuum) + "…",
                    to: &stream)
            case .filledRows(let migration, let table, let rows):
                if rows % 100_000 == 0 {
                    print("\(model): v\(migration.version): filled \(rows) rows of \(table)…", to: &stream)
                }
            case .cancelledAutovacuum(let migration, let holders):
                let tables = Set(holders.map(\.table)).sorted().joined(separator: ", ")
                let pids = Set(holders.map(\.pid)).sorted().map(String.init).joined(separator: ", ")
                print(
                    "\(model): v\(migration.version): cancelled autovacuum on \(tables) (pid \(pids)) so that the migration "
                        + "does not wait for it; it runs again later", to: &stream)
            case .didConvertDates(let conversion, let duration):
                print(
                    "\(model): converted the Dates of v\(conversion.version) (\(conversion.columns.count) columns) "
                        + "from seconds since 1970 to seconds since 2001 in \(Self.seconds(duration))",
                    to: &stream)
            }
        }
    }

    /// What was done about autovacuum holding the table, for the waiting message.
    static func autovacuumNote(_ action: StrataLockWait.AutovacuumAction?) -> String {
        switch action {
        case nil: ""
        case .cancelled: "; it is autovacuum: its pass was cancelled (it starts again later)"
        case .outwaited(let duration):
            "; it is autovacuum, which PostgreSQL cancels for a lock request that waits deadlock_timeout: "
                + "the next attempt waits \(Self.seconds(duration)) (this role may not cancel it)"
        }
    }

    /// Waits for another connection that holds the write lock (another `strata migrate`, or the
    /// app), saying so once on standard error, for up to `waitLimit` seconds.
    static let waitLimit = 600.0

    static func configuration(database: String) -> Configuration {
        var configuration = Configuration()
        let interval = 0.05
        configuration.busyMode = .callback { attempts in
            if attempts == 0 {
                var stream = StandardError()
                print("\(database): another process is writing to the database; waiting for it to finish…", to: &stream)
            }
            guard Double(attempts) * interval < waitLimit, Interruption.received == nil else { return false }
            Thread.sleep(forTimeInterval: interval)
            return true
        }
        return configuration
    }

    /// The SQLite database to migrate, opened with ``configuration(database:)``; a signal
    /// interrupts the statement it runs (`sqlite3_interrupt`), which rolls its version back.
    static func openForMigration(_ database: String) throws -> DatabaseQueue {
        let queue = try DatabaseQueue(path: database, configuration: configuration(database: database))
        Interruption.onSignal { _ in queue.interrupt() }
        return queue
    }

    /// Migrates the SQLite file `database`.
    func migrateSQLite(_ history: SchemaHistory, database: String) -> (Outcome, StrataExitCode) {
        let migrator = SQLiteMigrator(
            model: history.model,
            migrations: MigrationSources.sqlite(for: history).map(StrataMigration.init))
        var outcome = Outcome()
        var status = StrataExitCode.success
        do {
            if let baseline {
                try baselineSQLite(migrator, history: history, at: baseline, database: database, into: &outcome)
            } else if dryRun {
                (outcome.pending, outcome.dateConversion) = try pending(migrator, database: database)
                outcome.from = outcome.pending.first.map { $0.version - 1 }
                outcome.to = outcome.pending.last?.version
            } else {
                let queue = try Self.openForMigration(database)
                let before = try migrator.currentVersion(in: queue)
                outcome.from = before
                outcome.applied = try migrator.migrate(
                    queue, to: to, progress: Self.reportProgress(model: history.model))
                outcome.to = outcome.applied.last?.version ?? before
            }
        } catch where Interruption.received != nil {
            // The version being applied was rolled back (its statement interrupted, or stopped
            // before the next one): read where the database is.
            let version = try? migrator.currentVersion(in: DatabaseQueue(path: database))
            Self.stop(&outcome, by: Interruption.received ?? SIGINT, database: database, model: history.model, at: version)
        } catch let error as StrataMigrationError {
            outcome.refuse(error, database: database)
            switch error {
            case .foreignKeyViolation, .dependentObjectLost: status = .migrationFailed
            default: status = .problemsFound
            }
        } catch let error as DatabaseError {
            status = Self.status(of: error)
            outcome.error =
                status == .couldNotRun
                ? "\(database): cannot use the database: \(error.message ?? "\(error)")"
                : "\(database): the migration failed and was rolled back; the database is unchanged: \(error.message ?? "\(error)")"
        } catch {
            status = .couldNotRun
            outcome.error = "\(database): \(error)"
        }
        return (outcome, status)
    }

    /// The migrations a dry run shows, read from a database that is only opened read-only (or
    /// from an empty one when the file does not exist).
    func pending(_ migrator: SQLiteMigrator, database: String) throws -> ([StrataMigration], StrataDateConversion?) {
        var configuration = Configuration()
        configuration.readonly = true
        let queue =
            FileManager.default.fileExists(atPath: database)
            ? try DatabaseQueue(path: database, configuration: configuration) : try DatabaseQueue()
        return try queue.read { db in (try migrator.pending(db, to: to), try migrator.pendingDateConversion(db)) }
    }

    private func report(_ outcome: Outcome, model: String, latest: Int, database: String) {
        // A database ahead of the schemas, every version beyond compatible with their code (a rolling deploy).
        let ahead = outcome.error == nil && outcome.applied.isEmpty && (outcome.from ?? 0) > latest
        switch formatOptions.format {
        case .json:
            let output: JSONValue = .object([
                ("database", .string(database)), ("model", .string(model)),
                ("from", outcome.from.map(JSONValue.int) ?? .null), ("to", outcome.to.map(JSONValue.int) ?? .null),
                ("dryRun", .bool(dryRun)), ("aheadOfSchemas", .bool(ahead)),
                (
                    "applied",
                    .array(outcome.applied.map(Self.versionAndChecksum))
                ),
                ("contracted", .array(outcome.contracted.map { .int($0.version) })),
                ("expanded", .array(outcome.expanded.map { .int($0.version) })),
                (
                    "pending",
                    .array(outcome.pending.map { .object([("version", .int($0.version)), ("sql", .string($0.sql))]) })
                ),
                (
                    "dateConversion",
                    outcome.dateConversion.map {
                        .object([
                            ("version", .int($0.version)), ("statements", .array($0.statements.map(JSONValue.string))),
                        ])
                    } ?? .null
                ),
                ("baseline", baseline.map(JSONValue.int) ?? .null),
                ("recorded", .array(outcome.recorded.map(Self.versionAndChecksum))),
                ("schemaDifferences", .array(outcome.schemaDifferences.map(JSONValue.string))),
                ("error", .string(outcome.error)),
            ])
            print(output.rendered)
        case .text:
            // A baseline stays recorded when a later version fails.
            if let line = baselineLine(outcome, model: model, database: database) { print(line) }
            if let error = outcome.error {
                Console.error(error)
                return
            }
            if dryRun {
                if let conversion = outcome.dateConversion {
                    print("-- the Dates of version \(conversion.version), from seconds since 1970 to seconds since 2001")
                    for statement in conversion.statements { print(statement + ";") }
                }
                if outcome.pending.isEmpty && outcome.dateConversion == nil {
                    print("\(database) is at the requested version of \(model): nothing to apply.")
                }
                for migration in outcome.pending {
                    print("-- version \(migration.version)")
                    print(migration.sql)
                }
                for migration in outcome.contracted {
                    print("-- contract of version \(migration.version)")
                    print(migration.contract ?? "")
                }
            } else if ahead, let from = outcome.from {
                print(
                    "\(database) is at version \(from) of \(model), ahead of these schemas (v\(latest)); "
                        + "\(from == latest + 1 ? "v\(from) is" : "v\(latest + 1)…v\(from) are") compatible with the code of "
                        + "v\(latest): nothing to apply.")
            } else if outcome.applied.isEmpty {
                if outcome.contracted.isEmpty {
                    print("\(database) is at version \(outcome.from ?? 0) of \(model): nothing to apply.")
                }
            } else {
                print(
                    "\(database): \(model) migrated from version \(outcome.from ?? 0) to \(outcome.to ?? 0) (applied \(outcome.applied.map { "v\($0.version)" }.joined(separator: ", ")))."
                )
            }
            if !dryRun, !outcome.contracted.isEmpty {
                print(
                    "\(database): contracted \(outcome.contracted.map { "v\($0.version)" }.joined(separator: ", ")) of \(model): "
                        + "code of \(outcome.contracted.map { "v\($0.version - 1)" }.joined(separator: ", ")) no longer runs against it.")
            }
            for migration in outcome.expanded {
                print(
                    "\(database): v\(migration.version) of \(model) is expanded (migration.rolling): code of v\(migration.version - 1) "
                        + "still runs against it. Once no instance runs that code, run strata migrate --contract.")
            }
        }
    }

    /// A migration as JSON: `{"version", "checksum"}`.
    static func versionAndChecksum(_ migration: StrataMigration) -> JSONValue {
        .object([("version", .int(migration.version)), ("checksum", .string(migration.checksum))])
    }

    /// 2 for a database that cannot be used (not a database, unreadable, locked, full); 4 for a
    /// migration whose SQL failed (it was rolled back).
    static func status(of error: DatabaseError) -> StrataExitCode {
        let cannotUse: [ResultCode] = [
            .SQLITE_CANTOPEN, .SQLITE_NOTADB, .SQLITE_CORRUPT, .SQLITE_IOERR, .SQLITE_FULL, .SQLITE_PERM,
            .SQLITE_READONLY, .SQLITE_BUSY, .SQLITE_LOCKED, .SQLITE_AUTH, .SQLITE_NOMEM,
        ]
        return cannotUse.contains(error.resultCode) ? .couldNotRun : .migrationFailed
    }

    static func seconds(_ duration: Duration) -> String {
        let milliseconds = duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
        return String(format: "%.2f s", Double(milliseconds) / 1000)
    }
}

/// Picks the model a command works on.
enum ModelSelection {
    static func history(_ name: String?, schemas: String, format: OutputFormat = .text) throws -> SchemaHistory {
        let plan = Workspace.plan(schemas: schemas, output: "", render: false)
        if plan.hasErrors {
            if format == .json {
                print(
                    JSONValue.object([
                        ("diagnostics", .diagnostics(plan.diagnostics)), ("error", .string("the schemas have errors")),
                    ]).rendered)
            } else {
                Console.report(plan.diagnostics)
            }
            throw StrataExitCode.problemsFound.exitCode
        }
        if let name {
            guard let history = plan.histories.first(where: { $0.model == name }) else {
                throw ValidationError(
                    "no model '\(name)' in '\(schemas)'; models: \(plan.histories.map(\.model).joined(separator: ", "))"
                )
            }
            return history
        }
        guard plan.histories.count == 1, let only = plan.histories.first else {
            throw ValidationError(
                "'\(schemas)' holds \(plan.histories.count) models (\(plan.histories.map(\.model).joined(separator: ", "))): choose one with --model"
            )
        }
        return only
    }
}
