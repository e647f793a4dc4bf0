import Foundation
import StrataCore
import StrataIntrospection

/// Throwaway databases on a PostgreSQL server, for verification.
public enum PostgresScratch {
    /// Creates `strata_verify_<n>_chain` and `_fresh` on the server of `url`, verifies `history`
    /// in them, and drops them.
    public static func verify(_ history: SchemaHistory, url: String, verifier: MigrationVerifier) async throws -> VerificationReport {
        try await withDatabases(["chain", "fresh"], url: url) { sessions in
            try await verifier.verify(
                history, chain: PostgresVerificationDatabase(session: sessions[0]),
                fresh: PostgresVerificationDatabase(session: sessions[1]))
        }
    }

    /// Creates a database `strata_verify_<n>_<role>` per role on the server of `url`, runs `body`
    /// with a session on each (in the order of `roles`), then closes them and drops the databases,
    /// whatever happens.
    public static func withDatabases<Value>(
        _ roles: [String], url: String, _ body: ([PostgresSession]) async throws -> Value
    ) async throws -> Value {
        let admin = try await PostgresSession.connect(url: url)
        let suffix = String(UInt32.random(in: 0...UInt32.max), radix: 16)
        let names = roles.map { "strata_verify_\(suffix)_\($0)" }
        var sessions: [PostgresSession] = []
        do {
            for name in names { try await admin.execute("CREATE DATABASE \(SQLDialect.postgres.quoted(name))") }
            for name in names { sessions.append(try await PostgresSession.connect(to: admin.url.database(name))) }
            let value = try await body(sessions)
            // A connection must be closed before it goes away (PostgresNIO asserts it).
            for session in sessions { try await session.close() }
            sessions = []
            for name in names { try await admin.execute("DROP DATABASE IF EXISTS \(SQLDialect.postgres.quoted(name))") }
            try await admin.close()
            return value
        } catch {
            for session in sessions { try? await session.close() }
            for name in names { try? await admin.execute("DROP DATABASE IF EXISTS \(SQLDialect.postgres.quoted(name))") }
            try? await admin.close()
            throw error
        }
    }
}
