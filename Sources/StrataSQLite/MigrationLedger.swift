import Foundation
import GRDB
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
        let added = try addedColumns(db)
        // A ledger from before the added columns lacks them: they read as NULL.
        let extra = StrataLedgerTable.addedColumns.map { added.contains($0.name) ? "\"\($0.name)\"" : "NULL" }
        do {
            rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT rowid, "model", "version", "checksum", "applied_at", \(extra.joined(separator: ", "))
                    FROM "strata_migrations" ORDER BY "version", "model"
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
            let compatibleValue: DatabaseValue = row[5]
            let compatibleFrom: Int?
            switch compatibleValue.storage {
            case .null: compatibleFrom = nil
            case .int64(let number) where Int(exactly: number) != nil: compatibleFrom = Int(number)
            default:
                throw StrataMigrationError.unreadableLedger(
                    row: rowID, column: "compatible_from", found: describe(compatibleValue))
            }
            let reasonValue: DatabaseValue = row[6]
            let incompatibility: String?
            switch reasonValue.storage {
            case .null: incompatibility = nil
            case .string(let text): incompatibility = text
            default:
                throw StrataMigrationError.unreadableLedger(
                    row: rowID, column: "incompatibility", found: describe(reasonValue))
            }
            return AppliedStrataMigration(
                model: try text(1, "model"), version: version, checksum: try text(3, "checksum"), appliedAt: appliedAt,
                compatibleFrom: compatibleFrom, incompatibility: incompatibility)
        }
    }

    /// Which of ``StrataLedgerTable/addedColumns`` the ledger table has.
    private static func addedColumns(_ db: Database) throws -> Set<String> {
        let names = try String.fetchAll(db, sql: "SELECT name FROM pragma_table_info(?)", arguments: [tableName])
        return Set(names).intersection(StrataLedgerTable.addedColumns.map(\.name))
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

    /// Creates the ledger when missing, and adds the columns a ledger from before them lacks
    /// (inside the version's transaction, as the rest of it).
    static func create(_ db: Database) throws {
        try db.execute(sql: createSQL)
        let added = try addedColumns(db)
        for column in StrataLedgerTable.addedColumns where !added.contains(column.name) {
            try db.execute(sql: StrataLedgerTable.addColumnSQL(column))
        }
    }

    static func record(_ migration: StrataMigration, model: String, _ db: Database) throws {
        try db.execute(
            sql: """
                INSERT INTO "strata_migrations" ("model", "version", "checksum", "applied_at", "compatible_from", \
                "incompatibility") VALUES (?, ?, ?, ?, ?, ?)
                """,
            arguments: [
                model, migration.version, migration.checksum, Date().timeIntervalSince1970,
                migration.recordedCompatibleFrom, migration.incompatibility,
            ]
        )
    }
}
