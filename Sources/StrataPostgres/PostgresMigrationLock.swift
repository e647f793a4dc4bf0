import Logging
import PostgresNIO

/// The session-level advisory lock that serialises migrations of one model on one database:
/// `pg_advisory_lock(hashtext('strata_migrations:' || model))`.
///
/// Held across a whole `migrate` run, so that two deployers started together apply each version
/// once: the second waits, then finds nothing left to apply. The server releases it when the
/// session ends, so a crashed migrator never leaves it held.
enum PostgresMigrationLock {
    /// Takes the lock of `model`. When another session holds it, `waiting` is called once, then
    /// this waits for it.
    static func acquire(
        model: String, _ connection: PostgresConnection, logger: Logger, waiting: @Sendable () -> Void
    ) async throws {
        let taken = try await connection.strataRows(
            "SELECT pg_try_advisory_lock(hashtext(\(key(model))))", logger: logger)
        if try taken.first?.decode(Bool.self) == true { return }
        waiting()
        _ = try await connection.strataRows("SELECT pg_advisory_lock(hashtext(\(key(model))))", logger: logger)
    }

    /// Releases the lock of `model` taken by ``acquire(model:_:logger:waiting:)``.
    static func release(model: String, _ connection: PostgresConnection, logger: Logger) async throws {
        _ = try await connection.strataRows("SELECT pg_advisory_unlock(hashtext(\(key(model))))", logger: logger)
    }

    /// The text whose hash is the lock's key.
    static func key(_ model: String) -> String { "strata_migrations:" + model }
}
