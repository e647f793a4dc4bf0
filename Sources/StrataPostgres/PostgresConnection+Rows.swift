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
    /// closes while the query waits throws it shortly after, unless the query's own error (the
    /// server's reason, such as "terminating connection due to administrator command") arrives
    /// first.
    public func strataRows(_ query: PostgresQuery, logger: Logger) async throws -> [PostgresRow] {
        if isClosed { throw PostgresConnectionClosed() }
        let waiting = OnceContinuation<[PostgresRow]>()
        @Sendable func finish(_ result: Result<[PostgresRow], any Error>) { _ = waiting.resume(with: result) }
        return try await withCheckedThrowingContinuation { continuation in
            waiting.set(continuation)
            Task {
                do {
                    finish(.success(try await self.query(query, logger: logger).collect()))
                } catch {
                    finish(.failure(error))
                }
            }
            // The query's own failure is reported through a task hop after the channel closes:
            // give it a moment to arrive with the server's reason.
            let eventLoop = self.eventLoop
            closeFuture.whenComplete { _ in
                eventLoop.scheduleTask(in: .milliseconds(250)) { finish(.failure(PostgresConnectionClosed())) }
            }
        }
    }

    /// Runs `sql` (one statement, without parameters) and discards its rows; see
    /// ``strataRows(_:logger:)``.
    public func strataExecute(_ sql: String, logger: Logger) async throws {
        _ = try await strataRows(PostgresQuery(unsafeSQL: sql), logger: logger)
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
