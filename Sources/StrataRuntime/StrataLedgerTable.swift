/// The migration ledger's table, the same on every database: `strata_migrations(model, version,
/// checksum, applied_at, compatible_from, incompatibility)` with the primary key `(model, version)`,
/// one row per applied version. `applied_at` holds seconds since 1970, in the database's
/// floating-point type; `compatible_from` the oldest code version that can run against the
/// database at that version, `incompatibility` why the code before it cannot (both NULL in rows
/// written before Strata 0.6.0 recorded them).
public enum StrataLedgerTable {
    /// The table's name.
    public static let name = "strata_migrations"

    /// The columns added after the table's first shape, each with its type: a ledger created
    /// before them gets them (``addColumnSQL(_:)``) when the next version is recorded.
    public static let addedColumns: [(name: String, type: String)] = [
        ("compatible_from", "INTEGER"), ("incompatibility", "TEXT"),
    ]

    /// `CREATE TABLE IF NOT EXISTS` of the ledger, with `applied_at` of type `secondsType`
    /// (`REAL` on SQLite, `DOUBLE PRECISION` on PostgreSQL).
    public static func createSQL(secondsType: String) -> String {
        """
        CREATE TABLE IF NOT EXISTS "strata_migrations" (
            "model" TEXT NOT NULL,
            "version" INTEGER NOT NULL,
            "checksum" TEXT NOT NULL,
            "applied_at" \(secondsType) NOT NULL,
            "compatible_from" INTEGER,
            "incompatibility" TEXT,
            PRIMARY KEY ("model", "version")
        )
        """
    }

    /// `ALTER TABLE … ADD COLUMN` of one of ``addedColumns`` (nullable: the rows already there
    /// keep NULL).
    public static func addColumnSQL(_ column: (name: String, type: String)) -> String {
        "ALTER TABLE \"strata_migrations\" ADD COLUMN \"\(column.name)\" \(column.type)"
    }
}
