import StrataChecksum

/// The names of the constraints Strata declares. Every constraint is named explicitly, the way
/// PostgreSQL would name it (`<table>_pkey`, `<table>_<column>_key`, `_fkey`, `_check`), so that
/// the names are the same in both dialects, predictable for migrations (a renamed table renames
/// its constraints) and comparable by verification.
public enum SQLConstraintName {
    /// PostgreSQL's identifier limit, in bytes; longer names would be truncated silently.
    public static let maximumBytes = 63

    /// The primary key of a table: `<table>_pkey`.
    public static func primaryKey(table: String) -> String {
        fitted(base: table, suffix: "pkey")
    }

    /// A single-column unique constraint: `<table>_<column>_key`.
    public static func unique(table: String, column: String) -> String {
        fitted(base: "\(table)_\(column)", suffix: "key")
    }

    /// A foreign key: `<table>_<column>_fkey`.
    public static func foreignKey(table: String, column: String) -> String {
        fitted(base: "\(table)_\(column)", suffix: "fkey")
    }

    /// A check of a column's values (enum raw values, SQLite booleans): `<table>_<column>_check`.
    public static func check(table: String, column: String) -> String {
        fitted(base: "\(table)_\(column)", suffix: "check")
    }

    /// The check that stands for `NOT NULL` while a backfilled column is validated
    /// (PostgreSQL): `<table>_<column>_not_null`, dropped once the column is `NOT NULL`.
    public static func notNull(table: String, column: String) -> String {
        fitted(base: "\(table)_\(column)", suffix: "not_null")
    }

    /// The trigger, and its function, that keeps a table's backfilled columns in step while
    /// their batches run (PostgreSQL): `<table>_strata_backfill`.
    public static func backfillTrigger(table: String) -> String {
        fitted(base: table, suffix: "strata_backfill")
    }

    /// `<base>_<suffix>`, or when that exceeds ``maximumBytes``, the longest prefix of `base`
    /// that fits (cut at a character boundary) followed by 8 hex digits of the SHA-256 of
    /// `base`, so that distinct long names stay distinct and the result is deterministic.
    public static func fitted(base: String, suffix: String) -> String {
        let whole = "\(base)_\(suffix)"
        guard whole.utf8.count > maximumBytes else { return whole }
        let hash = String(SHA256.hex(base).prefix(8))
        let budget = maximumBytes - hash.utf8.count - suffix.utf8.count - 2
        var prefix = ""
        for character in base {
            guard prefix.utf8.count + character.utf8.count <= budget else { break }
            prefix.append(character)
        }
        return "\(prefix)_\(hash)_\(suffix)"
    }
}
