/// What `SQLiteMigrator.migrate(_:to:progress:)` reports while it migrates: each version before
/// and after it runs, and each of its statements as it starts (so a caller can tell which table
/// a long rebuild is copying).
public enum StrataMigrationProgress: Sendable {
    /// The migration is about to run: the `position`-th of `count` pending ones.
    case willApply(StrataMigration, position: Int, count: Int)
    /// One statement of the migration is about to run (its SQL, as in the migration).
    case willRun(StrataMigration, statement: String)
    /// The migration was applied and committed, in `duration`.
    case didApply(StrataMigration, duration: Duration)
    /// The Dates of a database written by Strata 0.5 or earlier were converted to seconds since
    /// 2001 and committed, in `duration`, before any pending migration.
    case didConvertDates(StrataDateConversion, duration: Duration)
    /// A statement of the migration waited longer than the lock timeout for a lock other sessions
    /// hold (PostgreSQL): the version was rolled back and is tried again after `wait.retryIn`.
    case waitingForLock(StrataMigration, StrataLockWait)
    /// A batch of a backfill was committed (PostgreSQL): about `rows` rows of `table` filled so
    /// far by this run.
    case filledRows(StrataMigration, table: String, rows: Int)
    /// Autovacuum was working on tables the migration is about to lock (PostgreSQL): its pass
    /// was cancelled (it starts again later), so that the migration's statements do not queue
    /// behind it, and the application's behind them.
    case cancelledAutovacuum(StrataMigration, [StrataLockHolder])
    /// The contract of a rolling version (``StrataMigration/contract``, PostgreSQL) is about to
    /// run: what only code of the version before needed is dropped.
    case willContract(StrataMigration)
    /// The contract of a rolling version was committed, in `duration`: code of the version
    /// before no longer runs against the database.
    case didContract(StrataMigration, duration: Duration)
}
