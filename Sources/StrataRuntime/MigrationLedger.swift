import Foundation

/// The table recording which versions of a model a database has applied.
///
/// `strata_migrations(model, version, checksum, applied_at)`: one row per applied version, written
/// in the same transaction as the version's SQL.
public enum MigrationLedger {
    /// The ledger table's name.
    public static let tableName = "strata_migrations"

    static let createSQL = """
        CREATE TABLE IF NOT EXISTS "strata_migrations" (
            "model" TEXT NOT NULL,
            "version" INTEGER NOT NULL,
            "checksum" TEXT NOT NULL,
            "applied_at" REAL NOT NULL,
            PRIMARY KEY ("model", "version")
        )
        """

    /// Every recorded migration, ordered by version (empty when the database has no ledger).
    public static func entries(_ db: Database) throws -> [AppliedStrataMigration] {
        guard try db.tableExists(tableName) else { return [] }
        let rows = try Row.fetchAll(
            db,
            sql: """
                SELECT "model", "version", "checksum", "applied_at" FROM "strata_migrations"
                ORDER BY "version", "model"
                """
        )
        return try rows.map { row in
            guard
                let model = row[0] as String?, let version = row[1] as Int?, let checksum = row[2] as String?,
                let appliedAt = row[3] as Double?
            else {
                throw DatabaseError(message: "the table strata_migrations holds a row with NULL values")
            }
            return AppliedStrataMigration(model: model, version: version, checksum: checksum, appliedAt: appliedAt)
        }
    }

    static func create(_ db: Database) throws {
        try db.execute(sql: createSQL)
    }

    static func record(_ migration: StrataMigration, model: String, _ db: Database) throws {
        try db.execute(
            sql: """
                INSERT INTO "strata_migrations" ("model", "version", "checksum", "applied_at") VALUES (?, ?, ?, ?)
                """,
            arguments: [model, migration.version, migration.checksum, Date().timeIntervalSince1970]
        )
    }
}
