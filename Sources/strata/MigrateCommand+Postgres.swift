import Foundation
import PostgresNIO
import StrataCLI
import StrataCore
import StrataIntrospection
import StrataPostgres
import StrataRuntime

extension Migrate {
    /// Migrates the PostgreSQL database at `url` with the model's PostgreSQL migrations
    /// (`Generated/<Model>/postgres/migrations/vN.sql`).
    func migratePostgres(_ history: SchemaHistory, url: PostgresURL) async -> (Outcome, StrataExitCode) {
        let migrator = PostgresMigrator(
            model: history.model,
            migrations: MigrationSources.postgres(for: history).map(StrataMigration.init), lockBudget: lockBudget,
            batchSize: batchSize ?? 1_000)
        var outcome = Outcome()
        let session: PostgresSession
        do {
            session = try await PostgresSession.connect(to: url)
        } catch let error as PostgresSessionError where error.isAuthenticationFailure {
            outcome.error = "\(url): the server refused the credentials: \(PostgresServerMessage(error.underlying).oneLine)"
            return (outcome, .authenticationFailed)
        } catch let error as PostgresSessionError {
            let message = PostgresServerMessage(error.underlying)
            let reason =
                message.clientCode == .sslUnsupported
                ? "the server does not offer TLS, which sslmode=\(url.tls.rawValue) requires" : message.description
            outcome.error = "\(url): cannot connect: \(Self.oneLine(reason))"
            return (outcome, .couldNotRun)
        } catch {
            outcome.error = "\(url): cannot connect: \(PostgresServerMessage(error).oneLine)"
            return (outcome, .couldNotRun)
        }
        do {
            try await session.limit(sessionLimits)
        } catch {
            try? await session.close()
            outcome.error = "\(url): cannot set the session's time limits: \(PostgresServerMessage(error).oneLine)"
            return (outcome, .couldNotRun)
        }
        // A server that goes silent (a stopped network, a hung proxy) is noticed from a second connection.
        let watch = (try? await session.backendPID()).map { PostgresLivenessWatch(session, backendPID: $0) }
        let status = await migrate(migrator, history, session, name: url.description, into: &outcome)
        watch?.stop()
        if status == .couldNotRun, let loss = outcome.connectionLoss {
            await Self.reportLoss(of: url, migrator: migrator, loss: loss, reason: watch?.lostReason, into: &outcome)
        }
        try? await session.close()
        return (outcome, status)
    }

    /// The server-side limits of the migration's session, from the options: its `lock_timeout`
    /// bounds the wait for another `strata migrate`'s migration lock.
    var sessionLimits: PostgresSessionLimits {
        PostgresSessionLimits(statementTimeout: statementTimeout, lockTimeout: lockWaitLimitSeconds)
    }

    /// The migration statements' lock budget, from the options.
    var lockBudget: PostgresLockBudget {
        PostgresLockBudget(
            lockTimeout: lockTimeout?.duration ?? PostgresLockBudget.defaultLockTimeout,
            totalWait: lockWaitLimit?.duration ?? PostgresLockBudget.defaultTotalWait,
            holdLimit: lockHoldLimit.map { $0.duration == .zero ? nil : $0.duration } ?? PostgresLockBudget.defaultHoldLimit)
    }

    /// `--lock-wait-limit` in whole seconds, at least 1 unless 0 (no limit) was asked for.
    var lockWaitLimitSeconds: Int {
        let limit = lockWaitLimit?.duration ?? PostgresLockBudget.defaultTotalWait
        let seconds = Int(limit.components.seconds) + (limit.components.attoseconds > 0 ? 1 : 0)
        return seconds
    }

    /// The message of a run that lost its connection (`loss`: when, and the client's error): why
    /// (the watch's reason, when it closed the connection), and the version the database is at,
    /// read on a new connection when the server answers within a few seconds.
    static func reportLoss(
        of url: PostgresURL, migrator: PostgresMigrator, loss: String, reason: String?,
        into outcome: inout Outcome
    ) async {
        var again = url
        again.connectTimeout = min(url.connectTimeout, 5)
        let version: Int?
        do {
            let session = try await PostgresSession.connect(to: again)
            version = try? await withStrataDeadline(.seconds(5), waitingFor: "reading the ledger") {
                try await migrator.currentVersion(session.connection)
            }
            try? await session.close()
        } catch {
            version = nil
        }
        let model = migrator.model
        outcome.error =
            "\(url): lost the connection to the server \(loss)\(reason.map { ": \($0)" } ?? ""); "
            + (version.map {
                "the database is at version \($0) of \(model) (the server rolled back the version it did not see committed)"
            } ?? "the version the database is at could not be read; the server rolls back the version it did not see committed")
        if let version { outcome.to = version }
    }

