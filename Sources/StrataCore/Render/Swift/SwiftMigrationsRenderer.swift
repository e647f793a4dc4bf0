/// Renders `<Model>Migrations.swift` (`<Model>PostgresMigrations.swift`): one database's migration
/// SQL of every version, embedded with its ledger checksum, exactly as the generator writes
/// `<Model>/<dialect>/migrations/vN.sql`.
struct SwiftMigrationsRenderer {
    let schema: Schema
    let dialect: SQLDialect
    let migrations: [MigrationSource]

    func render() -> String {
        let names = RepositoryNames(schema: schema)
        var writer = SwiftWriter()
        writer.lines(FileHeader.lines(source: FileHeader.source(schema), comment: "//"))
        writer.line()
        writer.line("import StrataRuntime")
        writer.line()
        let runtime = dialect.rules.swift
        writer.line(
            "/// The \(dialect.displayName) migrations of \(schema.model), one per version (the generated `\(dialect.folderName)/migrations/vN.sql`),")
        writer.line("/// applied in order through the migration ledger by `\(names.database(runtime))`.")
        writer.block("public enum \(names.migrations(runtime))") { w in
            w.line("/// Every version's migration, oldest first.")
            if migrations.isEmpty {
                w.line("public static let all: [StrataMigration] = []")
                return
            }
            w.line("public static let all: [StrataMigration] = [")
            for migration in migrations {
                w.line("    StrataMigration(")
                w.line("        version: \(migration.version),")
                let literal = SwiftNames.multilineStringLiteral(migration.sql)
                w.line("        sql: " + (literal.first ?? ""))
                for line in literal.dropFirst() {
                    // Content lines are indented like the closing delimiter, which is stripped again.
                    w.line(line.isEmpty ? "" : "            " + line)
                }
                let arguments = [["checksum: \(SwiftNames.stringLiteral(migration.checksum))"]] + storageArguments(migration)
                for (offset, argument) in arguments.enumerated() {
                    let comma = offset == arguments.count - 1 ? "" : ","
                    for (index, line) in argument.enumerated() {
                        w.line("        " + line + (index == argument.count - 1 ? comma : ""))
                    }
                }
                w.line(migrations.count == 1 ? "    )" : "    ),")
            }
            w.line("]")
        }
        return writer.text
    }

    /// The arguments after the checksum, each as its lines: the checksum Strata 0.5 recorded, when
    /// it differs, and the columns holding Dates (converted in a database Strata 0.5 wrote).
    private func storageArguments(_ migration: MigrationSource) -> [[String]] {
        var arguments: [[String]] = []
        if let legacy = migration.legacyChecksum {
            arguments.append(["legacyChecksum: \(SwiftNames.stringLiteral(legacy))"])
        }
        if !migration.dateColumns.isEmpty {
            let columns = migration.dateColumns.map { column in
                "SQLiteDateColumn(table: \(SwiftNames.stringLiteral(column.table)), column: \(SwiftNames.stringLiteral(column.column)))"
            }
            // swift-format's layout: one element on the line, several one per line with a trailing comma.
            if columns.count == 1, let only = columns.first {
                arguments.append(["dateColumns: [\(only)]"])
            } else {
                arguments.append(["dateColumns: ["] + columns.map { "    \($0)," } + ["]"])
            }
        }
        return arguments
    }
}
