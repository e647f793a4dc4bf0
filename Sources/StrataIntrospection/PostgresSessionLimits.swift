import PostgresNIO
import StrataPostgres

/// The limits `strata migrate --postgres` puts on its session, so that no wait on the server is
/// unbounded: a statement (`statement_timeout`, when given), a lock (`lock_timeout`, the
/// migration lock of another `strata migrate` included), a transaction left idle by a client
/// that vanished (`idle_in_transaction_session_timeout`, so the server rolls it back and frees
/// its locks), and the server's TCP keepalives (so it notices a client that vanished during a
/// long statement). Connecting is bounded by the URL's `connect_timeout`, and a server that
/// goes silent is noticed by ``PostgresLivenessWatch``.
public struct PostgresSessionLimits: Sendable, Equatable {
    /// The longest a statement may run, in seconds; nil keeps the server's setting (0 means none).
    public var statementTimeout: Int?
    /// The longest a statement may wait for a lock, in seconds (0 means no limit).
    public var lockTimeout: Int
    /// The longest the session may stay idle inside a transaction, in seconds.
    public var idleInTransactionTimeout: Int

    /// The default lock timeout: 600 s, as long as `strata migrate` waits for SQLite's write lock.
    public static let defaultLockTimeout = 600

    /// Creates the limits.
    public init(statementTimeout: Int? = nil, lockTimeout: Int = defaultLockTimeout, idleInTransactionTimeout: Int = 60)
    {
        self.statementTimeout = statementTimeout
        self.lockTimeout = lockTimeout
        self.idleInTransactionTimeout = idleInTransactionTimeout
    }

    /// The `SET` statements that must succeed.
    var required: [String] {
        var statements = [
            "SET lock_timeout = '\(lockTimeout)s'",
            "SET idle_in_transaction_session_timeout = '\(idleInTransactionTimeout)s'",
        ]
        if let statementTimeout { statements.insert("SET statement_timeout = '\(statementTimeout)s'", at: 0) }
        return statements
    }

    /// The `SET` statements a server may not know (older versions) or ignore (a Unix socket).
    static let optional = [
        "SET tcp_keepalives_idle = 10", "SET tcp_keepalives_interval = 5", "SET tcp_keepalives_count = 3",
        "SET client_connection_check_interval = '5s'",
    ]
}

extension PostgresSession {
    /// Puts `limits` on this session.
    public func limit(_ limits: PostgresSessionLimits) async throws {
        for statement in limits.required { try await execute(statement) }
        for statement in PostgresSessionLimits.optional { try? await execute(statement) }
    }

    /// The process id of this session's backend on the server.
    public func backendPID() async throws -> Int {
        guard let text = try await textRows(sql: "SELECT pg_backend_pid()::text").first?.first ?? nil,
            let pid = Int(text)
        else { throw PostgresSessionError(statement: nil, underlying: PostgresConnectionClosed(), context: nil) }
        return pid
    }
}
