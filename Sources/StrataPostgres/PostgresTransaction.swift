import PostgresNIO
import StrataRuntime

/// Transactions on a `PostgresClient`.
public enum PostgresTransaction {
    /// Runs `body` in one transaction on a leased connection: committed when it returns, rolled
    /// back when it throws, with `body`'s own error rethrown (not PostgresNIO's wrapper).
    @inlinable
    public static func run<T: Sendable>(
        on client: PostgresClient, _ body: @Sendable (PostgresConnection) async throws -> T
    ) async throws -> T {
        try await client.withConnection { connection in try await run(on: connection, body) }
    }

    /// Runs `body` in one transaction on `connection`.
    @inlinable
    public static func run<T: Sendable>(
        on connection: PostgresConnection, _ body: @Sendable (PostgresConnection) async throws -> T
    ) async throws -> T {
        let logger = StrataPostgresLog.logger
        try await connection.strataExecute("BEGIN", logger: logger)
        let value: T
        do {
            value = try await body(connection)
        } catch {
            // The caller's error is what it needs; a failed rollback ends the session's transaction anyway.
            try? await connection.strataExecute("ROLLBACK", logger: logger)
            throw error
        }
        try await connection.strataExecute("COMMIT", logger: logger)
        return value
    }

    /// Runs `body` on `connection` as a whole: in a savepoint of the caller's transaction, or in a
    /// transaction of its own when there is none (PostgreSQL refuses `SAVEPOINT` outside a
    /// transaction, SQLSTATE 25P01, and changes nothing). What makes an operation of several
    /// statements all or none on a bare connection too.
    @inlinable
    public static func atomically<T: Sendable>(
        on connection: PostgresConnection, _ body: @Sendable (PostgresConnection) async throws -> T
    ) async throws -> T {
        let logger = StrataPostgresLog.logger
        do {
            try await connection.strataExecute("SAVEPOINT strata_operation", logger: logger)
        } catch where PostgresServerMessage(error).sqlState == "25P01" {
            return try await run(on: connection, body)
        }
        let value: T
        do {
            value = try await body(connection)
        } catch {
            try? await connection.strataExecute("ROLLBACK TO SAVEPOINT strata_operation", logger: logger)
            try? await connection.strataExecute("RELEASE SAVEPOINT strata_operation", logger: logger)
            throw error
        }
        try await connection.strataExecute("RELEASE SAVEPOINT strata_operation", logger: logger)
        return value
    }
}
