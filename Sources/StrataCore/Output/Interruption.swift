import Dispatch
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Ctrl-C (SIGINT), SIGTERM and SIGHUP while `generate` writes: once ``noteSignals()`` was
/// called, such a signal no longer ends the process at once. It is noted, the output transaction
/// stops before its next file and puts back everything it wrote (``OutputInterrupted``), and the
/// command exits with 128 + the signal's number. A second signal ends the process as usual.
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
                    Self.state.withLock { $0.received = $0.received ?? number }
                }
                source.resume()
                state.sources.append(source)
            }
        }
    }

    /// The first signal noted, if any.
    public static var received: Int32? { state.withLock { $0.received } }

    /// The signal sources (kept alive here, touched only behind the lock) and the first signal.
    private struct State: @unchecked Sendable {
        var sources: [any DispatchSourceSignal] = []
        var received: Int32?
    }

    private static let state = LockedValue(State())
}

/// A write that a signal stopped: everything it wrote was put back.
public struct OutputInterrupted: Error, CustomStringConvertible, Sendable {
    /// The signal's number.
    public var signal: Int32

    /// The exit status a shell expects of a process that a signal stopped: 128 + its number.
    public var exitStatus: Int32 { 128 + signal }

    public var description: String {
        let name = [SIGINT: "SIGINT", SIGTERM: "SIGTERM", SIGHUP: "SIGHUP"][signal] ?? "signal \(signal)"
        return "interrupted (\(name)): nothing was written; the generated files and strata.lock are as they were"
    }
}
