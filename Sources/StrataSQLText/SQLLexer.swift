/// One token of SQL text, as far as Strata needs to read SQL back: for splitting scripts into
/// statements, and for reading defaults, checks and constraint names from a database's catalog.
public struct SQLToken: Hashable, Sendable {
    /// The kinds of token.
    public enum Kind: Hashable, Sendable {
        /// A bare word: keyword or unquoted identifier.
        case word
        /// A quoted identifier (`"…"`, and in SQLite `[…]` and `` `…` ``); `value` is unquoted.
        case quotedIdentifier
        /// A string literal (`'…'`, `E'…'`, `$tag$…$tag$`); `value` is the decoded text.
        case string
        /// A blob literal `X'…'`; `value` is the hex digits.
        case blob
        /// A number.
        case number
        /// Punctuation or an operator (`(`, `,`, `::`, `=`, …).
        case symbol
        /// A comment (`-- …` or `/* … */`).
        case comment
        /// Spaces and line breaks.
        case whitespace
    }

    /// The kind.
    public var kind: Kind
    /// The decoded value (identifiers unquoted, strings unescaped), or the text itself.
    public var value: String
    /// The exact source text.
    public var text: String

    /// Creates a token.
    public init(kind: Kind, value: String, text: String) {
        self.kind = kind
        self.value = value
        self.text = text
    }

    /// True for a word equal to `keyword`, ignoring case.
    public func isKeyword(_ keyword: String) -> Bool {
        kind == .word && value.caseInsensitiveCompare(keyword) == .orderedSame
    }

    /// True for the symbol `symbol`.
    public func isSymbol(_ symbol: String) -> Bool { kind == .symbol && value == symbol }

    /// True when the token is a name: a bare word or a quoted identifier.
    public var isName: Bool { kind == .word || kind == .quotedIdentifier }
}

/// Splits SQL text into tokens, in the lexical rules of a dialect.
///
/// In StrataStorage (no dependencies) so that the generator's tools and the PostgreSQL runtime,
/// which runs migration scripts one statement at a time, read SQL the same way.
public struct SQLLexer: Sendable {
    /// The lexical rules of one database.
    public enum Syntax: Sendable, Hashable {
        /// SQLite's: `[…]` and `` `…` `` identifiers.
        case sqlite
        /// PostgreSQL's: dollar quotes, nested comments and `E''` strings.
        case postgres
    }

    /// The dialect whose rules apply (dollar quotes, nested comments and `E''` strings in
    /// PostgreSQL; `[…]` and `` `…` `` identifiers in SQLite).
    public var dialect: Syntax

    /// A lexer for `dialect`.
    public init(dialect: Syntax) {
        self.dialect = dialect
    }

    /// The problem with text that cannot be tokenized.
    public struct Failure: Error, CustomStringConvertible, Sendable {
        /// What is wrong.
        public var description: String

        /// Creates the failure.
        public init(description: String) { self.description = description }
    }

    /// Every token of `text`, including whitespace and comments, so that joining their `text`
    /// gives `text` back. Throws on an unterminated quote or comment.
    public func tokens(_ text: String) throws -> [SQLToken] {
        let scalars = Array(text.unicodeScalars)
        var tokens: [SQLToken] = []
        var index = 0
        func slice(_ start: Int, _ end: Int) -> String {
            String(String.UnicodeScalarView(scalars[start..<end]))
        }
        func at(_ offset: Int) -> Unicode.Scalar? {
            index + offset < scalars.count ? scalars[index + offset] : nil
        }
        while index < scalars.count {
            let start = index
            let scalar = scalars[index]
            if scalar.properties.isWhitespace {
                while index < scalars.count, scalars[index].properties.isWhitespace { index += 1 }
                tokens.append(SQLToken(kind: .whitespace, value: slice(start, index), text: slice(start, index)))
            } else if scalar == "-", at(1) == "-" {
                while index < scalars.count, scalars[index] != "\n" && !(dialect == .postgres && scalars[index] == "\r")
                {
                    index += 1
                }
                tokens.append(SQLToken(kind: .comment, value: slice(start, index), text: slice(start, index)))
            } else if scalar == "/", at(1) == "*" {
                index += 2
                var depth = 1
                while depth > 0 {
                    guard index < scalars.count else { throw Failure(description: "unterminated /* comment") }
                    if scalars[index] == "*", at(1) == "/" {
                        depth -= 1
                        index += 2
                    } else if dialect == .postgres, scalars[index] == "/", at(1) == "*" {
                        depth += 1
                        index += 2
                    } else {
                        index += 1
                    }
                }
                tokens.append(SQLToken(kind: .comment, value: slice(start, index), text: slice(start, index)))
            } else if scalar == "'" {
                let value = try quoted(scalars, &index, close: "'", backslashes: false)
                tokens.append(SQLToken(kind: .string, value: value, text: slice(start, index)))
            } else if (scalar == "E" || scalar == "e"), at(1) == "'", dialect == .postgres {
                index += 1
                let value = try quoted(scalars, &index, close: "'", backslashes: true)
                tokens.append(SQLToken(kind: .string, value: value, text: slice(start, index)))
            } else if (scalar == "X" || scalar == "x"), at(1) == "'" {
                index += 1
                let value = try quoted(scalars, &index, close: "'", backslashes: false)
                tokens.append(SQLToken(kind: .blob, value: value, text: slice(start, index)))
            } else if scalar == "\"" {
                let value = try quoted(scalars, &index, close: "\"", backslashes: false)
                tokens.append(SQLToken(kind: .quotedIdentifier, value: value, text: slice(start, index)))
            } else if dialect == .sqlite, scalar == "`" {
                let value = try quoted(scalars, &index, close: "`", backslashes: false)
                tokens.append(SQLToken(kind: .quotedIdentifier, value: value, text: slice(start, index)))
            } else if dialect == .sqlite, scalar == "[" {
                index += 1
                while index < scalars.count, scalars[index] != "]" { index += 1 }
                guard index < scalars.count else { throw Failure(description: "unterminated [identifier]") }
                index += 1
                tokens.append(
                    SQLToken(kind: .quotedIdentifier, value: slice(start + 1, index - 1), text: slice(start, index)))
            } else if dialect == .postgres, scalar == "$", let tagEnd = dollarTagEnd(scalars, from: index) {
                let tag = Array(scalars[index...tagEnd])
                index = tagEnd + 1
                let bodyStart = index
                while true {
                    guard index < scalars.count else { throw Failure(description: "unterminated dollar-quoted string") }
                    if scalars[index] == "$", index + tag.count <= scalars.count,
                        Array(scalars[index..<index + tag.count]) == tag
                    {
                        break
                    }
                    index += 1
                }
                let value = slice(bodyStart, index)
                index += tag.count
                tokens.append(SQLToken(kind: .string, value: value, text: slice(start, index)))
            } else if isWordStart(scalar) {
                while index < scalars.count, isWordPart(scalars[index]) { index += 1 }
                tokens.append(SQLToken(kind: .word, value: slice(start, index), text: slice(start, index)))
            } else if ("0"..."9").contains(scalar) || (scalar == "." && at(1).map { ("0"..."9").contains($0) } == true)
            {
                index = numberEnd(scalars, from: index)
                tokens.append(SQLToken(kind: .number, value: slice(start, index), text: slice(start, index)))
            } else {
                let pairs: Set<String> = ["::", "<=", ">=", "<>", "!=", "||", "=="]
                if let next = at(1), pairs.contains(String(scalar) + String(next)) {
                    index += 2
                } else {
                    index += 1
                }
                tokens.append(SQLToken(kind: .symbol, value: slice(start, index), text: slice(start, index)))
            }
        }
        return tokens
    }

