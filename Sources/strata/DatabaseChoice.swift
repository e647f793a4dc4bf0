import ArgumentParser
import Foundation
import StrataIntrospection

/// A SQLite file option (`--database`, `--sqlite`) or `--postgres URL` (or the environment
/// variable `STRATA_POSTGRES_URL`): the choice `migrate` and `import database` share.
enum DatabaseChoice {
    /// The PostgreSQL URL: `postgres`, else `STRATA_POSTGRES_URL` when no SQLite file is given.
    static func postgresURL(_ postgres: String?, sqlite: String?) -> String? {
        postgres ?? (sqlite == nil ? ProcessInfo.processInfo.environment["STRATA_POSTGRES_URL"] : nil)
    }

    /// Checks that exactly one database is chosen and that a URL parses; returns the SQLite path
    /// (trimmed of spaces) when the choice is SQLite, for the command's own checks, or nil.
    static func validate(sqliteOption: String, sqlite: String?, postgres: String?) throws -> String? {
        if sqlite != nil, postgres != nil {
            throw ValidationError("give either \(sqliteOption) (SQLite) or --postgres (PostgreSQL), not both")
        }
        if let url = postgresURL(postgres, sqlite: sqlite) {
            do {
                _ = try PostgresURL(parsing: url)
            } catch {
                throw ValidationError("--postgres: \(error)")
            }
            return nil
        }
        guard let sqlite else {
            throw ValidationError(
                "missing \(sqliteOption) <path> (a SQLite file) or --postgres <url> (or STRATA_POSTGRES_URL)")
        }
        return sqlite.trimmingCharacters(in: .whitespaces)
    }

    /// True when a SQLite path names no file (empty, `:memory:`, a `file:` URI).
    static func isNotAFile(_ trimmed: String) -> Bool {
        trimmed.isEmpty || trimmed == ":memory:" || trimmed.lowercased().hasPrefix("file:")
    }
}
