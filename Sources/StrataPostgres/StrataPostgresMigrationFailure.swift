/// A version whose SQL failed on PostgreSQL. Its transaction was rolled back when
/// ``rolledBack`` is true, leaving the database at the previous version; when the connection was
/// lost instead, the server rolls back the transaction it never saw committed, but this client
/// could not confirm it.
public struct StrataPostgresMigrationFailure: Error, CustomStringConvertible, Sendable {
    /// The model being migrated.
    public var model: String
    /// The version that failed.
    public var version: Int
    /// The statement that failed, when one did (nil when the transaction itself failed).
    public var statement: String?
    /// The server's message (or the client error), with its SQLSTATE.
    public var message: PostgresServerMessage
    /// True when `ROLLBACK` succeeded: nothing of the version remains.
    public var rolledBack: Bool
    /// When the version gave up waiting for locks: its last wait (the time waited in all, and the
    /// sessions that held the locks).
    public var lockWait: StrataLockWait?
    /// What the version's leading steps made that could not be removed again (another session
    /// held the table): left for the next run, which takes it as done.
    public var leftBehind: [String]
    /// When a statement in a transaction was cancelled for holding its locks longer than the
    /// budget allows (``PostgresLockBudget/holdLimit``): that limit.
    public var holdLimit: Duration?

    /// Creates the failure.
    public init(
        model: String, version: Int, statement: String?, message: PostgresServerMessage, rolledBack: Bool,
        lockWait: StrataLockWait? = nil, leftBehind: [String] = []
    ) {
        self.model = model
        self.version = version
        self.statement = statement
        self.message = message
        self.rolledBack = rolledBack
        self.lockWait = lockWait
        self.leftBehind = leftBehind
    }

    public var description: String {
        let outcome =
            rolledBack
            ? "v\(version) was rolled back; the database is at the previous version"
            : "the connection was lost, so the rollback of v\(version) could not be confirmed"
        let reason =
            lockWait.map {
                "gave up waiting for locks after \($0.attempt) attempt\($0.attempt == 1 ? "" : "s") and \($0.waitedDescription) in all, "
                    + $0.holdersDescription
            } ?? message.description.replacingOccurrences(of: "\n", with: "; ")
                + (holdLimit.map {
                    "; the statement held locks that block the application's writes longer than the hold limit ("
                        + "\(PostgresLockBudget.milliseconds($0)) ms, `--lock-hold-limit`): run it in a quieter moment "
                        + "with a higher limit"
                } ?? "")
        let left =
            leftBehind.isEmpty
            ? "" : "; left for the next run, which takes it as done: " + leftBehind.joined(separator: ", ")
        let text = "migrating \(model) to v\(version) failed and \(outcome): " + reason + left
        guard let statement else { return text }
        let firstLine = statement.split(separator: "\n").first { !$0.hasPrefix("--") }.map(String.init) ?? statement
        let shown = firstLine.count <= 120 ? firstLine : String(firstLine.prefix(117)) + "..."
        return text + " (in: \(shown))"
    }
}
