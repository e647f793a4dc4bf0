/// How long a PostgreSQL migration may keep other sessions waiting behind its locks.
///
/// A DDL statement queued for a table's lock blocks every later reader and writer of that table
/// until it gets the lock, so a statement that waits is worse than one that fails: each
/// statement of a migration waits at most ``lockTimeout`` (PostgreSQL's `lock_timeout`). When it
/// times out, the version is rolled back, the migrator pauses (``pause(afterAttempt:random:)``,
/// growing and jittered, so that deployers started together do not retry in step) and tries the
/// version again, until the waits and pauses of that version add up to ``totalWait``; then the
/// version stays rolled back and the migration fails.
public struct PostgresLockBudget: Sendable, Equatable {
    /// The longest one statement waits for a lock (`lock_timeout`), e.g. 300 ms.
    public var lockTimeout: Duration
    /// The longest one version spends waiting for locks, across its attempts.
    public var totalWait: Duration
    /// The longest one statement may run inside a transaction of a migration, where it holds
    /// locks that make the application's writes (and, for most `ALTER TABLE`s, reads) wait:
    /// PostgreSQL cancels it (`SET LOCAL statement_timeout`) and the version is rolled back. Nil:
    /// no limit. Concurrent index builds, validations and backfill batches hold no such lock and
    /// are not limited.
    public var holdLimit: Duration?

    /// 300 ms per statement: an application's requests stall at most that long behind a
    /// migration that waits.
    public static let defaultLockTimeout: Duration = .milliseconds(300)
    /// 60 s of waiting in all before a version gives up.
    public static let defaultTotalWait: Duration = .seconds(60)
    /// 10 s: a statement that would hold a table longer (an `ALTER COLUMN … TYPE` rewriting a large
    /// table, an `UPDATE` of every row in the version's transaction) is cancelled rather than
    /// stall the application; raise it in a maintenance window.
    public static let defaultHoldLimit: Duration = .seconds(10)
    /// The defaults: ``defaultLockTimeout``, ``defaultTotalWait`` and ``defaultHoldLimit``.
    public static let `default` = PostgresLockBudget()

    /// Creates a budget.
    public init(
        lockTimeout: Duration = defaultLockTimeout, totalWait: Duration = defaultTotalWait,
        holdLimit: Duration? = defaultHoldLimit
    ) {
        self.lockTimeout = lockTimeout
        self.totalWait = totalWait
        self.holdLimit = holdLimit
    }

    /// The pause after the `attempt`-th timeout (1-based): 200 ms doubled at each attempt up to 5 s,
    /// times a factor from 0.5 to 1 drawn from `random` (a value in 0...1).
    public func pause(afterAttempt attempt: Int, random: Double) -> Duration {
        let base = Duration.milliseconds(200) * (1 << min(max(attempt - 1, 0), 5))
        let capped = min(base, .seconds(5))
        return capped * (0.5 + 0.5 * min(max(random, 0), 1))
    }

    /// `lock_timeout` as PostgreSQL reads it, in whole milliseconds (`'300ms'`); 0 means no limit.
    var setting: String { "'\(Self.milliseconds(lockTimeout))ms'" }

    /// The `SET LOCAL statement_timeout` that starts a transaction of the migration, or nil.
    var holdLimitStatement: String? {
        holdLimit.map { "SET LOCAL statement_timeout = '\(Self.milliseconds($0))ms'" }
    }

    static func milliseconds(_ duration: Duration) -> Int64 {
        duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
    }
}
