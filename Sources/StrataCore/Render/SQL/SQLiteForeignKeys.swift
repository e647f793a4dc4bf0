import StrataChecksum

/// SQLite migration files that need foreign keys off: those that drop a table (a rebuild, or an
/// entity removed). With foreign keys on, dropping a table deletes its rows first, checking
/// every reference to them, and statements on a table whose parent is momentarily gone fail
/// ("no such table: main.writer").
///
/// Such a file starts with ``offStatement`` and says in its header why, and what to run after it.
/// `PRAGMA foreign_keys` does nothing inside a transaction, so the file can ensure it only when
/// applied outside one (`sqlite3 app.db < v3.sql`, or a connection in autocommit mode);
/// `SQLiteMigrator` switches foreign keys off itself before its transaction, and checks them
/// with `PRAGMA foreign_key_check` before committing.
enum SQLiteForeignKeys {
    /// The statement that switches foreign keys off, as it stands on its own line in the file
    /// (the ledger checksum does not count this line).
    static let offStatement = MigrationChecksum.foreignKeysOff

    /// True when the statements drop a table.
    static func needOff(_ statements: [SQLStatement]) -> Bool {
        statements.contains { statement in
            if case .dropTable = statement.kind { return true }
            return false
        }
    }

    /// The header lines (without the comment marker) of a file that needs foreign keys off.
    static func headerLines(version: Int) -> [String] {
        [
            "",
            "Foreign keys must be off while this migration runs: it drops and rebuilds tables.",
            "It starts with PRAGMA foreign_keys = OFF, which SQLite ignores inside a transaction:",
            "apply it outside one (sqlite3 app.db < v\(version).sql), or switch foreign keys off",
            "before BEGIN. Afterwards run PRAGMA foreign_key_check (it must return no rows), then",
            "PRAGMA foreign_keys = ON where you use them. SQLiteMigrator and `strata migrate` do",
            "all of this, one transaction per version.",
        ]
    }

    /// The statement at the top of such a file.
    static var statement: SQLStatement {
        SQLStatement(kind: .custom, sql: String(offStatement.dropLast()))
    }
}
