import Foundation
import PostgresNIO
import StrataCLI
import StrataCore
import StrataDatabase
import StrataPostgres
import StrataRuntime

extension Migrate {
    /// Migrates the PostgreSQL database at `url` with the model's PostgreSQL migrations
    /// (`Generated/<Model>/postgres/migrations/vN.sql`).
    func migratePostgres(_ history: SchemaHistory, url: PostgresURL) async -> (Outcome, StrataExitCode) {
        let migrator = StrataPostgresMigrator(
            model: history.model,
            migrations: MigrationSources.postgres(for: history).map {
                StrataMigration(version: $0.version, sql: $0.sql, checksum: $0.checksum)
            })
        var outcome = Outcome()
        let session: PostgresSession
        do {
            session = try await PostgresSession.connect(to: url)
        } catch let error as PostgresSessionError where error.isAuthenticationFailure {
            outcome.error =
                "\(url): the server refused the credentials: \(Self.oneLine(PostgresServerMessage(error.underlying).description))"
            return (outcome, .authenticationFailed)
        } catch let error as PostgresSessionError {
            let message = PostgresServerMessage(error.underlying)
            let reason =
                message.clientCode == .sslUnsupported
                ? "the server does not offer TLS, which sslmode=\(url.tls.rawValue) requires" : message.description
            outcome.error = "\(url): cannot connect: \(Self.oneLine(reason))"
            return (outcome, .couldNotRun)
        } catch {
            outcome.error = "\(url): cannot connect: \(Self.oneLine("\(error)"))"
            return (outcome, .couldNotRun)
        }
        let status = await migrate(migrator, history, session, name: url.description, into: &outcome)
        try? await session.close()
        return (outcome, status)
    }

    private func migrate(
        _ migrator: StrataPostgresMigrator, _ history: SchemaHistory, _ session: PostgresSession, name: String,
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
            return error.rolledBack ? .migrationFailed : .couldNotRun
        } catch {
            outcome.error = "\(name): the connection failed: \(Self.oneLine(PostgresServerMessage(error).description))"
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
