import StrataCore
import StrataSQLText

extension SQLDialect {
    /// The lexical rules of the dialect, for ``SQLLexer`` and ``SQLScriptSplitter`` (which live in
    /// StrataStorage, where the runtime can use them).
    public var syntax: SQLLexer.Syntax {
        switch self {
        case .sqlite: return .sqlite
        case .postgres: return .postgres
        }
    }
}

extension String {
    /// The text without leading and trailing whitespace and line breaks.
    func trimmingWhitespace() -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
            let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })
        else { return "" }
        return String(scalars[first...last])
    }
}