    /// Every token of `text` except whitespace and comments.
    public func significantTokens(_ text: String) throws -> [SQLToken] {
        try tokens(text).filter { $0.kind != .whitespace && $0.kind != .comment }
    }

    /// Reads a quoted run starting at the opening quote; a doubled closing quote stands for one.
    private func quoted(_ scalars: [Unicode.Scalar], _ index: inout Int, close: Unicode.Scalar, backslashes: Bool)
        throws -> String
    {
        index += 1
        var value = String.UnicodeScalarView()
        while true {
            guard index < scalars.count else { throw Failure(description: "unterminated \(close)quoted\(close) text") }
            let scalar = scalars[index]
            if scalar == close {
                if index + 1 < scalars.count, scalars[index + 1] == close {
                    value.append(close)
                    index += 2
                    continue
                }
                index += 1
                return String(value)
            }
            if backslashes, scalar == "\\", index + 1 < scalars.count {
                let next = scalars[index + 1]
                index += 2
                switch next {
                case "n": value.append("\n")
                case "t": value.append("\t")
                case "r": value.append("\r")
                case "b": value.append("\u{8}")
                case "f": value.append("\u{C}")
                default: value.append(next)
                }
                continue
            }
            value.append(scalar)
            index += 1
        }
    }

    /// The index of the closing `$` of a dollar-quote tag (`$$`, `$tag$`) that starts at `start`.
    private func dollarTagEnd(_ scalars: [Unicode.Scalar], from start: Int) -> Int? {
        var index = start + 1
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == "$" { return index }
            guard isWordPart(scalar), !(index == start + 1 && ("0"..."9").contains(scalar)) else { return nil }
            index += 1
        }
        return nil
    }

    private func isWordStart(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "_" || scalar.properties.isAlphabetic || (!scalar.isASCII && !scalar.properties.isWhitespace)
    }

    private func isWordPart(_ scalar: Unicode.Scalar) -> Bool {
        isWordStart(scalar) || ("0"..."9").contains(scalar) || scalar == "$"
    }

    private func numberEnd(_ scalars: [Unicode.Scalar], from start: Int) -> Int {
        var index = start
        func isDigit(_ i: Int) -> Bool { i < scalars.count && ("0"..."9").contains(scalars[i]) }
        if index + 1 < scalars.count, scalars[index] == "0", scalars[index + 1] == "x" || scalars[index + 1] == "X" {
            index += 2
            while index < scalars.count, scalars[index].properties.isASCIIHexDigit { index += 1 }
            return index
        }
        while isDigit(index) { index += 1 }
        if index < scalars.count, scalars[index] == "." {
            index += 1
            while isDigit(index) { index += 1 }
        }
        if index < scalars.count, scalars[index] == "e" || scalars[index] == "E" {
            var next = index + 1
            if next < scalars.count, scalars[next] == "+" || scalars[next] == "-" { next += 1 }
            if isDigit(next) {
                index = next
                while isDigit(index) { index += 1 }
            }
        }
        return index
    }
}
