/// A wait that took longer than its limit (see ``withStrataDeadline(_:onTimeout:_:)``).
public struct StrataDeadlineExceeded: Error, CustomStringConvertible, Sendable {
    /// The limit that passed.
    public var limit: Duration
    /// What was waited for, for the message ("the server's answer").
    public var waitingFor: String

    /// Creates the error.
    public init(limit: Duration, waitingFor: String) {
        self.limit = limit
        self.waitingFor = waitingFor
    }

    public var description: String { "no answer from the server within \(limit.strataSeconds) (\(waitingFor))" }
}

/// Runs `operation` and returns its value, or throws ``StrataDeadlineExceeded`` once `limit`
/// has passed, whether or not `operation` can be cancelled (a PostgresNIO wait cannot): then
/// `onTimeout` runs (to close the connection the operation waits on) and the operation is left
/// to end on its own.
public func withStrataDeadline<Value: Sendable>(
    _ limit: Duration, waitingFor: String, onTimeout: @escaping @Sendable () -> Void = {},
    _ operation: @escaping @Sendable () async throws -> Value
) async throws -> Value {
    let waiting = OnceContinuation<Value>()
    let timer = Task {
        try await Task.sleep(for: limit)
        if waiting.resume(with: .failure(StrataDeadlineExceeded(limit: limit, waitingFor: waitingFor))) { onTimeout() }
    }
    defer { timer.cancel() }
    return try await withCheckedThrowingContinuation { continuation in
        waiting.set(continuation)
        Task {
            do {
                waiting.resume(with: .success(try await operation()))
            } catch {
                waiting.resume(with: .failure(error))
            }
        }
    }
}

extension Duration {
    /// `5 s`, `0.25 s`: a duration in seconds, for messages.
    public var strataSeconds: String {
        let seconds = Double(components.seconds) + Double(components.attoseconds) / 1e18
        return seconds == seconds.rounded() ? "\(Int(seconds)) s" : "\(seconds) s"
    }
}
