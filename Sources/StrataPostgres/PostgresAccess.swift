import PostgresNIO
import StrataRuntime

/// The records of one type on one connection, inside the current transaction (if any):
/// `try await db.write { try await $0.todoItems.insert(item) }`, or on any `PostgresConnection`.
public struct PostgresAccess<Record: PostgresRecord>: PostgresStore {
    /// The connection.
    public let connection: PostgresConnection

    /// The records of `Record`'s table on `connection`.
    @inlinable
    public init(_ connection: PostgresConnection) {
        self.connection = connection
    }

    /// Runs `body` on the connection.
    @inlinable
    public func read<T: Sendable>(_ body: @Sendable (PostgresConnection) async throws -> T) async throws -> T {
        try await body(connection)
    }

    /// Runs `body` on the connection, inside the caller's transaction (if any).
    @inlinable
    public func write<T: Sendable>(_ body: @Sendable (PostgresConnection) async throws -> T) async throws -> T {
        try await body(connection)
    }
}

/// The records of one type in a database served by a `PostgresClient` (whose `run()` must be
/// running): every call leases a connection, and every change is one transaction.
public struct PostgresRepository<Record: PostgresRecord>: PostgresStore {
    /// The client.
    public let client: PostgresClient

    /// The records of `Record`'s table in the database of `client`, which must be migrated.
    @inlinable
    public init(client: PostgresClient) {
        self.client = client
    }

    /// Runs `body` on a leased connection.
    @inlinable
    public func read<T: Sendable>(_ body: @Sendable (PostgresConnection) async throws -> T) async throws -> T {
        try await client.withConnection { connection in try await body(connection) }
    }

    /// Runs `body` in one transaction: committed when it returns, rolled back when it throws.
    @inlinable
    public func write<T: Sendable>(_ body: @Sendable (PostgresConnection) async throws -> T) async throws -> T {
        try await PostgresTransaction.run(on: client, body)
    }
}
