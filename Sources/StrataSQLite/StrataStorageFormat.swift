import GRDB

/// The table recording how a database stores values: `strata_storage(model, date_format,
/// since_version)`, one row per model.
///
/// `date_format` is a ``SQLiteDateFormat`` raw value (2: REAL seconds since 2001-01-01 UTC);
/// `since_version` is the version the database was at when it took that format: 0 for a database
/// created by Strata 0.5 or later, N for one written by Strata 0.5 or earlier whose Dates were
/// converted at version N. A database with a ledger but no row here was written by Strata 0.5 or
/// earlier: its Dates are seconds since 1970, and its ledger holds those versions' checksums.
///
/// The row is written in the same transaction as the first migration of a new database, or as the
/// conversion of an old one, so a database is converted at most once.
public enum StrataStorageFormat {
    /// The table's name.
    public static let tableName = "strata_storage"

    static let createSQL = """
        CREATE TABLE IF NOT EXISTS "strata_storage" (
            "model" TEXT NOT NULL PRIMARY KEY,
            "date_format" INTEGER NOT NULL,
            "since_version" INTEGER NOT NULL
        )
        """

    /// What the table records for one model.
    public struct Marker: Hashable, Sendable {
        /// How the model's Date columns are stored.
        public var dateFormat: SQLiteDateFormat
        /// The version the database was at when it took `dateFormat` (0: created in it).
        public var sinceVersion: Int

        /// Creates a marker.
        public init(dateFormat: SQLiteDateFormat, sinceVersion: Int) {
            self.dateFormat = dateFormat
            self.sinceVersion = sinceVersion
        }
    }

    /// The marker of `model`, or nil when the database has none.
    ///
    /// Read defensively, like the ledger: a value of another type than Strata writes throws
    /// ``StrataMigrationError/unreadableStorageFormat(row:column:found:)``, a format this runtime
    /// does not know ``StrataMigrationError/unknownDateFormat(model:found:)``.
    public static func marker(model: String, _ db: Database) throws -> Marker? {
        let exists = try Bool.fetchOne(
            db, sql: "SELECT EXISTS (SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?)", arguments: [tableName])
        guard exists == true else { return nil }
        let row: Row?
        do {
            row = try Row.fetchOne(
                db, sql: #"SELECT rowid, "date_format", "since_version" FROM "strata_storage" WHERE "model" = ?"#,
                arguments: [model])
        } catch let error as DatabaseError where error.resultCode == .SQLITE_ERROR {
            throw StrataMigrationError.unreadableStorageFormatTable(reason: error.message ?? "\(error)")
        }
        guard let row else { return nil }
        let rowID = MigrationLedger.rowID(row)
        func integer(_ index: Int, _ column: String) throws -> Int64 {
            let value: DatabaseValue = row[index]
            guard case .int64(let number) = value.storage else {
                throw StrataMigrationError.unreadableStorageFormat(
                    row: rowID, column: column, found: MigrationLedger.describe(value))
            }
            return number
        }
        let formatNumber = try integer(1, "date_format")
        let sinceNumber = try integer(2, "since_version")
        guard let rawFormat = Int(exactly: formatNumber), let format = SQLiteDateFormat(rawValue: rawFormat) else {
            throw StrataMigrationError.unknownDateFormat(model: model, found: formatNumber)
        }
        guard let since = Int(exactly: sinceNumber), since >= 0 else {
            throw StrataMigrationError.unreadableStorageFormat(
                row: rowID, column: "since_version", found: "the integer \(sinceNumber)")
        }
        return Marker(dateFormat: format, sinceVersion: since)
    }

    /// Records that `model` stores Dates in ``SQLiteDateFormat/current`` since `version`,
    /// replacing what was recorded.
    static func record(model: String, sinceVersion version: Int, _ db: Database) throws {
        try db.execute(sql: createSQL)
        try db.execute(
            sql: #"INSERT OR REPLACE INTO "strata_storage" ("model", "date_format", "since_version") VALUES (?, ?, ?)"#,
            arguments: [model, SQLiteDateFormat.current.rawValue, version])
    }
}
