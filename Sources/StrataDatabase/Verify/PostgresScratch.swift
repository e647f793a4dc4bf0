import Foundation
import StrataCore

/// Two throwaway databases on a PostgreSQL server, for verification.
public enum PostgresScratch {
    /// Creates `strata_verify_<n>_chain` and `_fresh` on the server of `url`, verifies `history`
    /// in them, and drops them.
    public static func verify(_ history: SchemaHistory, url: String, verifier: MigrationVerifier) async throws -> VerificationReport {
        let admin = try await PostgresSession.connect(url: url)
        let suffix = String(UInt32.random(in: 0...UInt32.max), radix: 16)
        let names = ["strata_verify_\(suffix)_chain", "strata_verify_\(suffix)_fresh"]
        do {
            for name in names { try await admin.execute("CREATE DATABASE \(SQLDialect.postgres.quoted(name))") }
            let chain = try await PostgresSession.connect(to: admin.url.database(names[0]))
            let fresh: PostgresSession
            do {
                fresh = try await PostgresSession.connect(to: admin.url.database(names[1]))
            } catch {
                // A connection must be closed before it goes away (PostgresNIO asserts it).
                try? await chain.close()
                throw error
            }
            let report: VerificationReport
            do {
                report = try await verifier.verify(
                    history, chain: PostgresVerificationDatabase(session: chain), fresh: PostgresVerificationDatabase(session: fresh))
            } catch {
                try? await chain.close()
                try? await fresh.close()
                throw error
            }
            try await chain.close()
            try await fresh.close()
            for name in names { try await admin.execute("DROP DATABASE IF EXISTS \(SQLDialect.postgres.quoted(name))") }
            try await admin.close()
            return report
        } catch {
            for name in names { try? await admin.execute("DROP DATABASE IF EXISTS \(SQLDialect.postgres.quoted(name))") }
            try? await admin.close()
            throw error
        }
    }
}
