import PostgresNIO
import StrataRuntime

extension PostgresMigrator {
    /// The migrations ``baseline(_:at:to:checkSchema:waiting:progress:)`` would record, read
    /// without writing: versions 1...`version`. Throws a ``StrataMigrationError`` for a database
    /// whose ledger records anything, or a version that is not one of the model's.
    public func baselineMigrations(_ connection: PostgresConnection, at version: Int) async throws
        -> [StrataMigration]
    {
        try plan.baseline(await PostgresMigrationLedger.entries(connection, logger: logger), at: version)
    }

    /// Records versions 1...`version` as applied to a database created without Strata, running
    /// none of their SQL, then applies the migrations after it up to `target` (default: the
    /// latest) as ``migrate(_:to:waiting:progress:)`` does, holding the model's migration lock
    /// across both.
    ///
    /// The baseline is one transaction: the ledger is checked to be empty, `checkSchema` is
    /// called (it throws when the database's schema is not that version's), then the ledger rows
    /// are written as a migration writes them, with the same checksums. Anything thrown rolls it
    /// back: nothing is written. A later version that fails leaves the baseline recorded.
    ///
    /// - Returns: the versions recorded, and those applied after them.
    public func baseline(
        _ connection: PostgresConnection, at version: Int, to target: Int? = nil,
        checkSchema: () async throws -> Void, waiting: @Sendable () -> Void = {},
        progress: (StrataMigrationProgress) throws -> Void = { _ in }
    ) async throws -> (recorded: [StrataMigration], applied: [StrataMigration]) {
        try await locked(connection, waiting: waiting) {
            try await run("BEGIN", connection)
            let recorded: [StrataMigration]
            do {
                recorded = try await baselineMigrations(connection, at: version)
                try await checkSchema()
                try await PostgresMigrationLedger.create(connection, logger: logger)
                for migration in recorded {
                    try await PostgresMigrationLedger.record(migration, model: model, connection, logger: logger)
                }
                try await run("COMMIT", connection)
            } catch {
                try? await run("ROLLBACK", connection)
                throw error
            }
            return (recorded, try await migrateLocked(connection, to: target, progress: progress))
        }
    }
}
