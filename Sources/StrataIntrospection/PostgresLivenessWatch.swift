import Foundation
import PostgresNIO
import StrataPostgres

/// Notices a server that went silent under a session: while the session works, a second,
/// short connection asks the server every `interval` whether the session's backend is still
/// there. A long statement sends nothing until it ends, so the session's own connection cannot
/// tell a busy server from a dead or unreachable one (a stopped network, a hung proxy); the
/// second connection can. After `failures` probes in a row that could not reach the server (a
/// server that answers with an error, such as too many connections, is alive), or one that finds
/// the backend gone, the session's connection is closed, which makes the
/// statement waiting on it fail (``PostgresConnection/strataRows(_:logger:)``), and
/// ``lostReason`` says why.
public final class PostgresLivenessWatch: Sendable {
    private let task: Task<Void, Never>
    private let reason: LockedReason

    /// How often the server is asked, how long one probe may take, and how many failed probes
    /// in a row mean the server is lost: what `strata migrate --postgres` uses (a silent server
    /// is noticed within about 15 s).
    public struct Timing: Sendable {
        /// The pause between probes.
        public var interval: Duration = .seconds(3)
        /// The time one probe (connecting included) may take.
        public var probeTimeout: Duration = .seconds(4)
        /// The failed probes in a row that mean the server is lost.
        public var failures = 2

        /// The default timing.
        public init() {}
    }

    /// Starts watching the session `session`, whose backend process is `backendPID`.
    public init(_ session: PostgresSession, backendPID: Int, timing: Timing = Timing()) {
        let reason = LockedReason()
        self.reason = reason
        let probeURL = {
            var url = session.url
            url.connectTimeout = max(1, Int(timing.probeTimeout.components.seconds))
            return url
        }()
        let connection = session.connection
        task = Task {
            var failed = 0
            while !Task.isCancelled {
                do { try await Task.sleep(for: timing.interval) } catch { return }
                let found: Bool
                do {
                    found = try await withStrataDeadline(timing.probeTimeout, waitingFor: "a probe of the server") {
                        try await Self.probe(probeURL, backendPID: backendPID)
                    }
                    failed = 0
                } catch let error as PostgresSessionError where error.sqlState != nil {
                    // The server answered (too many connections, a refused login): it is alive.
                    failed = 0
                    continue
                } catch {
                    if Task.isCancelled { return }
                    failed += 1
                    guard failed >= timing.failures else { continue }
                    reason.set(
                        "the server stopped answering: \(failed) probes in a row failed (the last: "
                            + PostgresServerMessage(error).oneLine + ")")
                    try? await connection.close()
                    return
                }
                if !found && !Task.isCancelled {
                    reason.set("the server ended this session (its backend process \(backendPID) is gone)")
                    try? await connection.close()
                    return
                }
            }
        }
    }

    /// Why the watch closed the connection, once it did.
    public var lostReason: String? { reason.get() }

    /// Stops watching.
    public func stop() { task.cancel() }

    /// True when the server answers on a new connection and still has the backend `backendPID`.
    private static func probe(_ url: PostgresURL, backendPID: Int) async throws -> Bool {
        let probe = try await PostgresSession.connect(to: url)
        defer { Task { try? await probe.close() } }
        let rows = try await probe.textRows(
            sql: "SELECT count(*)::text FROM pg_stat_activity WHERE pid = \(backendPID)")
        return rows.first?.first == "1"
    }

    /// The reason, set once, read from any thread.
    private final class LockedReason: @unchecked Sendable {
        private let lock = NSLock()
        private var value: String?
        func set(_ text: String) { lock.withLock { if value == nil { value = text } } }
        func get() -> String? { lock.withLock { value } }
    }
}
