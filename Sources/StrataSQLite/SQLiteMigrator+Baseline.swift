import GRDB
import StrataRuntime

extension SQLiteMigrator {
    /// The migrations ``baseline(_:at:checkSchema:)`` would record, read without writing: versions
    /// 1...`version`. Throws a ``StrataMigrationError`` for a database whose ledger records
    /// anything, or a version that is not one of the model's.
    public func baselineMigrations(_ db: Database, at version: Int) throws -> [StrataMigration] {
        try plan.baseline(try MigrationLedger.entries(db), at: version)
    }

    /// Records versions 1...`version` as applied to a database created without Strata, running
    /// none of their SQL, and returns them.
    ///
    /// In one immediate transaction: the ledger is checked to be empty, `checkSchema` is called
    /// (it throws when the database's schema is not that version's), then the ledger rows are
    /// written as ``migrate(_:to:progress:)`` writes them, with the same checksums, and the
    /// storage format marker as a new database gets it (Dates in ``SQLiteDateFormat/current``
    /// since version 0). Anything thrown rolls it all back: nothing is written.
    @discardableResult
    public func baseline(
        _ writer: some DatabaseWriter, at version: Int, checkSchema: (Database) throws -> Void
    ) throws -> [StrataMigration] {
        try writer.writeWithoutTransaction { db in
            var recorded: [StrataMigration] = []
            try db.inTransaction(.immediate) {
                recorded = try baselineMigrations(db, at: version)
                try checkSchema(db)
                try MigrationLedger.create(db)
                try StrataStorageFormat.record(model: model, sinceVersion: 0, db)
                for migration in recorded { try MigrationLedger.record(migration, model: model, db) }
                return .commit
            }
            return recorded
        }
    }
}
