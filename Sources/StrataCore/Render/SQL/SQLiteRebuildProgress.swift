/// Which table a statement of a generated SQLite migration rebuilds, for progress reports
/// (`strata migrate` prints "copying the rows of post…" while a long rebuild runs).
public enum SQLiteRebuildProgress {
    /// The table whose rows `statement` copies into its rebuilt table (`INSERT INTO
    /// "strata_new_post" … SELECT … FROM "post"` gives `post`), or nil for any other statement.
    public static func copiedTable(_ statement: String) -> String? {
        let prefix = "INSERT INTO \"" + SQLiteMigrationRenderer.rebuildPrefix
        // The statement as SQLite gives it may start with the comment lines before it.
        var rest = Substring(statement)
        while true {
            rest = rest.drop { $0 == " " || $0 == "\n" || $0 == "\t" }
            guard rest.hasPrefix("--") else { break }
            rest = rest.drop { $0 != "\n" }
        }
        guard rest.hasPrefix(prefix) else { return nil }
        rest = rest.dropFirst(prefix.count)
        var name = ""
        while let character = rest.first {
            rest = rest.dropFirst()
            if character == "\"" {
                guard rest.first == "\"" else { return name.isEmpty ? nil : name }
                rest = rest.dropFirst()
            }
            name.append(character)
        }
        return nil
    }
}
