import StrataStorage

/// Renders `<Model>Migrations.swift` (`<Model>PostgresMigrations.swift`): one database's migration
/// SQL of every version, embedded with its ledger checksum, exactly as the generator writes
/// `<Model>/<dialect>/migrations/vN.sql`.
struct SwiftMigrationsRenderer {
    let schema: Schema
    let dialect: SQLDialect
    let migrations: [MigrationSource]
    /// The command the generated header names.
    let regeneration: Regeneration

    /// The whole file.
    func render() -> String {
        partJobs().map { $0() }.joined()
    }

    /// The file in parts, in order, for ``GeneratedParts``: the head, then for each migration its
    /// opening, its SQL a chunk of lines at a time, and its closing, then the end. A model's
    /// first migration holds its whole schema, so the file is written without being held whole.
    func partJobs() -> [@Sendable () -> String] {
        guard !migrations.isEmpty else { return [{ [self] in head(isEmpty: true) }] }
        var jobs: [@Sendable () -> String] = [{ [self] in head(isEmpty: false) }]
        // swift-format's layout: one element without a trailing comma, several each with one.
        let separator = migrations.count == 1 ? "" : ","
        for migration in migrations {
            let literal = MultilineStringLiteral(migration.sql)
            jobs.append {
                var w = SwiftWriter(depth: 1)
                w.line("    StrataMigration(")
                w.line("        version: \(migration.version),")
                w.line("        sql: " + literal.opening)
                return w.untrimmedText
            }
            for chunk in literal.chunks(ofAbout: 64 * 1024) {
                jobs.append {
                    var w = SwiftWriter(depth: 1)
                    // Content lines are indented like the closing delimiter, which is stripped again.
                    literal.forEachLine(in: chunk) { line in
                        if line.isEmpty { w.line() } else { w.line(prefix: "            ", line) }
                    }
                    return w.untrimmedText
                }
            }
            jobs.append { [self] in
                var w = SwiftWriter(depth: 1)
                w.line("            " + literal.closing)
                let arguments = [["checksum: \(SwiftNames.stringLiteral(migration.checksum))"]] + storageArguments(migration)
                for (offset, argument) in arguments.enumerated() {
                    let comma = offset == arguments.count - 1 ? "" : ","
                    for (index, line) in argument.enumerated() {
                        // A blank line of a multi-line literal stays empty.
                        if line.isEmpty { w.line() } else { w.line("        " + line + (index == argument.count - 1 ? comma : "")) }
                    }
                }
                w.line("    )" + separator)
                return w.untrimmedText
            }
        }
        jobs.append {
            var w = SwiftWriter(depth: 1)
            w.line("]")
            w.depth = 0
            w.line("}")
            return w.text
        }
        return jobs
    }

    /// The file up to the list of migrations (the whole file when there is none).
    private func head(isEmpty: Bool) -> String {
        let names = RepositoryNames(schema: schema)
        var writer = SwiftWriter()
        writer.lines(FileHeader.lines(source: FileHeader.source(schema), comment: "//", regeneration: regeneration))
        writer.line()
        writer.line("import StrataRuntime")
        writer.line()
        let runtime = dialect.rules.swift
        writer.line(
            "/// The \(dialect.displayName) migrations of \(schema.model), one per version (the generated `\(dialect.folderName)/migrations/vN.sql`),")
        writer.line("/// applied in order through the migration ledger by `\(names.database(runtime))`.")
        writer.line("public enum \(names.migrations(runtime)) {")
        writer.depth = 1
        writer.line("/// Every version's migration, oldest first.")
        guard !isEmpty else {
            writer.line("public static let all: [StrataMigration] = []")
            writer.depth = 0
            writer.line("}")
            return writer.text
        }
        writer.line("public static let all: [StrataMigration] = [")
        return writer.untrimmedText
    }

    /// The arguments after the checksum, each as its lines: the checksum Strata 0.5 recorded, when
    /// it differs, the columns holding Dates (converted in a database Strata 0.5 wrote), listed
    /// as ``SQLiteDateColumn/list(_:)`` writes them, and the version's compatibility with older
    /// code, which the ledger records.
    private func storageArguments(_ migration: MigrationSource) -> [[String]] {
        var arguments: [[String]] = []
        if let legacy = migration.legacyChecksum {
            arguments.append(["legacyChecksum: \(SwiftNames.stringLiteral(legacy))"])
        }
        if !migration.dateColumns.isEmpty {
            // One string literal, a line per table: the compiler reads it in no time, where an
            // array of `SQLiteDateColumn(table:column:)` calls costs seconds of a release build.
            let literal = MultilineStringLiteral(SQLiteDateColumn.list(migration.dateColumns))
            var lines = ["dateColumns: " + literal.opening]
            literal.forEachLine(in: literal.text.startIndex..<literal.text.endIndex) { lines.append("    " + $0) }
            lines.append("    " + literal.closingDelimiter)
            arguments.append(lines)
        }
        if let oldest = migration.compatibleFrom {
            arguments.append(["compatibleFrom: \(oldest)"])
        }
        if let reason = migration.incompatibility {
            arguments.append(Self.argument("incompatibility", reason))
        }
        if let contract = migration.contract {
            let literal = MultilineStringLiteral(contract)
            var lines = ["contract: " + literal.opening]
            literal.forEachLine(in: literal.text.startIndex..<literal.text.endIndex) { lines.append($0.isEmpty ? "" : "    " + $0) }
            lines.append("    " + literal.closingDelimiter)
            arguments.append(lines)
            if let reason = migration.contractIncompatibility {
                arguments.append(Self.argument("contractIncompatibility", reason))
            }
        }
        return arguments
    }

    /// `label: "text"`, or when that passes the line length (120 with the argument's indentation)
    /// a multi-line literal whose lines break between words and continue (`\#`), so that it reads
    /// back as the one line `text` is.
    static func argument(_ label: String, _ text: String, width: Int = 100) -> [String] {
        let single = "\(label): \(SwiftNames.stringLiteral(text))"
        guard single.count > width else { return [single] }
        let literal = MultilineStringLiteral(text)
        let continuation = "\\" + literal.hashes
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ", omittingEmptySubsequences: false) {
            if line.isEmpty && lines.isEmpty {
                line = String(word)
            } else if line.count + 1 + word.count > width {
                lines.append(line + continuation)
                // The space between the words starts the next line, past the literal's indentation.
                line = " " + word
            } else {
                line += " " + word
            }
        }
        lines.append(line)
        return ["\(label): " + literal.opening] + lines.map { "    " + $0 } + ["    " + literal.closingDelimiter]
    }
}
