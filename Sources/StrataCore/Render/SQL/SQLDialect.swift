import StrataStorage

/// A SQL database flavour Strata renders for.
///
/// This type holds the only two functions that turn names and values into SQL text:
/// ``quoted(_:)`` for identifiers and ``literal(_:)`` for values. Every renderer goes
/// through them, so no name or value reaches SQL unescaped.
public enum SQLDialect: String, CaseIterable, Sendable, Hashable {
    /// SQLite, the embedded default.
    case sqlite
    /// PostgreSQL, the server database.
    case postgres

    /// The folder name of the dialect's output (`Generated/<Model>/<folder>/`).
    public var folderName: String { rawValue }

    /// What differs in this database, SQLite Dates in ``SQLiteDateFormat/current``.
    public var rules: any SQLDialectRules { rules(sqliteDateFormat: .current) }

    /// What differs in this database, SQLite Date literals in `sqliteDateFormat` (another format
    /// than ``SQLiteDateFormat/current`` only to render a migration as Strata 0.5 did,
    /// ``GeneratorConfiguration/sqliteDateFormat``): the only switch over the dialects.
    public func rules(sqliteDateFormat: SQLiteDateFormat) -> any SQLDialectRules {
        switch self {
        case .sqlite: return SQLiteRules(dateFormat: sqliteDateFormat)
        case .postgres: return PostgresRules()
        }
    }

    /// A human name for headers and messages.
    public var displayName: String { rules.displayName }

    /// An identifier as a quoted SQL identifier: `order` -> `"order"`, `a"b` -> `"a""b"`.
    ///
    /// Both dialects use standard double quotes, in which only `"` needs escaping (by doubling).
    /// Quoting every identifier keeps keywords, spaces and case exactly as written.
    public func quoted(_ identifier: String) -> String { SQLIdentifier.quoted(identifier) }

    /// A value as a SQL literal of this dialect.
    ///
    /// Text is single-quoted with `'` doubled. In PostgreSQL, text containing a backslash is
    /// written as an escape string (`E'a\\b'`), which means the same whatever the server's
    /// `standard_conforming_strings` setting is.
    public func literal(_ value: SQLValue) -> String {
        switch value {
        case .null:
            return "NULL"
        case .integer(let number):
            return String(number)
        case .real(let number):
            return realLiteral(number)
        case .text(let text):
            return quotedText(text)
        case .blob(let bytes):
            let hex = bytes.map { byte in
                let digits = String(byte, radix: 16, uppercase: true)
                return digits.count == 1 ? "0" + digits : digits
            }.joined()
            return rules.blobLiteral(hex: hex)
        case .boolean(let flag):
            return rules.booleanLiteral(flag)
        case .decimal(let text):
            // Unquoted only when the text is a plain decimal number; anything else stays a string.
            if DecimalLiteral.isValid(text) { return text }
            return rules.decimalTextLiteral(quoted: quotedText(text))
        case .typed(let text, let encoding):
            return rules.typedLiteral(quoted: quotedText(text), columnType: columnType(encoding))
        }
    }

    /// Text as a quoted string literal.
    private func quotedText(_ text: String) -> String {
        if text.unicodeScalars.contains("\u{0}") {
            // A NUL would cut the statement short for C APIs: spell the bytes instead. SQLite keeps
            // them; PostgreSQL cannot store a NUL in text and rejects the value when it runs.
            return rules.textWithNULLiteral(bytes: literal(.blob(Array(text.utf8))))
        }
        let quoted =
            text.utf8.contains(UInt8(ascii: "'")) ? "'" + text.replacingOccurrences(of: "'", with: "''") + "'" : "'" + text + "'"
        return rules.textLiteral(text, quoted: quoted)
    }

    /// A finite double in its shortest round-trip form; infinities and NaN as each dialect spells them.
    private func realLiteral(_ number: Double) -> String {
        if number.isFinite {
            let text = String(number)
            // `1e-05` is a valid numeric literal in both dialects; make integral values read as reals.
            return text.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }) ? text : text + ".0"
        }
        return rules.nonFiniteRealLiteral(number)
    }

    /// Documentation as SQL line comments: one `-- ` line per line of `text`, with `indent` before each.
    ///
    /// Every kind of line break ends a line, so no text can leave the comment; other control
    /// characters (a NUL would end the script for C APIs) become U+FFFD.
    public func comment(_ text: String, indent: String = "") -> [String] {
        // Fast path (the same result): a line of printable ASCII has no control character and no
        // line break, so it only needs its trailing spaces checked.
        if let line = Self.printableASCIILine(Substring(text)) {
            return [line.isEmpty ? indent + "--" : indent + "-- " + String(line)]
        }
        return text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).map { line in
            if let plain = Self.printableASCIILine(line) {
                return plain.isEmpty ? indent + "--" : indent + "-- " + String(plain)
            }
            let visible = String(
                String.UnicodeScalarView(
                    line.unicodeScalars.map { scalar in
                        scalar.properties.generalCategory == .control && scalar != "\t" ? "\u{FFFD}" : scalar
                    }))
            let trimmed = visible.reversed().drop(while: { $0 == " " || $0 == "\t" }).reversed()
            return trimmed.isEmpty ? indent + "--" : indent + "-- " + String(trimmed)
        }
    }

    /// `line` when it is printable ASCII (U+0020…U+007E) without trailing spaces, else nil.
    private static func printableASCIILine(_ line: Substring) -> Substring? {
        guard line.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }), line.utf8.last != UInt8(ascii: " ") else { return nil }
        return line
    }
}
