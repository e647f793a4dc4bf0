import Dispatch
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Ctrl-C (SIGINT), SIGTERM and SIGHUP while `generate` or an import writes: once
/// ``noteSignals()`` was called, such a signal no longer ends the process at once. It is noted,
/// the output transaction (or ``ImportedModelWriter``) stops before its next file and puts back
/// everything it wrote (``OutputInterrupted``), and the command exits with 128 + the signal's
/// number. A second signal ends the process as usual.
public enum Interruption {
    /// The signals noted.
    static let signals: [Int32] = [SIGINT, SIGTERM, SIGHUP]

    /// Notes SIGINT, SIGTERM and SIGHUP from now on instead of being ended by them. Call it
    /// before writing; calling it again does nothing.
    public static func noteSignals() {
        state.withLock { state in
            guard state.sources.isEmpty else { return }
            for number in signals {
                signal(number, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
                source.setEventHandler {
                    // The next one ends the process, as if Strata had not been listening.
                    for number in signals { signal(number, SIG_DFL) }
                    let actions = Self.state.withLock { state -> [@Sendable (Int32) -> Void]? in
                        guard state.received == nil else { return nil }
                        state.received = number
                        return state.actions
                    }
                    // A signal that still reaches the source (where the signal source keeps the
                    // signals blocked, as on Linux) is a second one: end now.
                    guard let actions else { endNow(by: number) }
                    for action in actions { action(number) }
                }
                source.resume()
                state.sources.append(source)
            }
        }
    }

    /// Ends the process at once, as the signal `number` does by default: unblocked on this
    /// thread and raised again with its default action, else exit status 128 + its number.
    static func endNow(by number: Int32) -> Never {
        signal(number, SIG_DFL)
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, number)
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
        raise(number)
        _exit(128 + number)
    }

    /// `SIGINT`, `SIGTERM`, `SIGHUP`, or "signal N".
    public static func name(of signal: Int32) -> String {
        [SIGINT: "SIGINT", SIGTERM: "SIGTERM", SIGHUP: "SIGHUP"][signal] ?? "signal \(signal)"
    }

    /// The first signal noted, if any.
    public static var received: Int32? { state.withLock { $0.received } }

    /// Runs `action` when the first signal is noted (on a background queue): for work that
    /// waits on something a question between steps cannot reach, such as a long SQLite statement
    /// (`DatabaseWriter.interrupt()`). Runs it at once when a signal was already noted.
    public static func onSignal(_ action: @escaping @Sendable (Int32) -> Void) {
        let received = state.withLock { state -> Int32? in
            if state.received == nil { state.actions.append(action) }
            return state.received
        }
        if let received { action(received) }
    }

    /// The signal sources (kept alive here, touched only behind the lock), the first signal, and
    /// what to run when it comes.
    private struct State: @unchecked Sendable {
        var sources: [any DispatchSourceSignal] = []
        var received: Int32?
        var actions: [@Sendable (Int32) -> Void] = []
    }

    private static let state = LockedValue(State())
}

/// A write that a signal stopped: everything it wrote was put back.
public struct OutputInterrupted: Error, CustomStringConvertible, Sendable {
    /// The signal's number.
    public var signal: Int32
    /// What is as it was, for the message: by default, `generate`'s output.
    public var unchanged: String

    /// A write stopped by `signal`, after which `unchanged` says what was left as it was.
    public init(signal: Int32, unchanged: String = "the generated files and strata.lock are as they were") {
        self.signal = signal
        self.unchanged = unchanged
    }

    /// The exit status a shell expects of a process that a signal stopped: 128 + its number.
    public var exitStatus: Int32 { 128 + signal }

    public var description: String {
        "interrupted (\(Interruption.name(of: signal))): nothing was written; \(unchanged)"
    }
}
