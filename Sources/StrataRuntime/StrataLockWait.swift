/// A version that could not get a table's lock within the lock timeout: it was rolled back, and
/// the migrator tries it again after ``retryIn`` (``StrataMigrationProgress/waitingForLock(_:_:)``),
/// or gives up once the run has waited its whole limit.
public struct StrataLockWait: Sendable, Equatable {
    /// The attempt that timed out (1 for the first).
    public var attempt: Int
    /// How long the migrator waits before the next attempt (jittered, growing with each attempt).
    public var retryIn: Duration
    /// The time spent waiting for locks so far in this version: timeouts and pauses together.
    public var waited: Duration
    /// The sessions that held locks on the statement's tables when it timed out.
    public var holders: [StrataLockHolder]
    /// The statement that timed out.
    public var statement: String
    /// What the migrator did about holders that were all autovacuum (nil when they were not).
    public var autovacuum: AutovacuumAction?

    /// What a migrator does when only autovacuum held the locks.
    public enum AutovacuumAction: Sendable, Equatable {
        /// It cancelled the autovacuum pass (`pg_cancel_backend`, which its role was allowed).
        case cancelled
        /// Its next attempt waits past the server's `deadlock_timeout`, after which PostgreSQL
        /// cancels the pass itself.
        case outwaited(Duration)
    }

    /// Creates the description of a wait.
    public init(attempt: Int, retryIn: Duration, waited: Duration, holders: [StrataLockHolder], statement: String) {
        self.attempt = attempt
        self.retryIn = retryIn
        self.waited = waited
        self.holders = holders
        self.statement = statement
    }

    /// Who holds the locks, e.g. `held by pid 4242 (idle in transaction for 3.1 s, AccessShareLock
    /// on todo_item, query: SELECT …)`, holders joined with "; " (or that they were gone when read).
    public var holdersDescription: String {
        holders.isEmpty
            ? "the sessions holding them had ended when they were read"
            : "held by " + holders.map(\.description).joined(separator: "; ")
    }

    /// `3.1 s`: the time waited in all, with one decimal.
    public var waitedDescription: String { StrataLockHolder.seconds(waited) }
}

/// Another session holding a lock that a migration statement waited for.
public struct StrataLockHolder: Sendable, Equatable, CustomStringConvertible {
    /// The server process of the session (PostgreSQL's `pid`).
    public var pid: Int
    /// The session's state: `active`, `idle in transaction`, ….
    public var state: String
    /// How long its transaction (or, outside one, its query) has been running, when known.
    public var age: Duration?
    /// The start of its current or last query, on one line.
    public var query: String
    /// The table it holds a lock on.
    public var table: String
    /// The lock it holds, e.g. `AccessShareLock`.
    public var mode: String
    /// The kind of server process (`pg_stat_activity.backend_type`), e.g. `client backend` or
    /// `autovacuum worker`; for a session of a role whose activity this one may not read (such as
    /// autovacuum's, to a role without `pg_read_all_stats`), `vacuum` when `pg_stat_progress_vacuum`
    /// lists it, else empty.
    public var backendType: String

    /// Creates a holder.
    public init(
        pid: Int, state: String, age: Duration?, query: String, table: String, mode: String, backendType: String = ""
    ) {
        self.pid = pid
        self.state = state
        self.age = age
        self.query = query
        self.table = table
        self.mode = mode
        self.backendType = backendType
    }

    /// True for PostgreSQL's autovacuum working on the table, which the server cancels itself
    /// once a conflicting lock request has waited `deadlock_timeout` (not one run to prevent
    /// transaction ID wraparound, which it never cancels; a role that may not read the worker's
    /// query cannot tell, and waits as for any autovacuum).
    public var isCancellableAutovacuum: Bool {
        ["autovacuum worker", "vacuum"].contains(backendType) || query.hasPrefix("autovacuum:")
            ? !query.contains("to prevent wraparound") : false
    }

    /// E.g. `pid 4242 (idle in transaction for 3.1 s, AccessShareLock on todo_item, query: SELECT …)`.
    public var description: String {
        let since = age.map { " for \(Self.seconds($0))" } ?? ""
        return "pid \(pid) (\(state.isEmpty ? "unknown state" : state)\(since), \(mode) on \(table)"
            + (query.isEmpty ? ")" : ", query: \(query))")
    }

    /// `3.1 s`: a duration in seconds with one decimal.
    static func seconds(_ duration: Duration) -> String {
        let tenths = (duration.components.seconds * 10) + duration.components.attoseconds / 100_000_000_000_000_000
        return "\(tenths / 10).\(tenths % 10) s"
    }
}
