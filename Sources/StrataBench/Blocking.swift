import Foundation

/// Runs async work to completion from synchronous code (the suite's sections are synchronous).
enum Blocking {
    /// The result of `body`, waiting on the calling thread. Call it from a thread that is not one
    /// of Swift concurrency's (the suite's main thread), since it blocks that thread meanwhile.
    static func run<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) throws -> T {
        let box = ResultBox<T>()
        let done = DispatchSemaphore(value: 0)
        Task.detached {
            do { box.set(.success(try await body())) } catch { box.set(.failure(error)) }
            done.signal()
        }
        done.wait()
        guard let result = box.get() else { throw Subprocess.Failure(description: "async work ended without a result") }
        return try result.get()
    }

    /// A result handed from the task to the waiting thread.
    private final class ResultBox<T: Sendable>: @unchecked Sendable {
        private let lock = NSLock()
        private var result: Result<T, any Error>?

        func set(_ value: Result<T, any Error>) { lock.withLock { result = value } }
        func get() -> Result<T, any Error>? { lock.withLock { result } }
    }
}

/// A value passed across concurrency domains whose uses the caller keeps apart (the suite's
/// progress closure, called while the suite's thread waits in ``Blocking/run(_:)``).
struct UncheckedSendable<Value>: @unchecked Sendable {
    let value: Value
}
