/// What ``StrataMigrator/migrate(_:to:progress:)`` reports while it migrates, version by version.
public enum StrataMigrationProgress: Sendable {
    /// The migration is about to run: the `position`-th of `count` pending ones.
    case willApply(StrataMigration, position: Int, count: Int)
    /// The migration was applied and committed, in `duration`.
    case didApply(StrataMigration, duration: Duration)
}
