import Foundation
import StrataRuntime

/// The table recording which versions of a model a database has applied.
///
/// `strata_migrations(model, version, checksum, applied_at)`: one row per applied version, written
/// in the same transaction as the version's SQL.
public enum MigrationLedger {
    /// The ledger table's name.
    public static let tableName = StrataLedgerTable.name

    static let createSQL = StrataLedgerTable.createSQL(secondsType: "REAL")

    /// Every recorded migration, ordered by version (empty when the database has no ledger).
    ///
    /// The ledger is read defensively: it is data from a file, which any tool may have written. A
    /// value of another type than Strata writes (text for a version, a REAL version, a BLOB, NULL,
    /// a version outside `Int`) throws ``StrataMigrationError/unreadableLedger(row:column:found:)``
    /// naming the row and column; nothing is written before the ledger has been read.
    public static func entries(_ db: Database) throws -> [AppliedStrataMigration] {
        // Asked of SQLite, not GRDB's schema cache: another process may have created the ledger since
        // this connection last looked (two `strata migrate` started together).
        let exists = try Bool.fetchOne(
            db, sql: "SELECT EXISTS (SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?)", arguments: [tableName])
        guard exists == true else { return [] }
        let rows: [Row]
        do {
            rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT rowid, "model", "version", "checksum", "applied_at" FROM "strata_migrations"
                    ORDER BY "version", "model"
                    """
            )
        } catch let error as DatabaseError where error.resultCode == .SQLITE_ERROR {
            throw StrataMigrationError.unreadableLedgerTable(reason: error.message ?? "\(error)")
        }
        return try rows.map { row in
            let rowID = Self.rowID(row)
            func text(_ index: Int, _ column: String) throws -> String {
                let value: DatabaseValue = row[index]
                guard case .string(let text) = value.storage else {
                    throw StrataMigrationError.unreadableLedger(row: rowID, column: column, found: describe(value))
                }
                return text
            }
            let versionValue: DatabaseValue = row[2]
            guard case .int64(let number) = versionValue.storage, let version = Int(exactly: number) else {
                throw StrataMigrationError.unreadableLedger(row: rowID, column: "version", found: describe(versionValue))
            }
            let appliedValue: DatabaseValue = row[4]
            let appliedAt: Double
            switch appliedValue.storage {
            case .double(let seconds) where seconds.isFinite: appliedAt = seconds
            case .int64(let seconds): appliedAt = Double(seconds)
            default:
                throw StrataMigrationError.unreadableLedger(row: rowID, column: "applied_at", found: describe(appliedValue))
            }
            return AppliedStrataMigration(
                model: try text(1, "model"), version: version, checksum: try text(3, "checksum"), appliedAt: appliedAt)
        }
    }

    /// The rowid a defensive read selected first (`SELECT rowid, …`), for messages; 0 if it is not an integer.
    static func rowID(_ row: Row) -> Int64 {
        if case .int64(let value) = (row[0] as DatabaseValue).storage { return value }
        return 0
    }

    /// A stored value, for messages: its type, and the value when it is short.
    static func describe(_ value: DatabaseValue) -> String {
        switch value.storage {
        case .null: return "NULL"
        case .int64(let number): return "the integer \(number)"
        case .double(let number): return "the real \(number)"
        case .string(let text): return text.count <= 40 ? "the text '\(text)'" : "a text of \(text.count) characters"
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
