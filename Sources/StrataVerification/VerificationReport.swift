import StrataCore

/// What `strata verify` checked for one model on one database, and every difference it found.
public struct VerificationReport: Sendable {
    /// The model.
    public var model: String
    /// The database dialect.
    public var dialect: SQLDialect
    /// The version the chain ended at.
    public var latestVersion: Int
    /// Tables compared between the migrated and the fresh database.
    public var tablesCompared = 0
    /// Rows written at version 1, per table.
    public var rowsSeeded: [(table: String, count: Int)] = []
    /// Rows followed through a migration step (summed over steps).
    public var rowsFollowed = 0
    /// Values compared with what the step should have stored.
    public var valuesCompared = 0
    /// Differences between the migrated schema and the fresh one, and between the fresh one and the model.
    public var schemaDifferences: [String] = []
    /// Rows or values that did not survive as they should.
    public var dataProblems: [String] = []
    /// What was not compared, and why.
    public var notes: [String] = []
    /// Named queries prepared on the fresh database (PostgreSQL only: SQLite checks them when
    /// generating).
    public var queriesPrepared = 0
    /// The named queries that do not run on this database, each with the server's message. They
    /// do not fail verification: their functions are generated for SQLite only.
    public var queryProblems: [String] = []

    /// True when nothing differs.
    public var passed: Bool { schemaDifferences.isEmpty && dataProblems.isEmpty }

    /// The report as lines for people.
    public var lines: [String] {
        var lines = [
            "\(model) on \(dialect.displayName): v1 -> v\(latestVersion) "
                + (passed ? "ok" : "FAILED (\(schemaDifferences.count) schema, \(dataProblems.count) data differences)"),
            "  schema: chain of migrations v1…v\(latestVersion) compared with a fresh v\(latestVersion): \(tablesCompared) tables",
            "  data: \(rowsSeeded.map(\.count).reduce(0, +)) rows seeded at v1 ("
                + rowsSeeded.map { "\($0.table) \($0.count)" }.joined(separator: ", ")
                + "); \(rowsFollowed) rows and \(valuesCompared) values followed through \(max(0, latestVersion - 1)) migrations",
        ]
        if queriesPrepared > 0 {
            lines.append("  queries: \(queriesPrepared) named queries prepared, \(queryProblems.count) do not run here")
        }
        lines += notes.map { "  note: \($0)" }
        lines += queryProblems.map { "  query: \($0)" }
        lines += schemaDifferences.map { "  schema difference: \($0)" }
        lines += dataProblems.map { "  data difference: \($0)" }
        return lines
    }
}
