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
        return try rows.enumerated().map { offset, row in
            let number = offset + 1
            return AppliedStrataMigration(
                model: try text(row[0], row: number, column: "model"),
                version: try version(row[1], row: number),
                checksum: try text(row[2], row: number, column: "checksum"),
                appliedAt: try timestamp(row[3], row: number)
            )
        }
    }

    // MARK: Reading values defensively

    /// The ledger is data from a file: every value is checked for its type and range rather than
    /// converted with a subscript that traps on a mismatch.
    private static func text(_ value: DatabaseValue, row: Int, column: String) throws -> String {
        guard case .string(let string) = value.storage else {
            throw malformed(row: row, column: column, value: value, expected: "text")
        }
        return string
    }

    private static func version(_ value: DatabaseValue, row: Int) throws -> Int {
        guard case .int64(let integer) = value.storage, integer >= 1, integer <= Int64(Int32.max) else {
            throw malformed(row: row, column: "version", value: value, expected: "a positive integer")
        }
        return Int(integer)
    }

    private static func timestamp(_ value: DatabaseValue, row: Int) throws -> Double {
        switch value.storage {
        case .int64(let integer): return Double(integer)
        case .double(let double) where double.isFinite: return double
        default: throw malformed(row: row, column: "applied_at", value: value, expected: "a number of seconds")
        }
    }

    private static func malformed(row: Int, column: String, value: DatabaseValue, expected: String) -> StrataMigrationError {
        .malformedLedger(table: tableName, row: row, column: column, found: describe(value), expected: expected)
    }

    private static func describe(_ value: DatabaseValue) -> String {
        switch value.storage {
        case .null: return "NULL"
        case .int64(let integer): return "the integer \(integer)"
        case .double(let double): return "the real \(double)"
        case .string(let string):
            let shown = string.count > 40 ? String(string.prefix(40)) + "…" : string
            return "the text '\(shown)'"
        case .blob(let data): return "a blob of \(data.count) bytes"
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
