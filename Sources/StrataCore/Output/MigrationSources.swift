/// The SQLite migration of one version as the generator writes it (`<Model>/sqlite/migrations/vN.sql`),
/// with the checksum the migration ledger records.
public struct MigrationSource: Hashable, Sendable {
    /// The version the migration leads to.
    public var version: Int
    /// The SQL, exactly as in the generated file.
    public var sql: String
    /// ``MigrationSources/checksum(_:)`` of `sql`.
    public var checksum: String

    /// Creates a migration source, computing its checksum.
    public init(version: Int, sql: String) {
        self.version = version
        self.sql = sql
        self.checksum = MigrationSources.checksum(sql)
    }
}

/// Where generated Swift (`<Model>Migrations.swift`) and the `strata migrate` command get the
/// migrations they apply: the generator's own SQLite migration files, so both apply the same SQL
/// and record the same checksums.
public enum MigrationSources {
    /// The SQLite migrations of `history`, oldest first, as `Generator.files(for:)` writes them.
    public static func sqlite(for history: SchemaHistory) -> [MigrationSource] {
        sqlite(model: history.model, in: Generator.files(for: history))
    }

    /// The SQLite migrations of `model` among generated files (paths relative to the output
    /// folder), oldest first, stopping at the first missing version.
    public static func sqlite(model: String, in files: [GeneratedFile]) -> [MigrationSource] {
        let folder = OutputLayout.sqlFolder(model: model, dialect: "sqlite")
        var byPath: [String: String] = [:]
        for file in files { byPath[file.path] = file.contents }
        var sources: [MigrationSource] = []
        var version = 1
        while let sql = byPath["\(folder)/\(OutputLayout.migrationSQL(version: version))"] {
            sources.append(MigrationSource(version: version, sql: sql))
            version += 1
        }
        return sources
    }

    /// The ledger checksum of a migration: the SHA-256 (hexadecimal) of its SQL without the lines
    /// that hold only a `--` comment and without trailing white space, so that a change to the
    /// generated header or to comments does not make shipped databases look edited, while any
    /// change to a statement does.
    public static func checksum(_ sql: String) -> String {
        // Fast path (the same result): ASCII without carriage returns, one byte per character.
        if sql.utf8.allSatisfy({ $0 < 0x80 && $0 != UInt8(ascii: "\r") }) {
            let lines = sql.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
            let significant = lines.compactMap { line -> String? in
                var trimmed = line[...]
                while let last = trimmed.last, last == UInt8(ascii: " ") || last == UInt8(ascii: "\t") {
                    trimmed = trimmed.dropLast()
                }
                let content = trimmed.drop { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
                if content.isEmpty || content.starts(with: [UInt8(ascii: "-"), UInt8(ascii: "-")]) { return nil }
                return String(Substring(trimmed))
            }
            return SHA256.hex(significant.joined(separator: "\n"))
        }
        let significant = sql.split(separator: "\n", omittingEmptySubsequences: false).compactMap { line -> String? in
            let trimmed = line.trimmingTrailingWhitespace()
            let content = trimmed.drop { $0 == " " || $0 == "\t" }
            if content.hasPrefix("--") || content.isEmpty { return nil }
            return trimmed
        }
        return SHA256.hex(significant.joined(separator: "\n"))
    }
}
