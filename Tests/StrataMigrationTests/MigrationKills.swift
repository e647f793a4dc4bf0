import Foundation
import StrataIntrospection
import StrataTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `strata migrate --postgres` killed with SIGKILL in the middle of a backfill, as a deploy could
/// be, for the tests that check a rerun ends as an uninterrupted run (before each statement:
/// `PostgresBackfillTests.killedAtEveryStatement`).
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
}
