/// The migration ledger's table, the same on every database: `strata_migrations(model, version,
/// checksum, applied_at)` with the primary key `(model, version)`, one row per applied version.
/// `applied_at` holds seconds since 1970, in the database's floating-point type.
public enum StrataLedgerTable {
    /// The table's name.
    public static let name = "strata_migrations"

    /// `CREATE TABLE IF NOT EXISTS` of the ledger, with `applied_at` of type `secondsType`
    /// (`REAL` on SQLite, `DOUBLE PRECISION` on PostgreSQL).
    public static func createSQL(secondsType: String) -> String {
        """
        CREATE TABLE IF NOT EXISTS "strata_migrations" (
            "model" TEXT NOT NULL,
            "version" INTEGER NOT NULL,
            "checksum" TEXT NOT NULL,
            "applied_at" \(secondsType) NOT NULL,
            PRIMARY KEY ("model", "version")
        )
        """
    }
}