    private func migrate(
        _ migrator: PostgresMigrator, _ history: SchemaHistory, _ session: PostgresSession, name: String,
        into outcome: inout Outcome
    ) async -> StrataExitCode {
        let connection = session.connection
        if !dryRun {
            // PostgresNIO cannot cancel a running query: stop before the next statement, or end
            // at once on a second signal (the server then rolls the open transaction back).
            Interruption.onSignal { _ in
                var stream = StandardError()
                print(
                    "\(name): stopping after the running statement (press Ctrl-C again to end strata now; the server rolls the version back)",
                    to: &stream)
            }
        }
        do {
            if let baseline {
                try await baselinePostgres(
                    migrator, history: history, at: baseline, session: session, name: name, into: &outcome)
            } else if dryRun {
                outcome.pending = try await migrator.pending(connection, to: to)
                outcome.from = outcome.pending.first.map { $0.version - 1 }
                outcome.to = outcome.pending.last?.version
                if contract {
                    // Applied contracts, then those of the versions the run would apply.
                    let applied = try await migrator.pendingContracts(connection)
                    outcome.contracted = applied + outcome.pending.filter { $0.contract != nil }
                }
            } else {
                let model = migrator.model
                outcome.from = try await migrator.currentVersion(connection)
                outcome.applied = try await migrator.migrate(
                    connection, to: to, waiting: Self.waitingNotice(name: name, model: model),
                    progress: Self.reportProgress(model: model))
                // Read after the run: another process may have applied versions while this one waited.
                let now = try await migrator.currentVersion(connection)
                outcome.to = now
                outcome.from = now - outcome.applied.count
                if contract {
                    outcome.contracted = try await migrator.contract(
                        connection, waiting: Self.waitingNotice(name: name, model: model),
                        progress: Self.reportProgress(model: model))
                }
                outcome.expanded = try await migrator.pendingContracts(connection)
            }
            return .success
        } catch where Interruption.received != nil {
            let version = try? await migrator.currentVersion(connection)
            Self.stop(&outcome, by: Interruption.received ?? SIGINT, database: name, model: migrator.model, at: version)
            return .migrationFailed
        } catch let error as StrataMigrationError {
            outcome.refuse(error, database: name)
            return .problemsFound
        } catch let error as StrataPostgresMigrationFailure {
            // Only a version after the baseline fails so: the baseline was committed before it.
            if let baseline, outcome.recorded.isEmpty {
                outcome.recorded = migrator.migrations.filter { $0.version <= baseline }
                outcome.from = baseline
            }
            outcome.error = "\(name): \(Self.oneLine(error.description))"
            if !error.rolledBack, error.message.isConnectionLost {
                outcome.connectionLoss = "while applying v\(error.version) (\(error.message.oneLine))"
            }
            return error.rolledBack ? .migrationFailed : .couldNotRun
        } catch where PostgresServerMessage(error).sqlState == "55P03" {
            outcome.error =
                "\(name): another strata migrate held the migration lock of \(migrator.model) longer than --lock-wait-limit (\(sessionLimits.lockTimeout) s); nothing was applied"
            return .couldNotRun
        } catch {
            let message = PostgresServerMessage(error)
            outcome.error = "\(name): the connection failed: \(message.oneLine)"
            if message.isConnectionLost { outcome.connectionLoss = "(\(message.oneLine))" }
            return .couldNotRun
        }
    }

    /// Says on standard error that another `strata migrate` holds the model's migration lock.
    static func waitingNotice(name: String, model: String) -> @Sendable () -> Void {
        {
            var stream = StandardError()
            print("\(name): another strata migrate is migrating \(model); waiting for it to finish…", to: &stream)
        }
    }

    /// A message on one line: its lines joined with "; ".
    static func oneLine(_ text: String) -> String {
        text.split(whereSeparator: \.isNewline).joined(separator: "; ")
    }
}
