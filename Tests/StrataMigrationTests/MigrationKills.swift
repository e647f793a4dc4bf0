import Foundation
import StrataDatabase
import StrataTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `strata migrate --postgres` killed with SIGKILL where a deploy could be killed: in the middle
/// of a backfill, and before each statement of a run (`STRATA_TEST_KILL_BEFORE_STATEMENT`), for
/// the tests that check a rerun ends as an uninterrupted run.
enum MigrationKills {
    /// Starts `strata migrate` to the latest version of `folder` in batches of one row, and kills
    /// it once a backfill has recorded a batch (so that the rerun resumes after it).
    static func killInTheMiddleOfABackfill(_ session: PostgresSession, folder: String) async throws {
        let running = try CLI.start([
            "migrate", "--postgres", session.url.description, "--schemas", folder, "--batch-size", "1",
        ])
        var resumable = false
        for _ in 0..<1_200 where !resumable {
            let rows = try? await session.textRows(
                sql: #"SELECT count(*)::text FROM "strata_migration_steps" WHERE "resume_after" IS NOT NULL AND NOT "done""#)
            resumable = (rows?.first?.first ?? nil).map { $0 != "0" } ?? false
            if !resumable { try await Task.sleep(for: .milliseconds(25)) }
        }
        #expect(resumable, "the backfill never recorded a batch")
        kill(running.process.processIdentifier, SIGKILL)
        _ = CLI.finish(running)
    }

    /// For each statement n from 1 until a run has fewer: a database of `server` made ready by
    /// `prepare` (at the first version, with rows), `strata migrate` to the latest version of
    /// `folder` killed before statement n, then run again; the database must then be `expected`
    /// (its dump through `kept`). Returns how many runs were killed.
    static func killBeforeEveryStatement(
        server: TestPostgresServer, folder: String, upTo limit: Int = 80,
        prepare: (PostgresSession) async throws -> Void, kept: (String) -> [String], expected: [String]
    ) async throws -> Int {
        var killed = 0
        for statement in 1...limit {
            let done = try await server.withDatabase { session -> Bool in
                let url = session.url.description
                try await prepare(session)
                let running = try CLI.start(
                    ["migrate", "--postgres", url, "--schemas", folder, "--batch-size", "100"],
                    environment: ["STRATA_TEST_KILL_BEFORE_STATEMENT": String(statement)])
                let first = CLI.finish(running)
                guard running.process.terminationReason == .uncaughtSignal else {
                    // Fewer statements than that: the run went through.
                    #expect(first.status == 0, "\(first.stderr)")
                    return true
                }
                let again = try CLI.strata(["migrate", "--postgres", url, "--schemas", folder, "--batch-size", "100"])
                #expect(again.status == 0, "killed before statement \(statement), rerun: \(again.stderr)")
                #expect(kept(try server.dump(database: session.url.database)) == expected, "killed before statement \(statement)")
                return false
            }
            if done { break }
            killed += 1
        }
        return killed
    }
}
