import Foundation
import Logging
import PostgresNIO

/// The connection to the server was closed (the server stopped, the network failed, or
/// ``PostgresConnection/close()`` was called) while a query waited for its answer, or before it
/// was sent.
public struct PostgresConnectionClosed: Error, CustomStringConvertible, Sendable {
    /// Creates the error.
    public init() {}

    public var description: String { "the connection to the server was closed" }
}

extension PostgresConnection {
    /// Runs `query` and returns all its rows, or fails (never waits forever) once the
    /// connection is closed.
    ///
    /// PostgresNIO's `query` writes its request into the channel without a write promise: on a
    /// channel that has already closed, the request is dropped and the query's answer never
    /// comes, so awaiting it hangs (the `ROLLBACK` after a server died mid-statement did). Here a
    /// closed connection throws ``PostgresConnectionClosed`` at once, and a connection that
    /// closes while the query waits throws it shortly after (``PendingQueries``), unless the
    /// query's own error (the server's reason, such as "terminating connection due to
    /// administrator command") arrives first.
    public func strataRows(_ query: PostgresQuery, logger: Logger) async throws -> [PostgresRow] {
        if isClosed { throw PostgresConnectionClosed() }
        let waiting = OnceContinuation<[PostgresRow]>()
        let entry = PendingQueries.shared.add(self) { _ = waiting.resume(with: .failure(PostgresConnectionClosed())) }
        defer { PendingQueries.shared.remove(entry, of: self) }
        return try await withCheckedThrowingContinuation { continuation in
            waiting.set(continuation)
            Task {
                do {
                    _ = waiting.resume(with: .success(try await self.query(query, logger: logger).collect()))
                } catch {
                    _ = waiting.resume(with: .failure(error))
                }
            }
        }
    }

    /// Runs `sql` (one statement, without parameters) and discards its rows; see
    /// ``strataRows(_:logger:)``.
    public func strataExecute(_ sql: String, logger: Logger) async throws {
        _ = try await strataRows(PostgresQuery(unsafeSQL: sql), logger: logger)
    }
}

/// The queries of ``PostgresConnection/strataRows(_:logger:)`` waiting on each open connection,
/// failed together shortly after it closes: one callback on the connection's `closeFuture`
/// whatever the number of queries it runs (one per query would pile up on a long-lived
/// connection). A connection is kept here until it closes, so that no other one can take its
/// identity meanwhile.
final class PendingQueries: @unchecked Sendable {
    static let shared = PendingQueries()

    private struct Entry {
        var connection: PostgresConnection
        var failures: [UInt64: @Sendable () -> Void] = [:]
    }

    private let lock = NSLock()
    private var entries: [ObjectIdentifier: Entry] = [:]
    private var nextID: UInt64 = 0

    /// Adds `fail`, run when `connection` closes unless removed before; returns its id.
    func add(_ connection: PostgresConnection, fail: @escaping @Sendable () -> Void) -> UInt64 {
        let key = ObjectIdentifier(connection)
        let (id, first): (UInt64, Bool) = lock.withLock {
            nextID += 1
            let first = entries[key] == nil
            if first { entries[key] = Entry(connection: connection) }
            entries[key]?.failures[nextID] = fail
            return (nextID, first)
        }
        if first {
            // The query's own failure comes through a task hop after the channel closes: give it
            // a moment to arrive with the server's reason.
            let eventLoop = connection.eventLoop
            connection.closeFuture.whenComplete { _ in
                eventLoop.scheduleTask(in: .milliseconds(250)) { PendingQueries.shared.failAll(key) }
            }
        }
        return id
    }

    /// Removes the failure `id` of `connection` (its query ended).
    func remove(_ id: UInt64, of connection: PostgresConnection) {
        lock.withLock { _ = entries[ObjectIdentifier(connection)]?.failures.removeValue(forKey: id) }
    }

    private func failAll(_ key: ObjectIdentifier) {
        guard let entry = lock.withLock({ entries.removeValue(forKey: key) }) else { return }
        for fail in entry.failures.values { fail() }
    }
}

/// A continuation resumed by the first of several racing events; the later ones do nothing.
final class OnceContinuation<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var continuation: CheckedContinuation<Value, any Error>?
    private var early: Result<Value, any Error>?
    private var done = false

    /// Gives the continuation to resume (resumed at once when an event came first).
    func set(_ continuation: CheckedContinuation<Value, any Error>) {
        let result: Result<Value, any Error>? = lock.withLock {
            guard let early else {
                self.continuation = continuation
                return nil
            }
            return early
        }
        if let result { continuation.resume(with: result) }
    }

    /// Resumes with `result` unless resumed already; true when this call resumed it.
    @discardableResult
    func resume(with result: Result<Value, any Error>) -> Bool {
        let (first, continuation): (Bool, CheckedContinuation<Value, any Error>?) = lock.withLock {
            guard !done else { return (false, nil) }
            done = true
            guard let waiting = self.continuation else {
                early = result
                return (true, nil)
            }
            self.continuation = nil
            return (true, waiting)
        }
        continuation?.resume(with: result)
        return first
    }
}
