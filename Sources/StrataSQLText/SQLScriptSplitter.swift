/// Splits a SQL script into its statements, for clients that run one statement at a time
/// (PostgreSQL's extended query protocol, which PostgresNIO uses).
public enum SQLScriptSplitter {
    /// The statements of `script`, without their terminating `;`, each with the comments that
    /// precede it. Semicolons inside strings, quoted identifiers, comments and dollar quotes do
    /// not split. Pieces holding only comments and whitespace are dropped.
    ///
    /// Bodies that contain bare semicolons outside quotes (PostgreSQL `BEGIN ATOMIC … END`
    /// functions, SQLite triggers) are not recognised: quote such bodies with `$$`.
    public static func statements(_ script: String, dialect: SQLLexer.Syntax) throws -> [String] {
        var statements: [String] = []
        var current = ""
        var hasCode = false
        for token in try SQLLexer(dialect: dialect).tokens(script) {
            if token.isSymbol(";") {
                if hasCode { statements.append(trimmed(current)) }
                current = ""
                hasCode = false
                continue
            }
            current += token.text
            if token.kind != .whitespace && token.kind != .comment { hasCode = true }
        }
        if hasCode { statements.append(trimmed(current)) }
        return statements
    }

    /// The text without leading and trailing whitespace and line breaks.
    private static func trimmed(_ text: String) -> String {
        let scalars = text.unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
            let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })
        else { return "" }
        return String(scalars[first...last])
    }
}
