import StrataCore
import StrataSQLText
import StrataStorage

/// The canonical text of SQL defaults, checks and type names, so that what a database prints
/// back from its catalog compares equal to what Strata wrote.
///
/// PostgreSQL prints `DEFAULT -1` back as `'-1'::integer` and `CHECK (x IN (0, 1))` as
/// `CHECK ((x = ANY (ARRAY[0, 1])))`; SQLite keeps the text as written. The canonical form drops
/// casts and redundant parentheses, reads numbers (also when quoted) as numbers, and writes
/// literals, keywords and identifiers one way.
public enum SQLCanonicalForm {
    /// A default expression in canonical form; nil for no default or `NULL`.
    public static func defaultValue(_ sql: String?, dialect: SQLDialect) -> String? {
        guard let sql, !sql.trimmingWhitespace().isEmpty else { return nil }
        let text = expression(sql, dialect: dialect)
        return text == "NULL" ? nil : text
    }

    /// An expression in canonical form. Text that cannot be tokenized is returned trimmed.
    public static func expression(_ sql: String, dialect: SQLDialect) -> String {
        guard let tokens = try? SQLLexer(dialect: dialect.syntax).significantTokens(sql) else {
            return sql.trimmingWhitespace()
        }
        return render(canonicalTokens(tokens))
    }

    /// A check condition (with or without the `CHECK` keyword) as a rule: `column IN (values)`
    /// in either dialect's spelling becomes ``DatabaseSchema/CheckRule/allowedValues(column:values:)``.
    public static func checkRule(_ sql: String, dialect: SQLDialect) -> DatabaseSchema.CheckRule {
        guard var tokens = try? SQLLexer(dialect: dialect.syntax).significantTokens(sql) else {
            return .expression(sql.trimmingWhitespace())
        }
        if tokens.first?.isKeyword("CHECK") == true { tokens.removeFirst() }
        if let last = tokens.last, last.isKeyword("VALID"), tokens.dropLast().last?.isKeyword("NOT") == true {
            tokens.removeLast(2)
        }
        tokens = canonicalTokens(tokens)
        return allowedValues(tokens) ?? .expression(render(tokens))
    }

    /// A type name as the catalog of `dialect` spells it: PostgreSQL aliases become
    /// `format_type` names (`TIMESTAMPTZ` -> `timestamp with time zone`, also as an array's
    /// elements); SQLite types are upper-cased.
    public static func typeName(_ name: String, dialect: SQLDialect) -> String {
        let words = name.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).joined(separator: " ")
        switch dialect {
        case .sqlite:
            return words.uppercased()
        case .postgres:
            let lowered = words.lowercased()
            // An array's element type is named as its own (`timestamptz[]` is
            // `timestamp with time zone[]`, `numeric(10,2)[]` keeps its modifier before the brackets).
            if lowered.hasSuffix("[]") {
                return typeName(String(lowered.dropLast(2)), dialect: .postgres) + "[]"
            }
            // A modifier goes where `format_type` prints it: `varchar(160)` is
            // `character varying(160)`, `timestamp(3)` is `timestamp(3) without time zone`.
            if let open = lowered.firstIndex(of: "("), let close = lowered[open...].firstIndex(of: ")") {
                let modifier = lowered[open...close].replacingOccurrences(of: " ", with: "")
                let base = typeName(
                    String(lowered[..<open]) + String(lowered[lowered.index(after: close)...]), dialect: .postgres)
                for zone in [" without time zone", " with time zone"] where base.hasSuffix(zone) {
                    return String(base.dropLast(zone.count)) + modifier + zone
                }
                return base + modifier
            }
            let aliases = [
                "timestamptz": "timestamp with time zone", "timestamp": "timestamp without time zone",
                "int8": "bigint", "int4": "integer", "int": "integer", "int2": "smallint", "float8": "double precision",
                "float4": "real", "bool": "boolean", "varchar": "character varying", "decimal": "numeric",
                "serial4": "serial", "serial8": "bigserial", "serial2": "smallserial", "char": "character",
                "bpchar": "character", "char varying": "character varying",
            ]
            return aliases[lowered] ?? lowered
        }
    }

    /// A name as a quoted identifier, for messages and canonical expressions.
    public static func identifier(_ name: String) -> String { SQLIdentifier.quoted(name) }

    /// A literal in canonical form: numbers (also quoted ones) as numbers, text single-quoted,
    /// blobs as `X'HEX'`, keywords upper-cased.
    static func literal(_ token: SQLToken) -> String {
        switch token.kind {
        case .number:
            return number(token.value)
        case .string:
            if let numeric = numericValue(token.value) { return numeric }
            return "'" + token.value.replacingOccurrences(of: "'", with: "''") + "'"
        case .blob:
            return "X'" + token.value.uppercased() + "'"
        case .word:
            return token.value.uppercased()
        case .quotedIdentifier:
            return identifier(token.value)
        case .symbol, .comment, .whitespace:
            return token.value
        }
    }

    // MARK: Tokens

    private static let typeContinuations: Set<String> = ["precision", "varying", "with", "without", "time", "zone"]

    /// Removes casts, folds signs into numbers, unwraps parenthesised literals and strips outer parentheses.
    static func canonicalTokens(_ input: [SQLToken]) -> [SQLToken] {
        var tokens = input
        var changed = true
        while changed {
            changed = false
            var output: [SQLToken] = []
            var index = 0
            while index < tokens.count {
                let token = tokens[index]
                if token.isSymbol("::") {
                    index = castEnd(tokens, from: index + 1)
                    changed = true
                    continue
                }
                if token.isSymbol("-") || token.isSymbol("+"), index + 1 < tokens.count,
                    tokens[index + 1].kind == .number,
                    output.last.map({ $0.kind == .symbol && !$0.isSymbol(")") && !$0.isSymbol("]") }) ?? true
                {
                    let sign = token.value == "-" ? "-" : ""
                    let value = sign + tokens[index + 1].value
                    output.append(SQLToken(kind: .number, value: value, text: value))
                    index += 2
                    changed = true
                    continue
                }
                // `(x)` around one literal or column, as PostgreSQL prints `length((country)::text)`;
                // not a call's or a list's parentheses (after a name: `f(x)`, `IN (x)`).
                if token.isSymbol("("), index + 2 < tokens.count, tokens[index + 2].isSymbol(")"),
                    isLiteral(tokens[index + 1]) || tokens[index + 1].isName,
                    !(output.last?.isName ?? false)
                {
                    output.append(tokens[index + 1])
                    index += 3
                    changed = true
                    continue
                }
                output.append(token)
                index += 1
            }
            tokens = output
        }
        while tokens.count >= 2, tokens[0].isSymbol("("), matchingParenthesis(tokens, from: 0) == tokens.count - 1 {
            tokens = Array(tokens[1..<tokens.count - 1])
        }
        return tokens
    }

    /// The index after a cast's type name (`bigint`, `timestamp with time zone`, `numeric(10,2)`, `text[]`).
    private static func castEnd(_ tokens: [SQLToken], from start: Int) -> Int {
        var index = start
        guard index < tokens.count, tokens[index].isName else { return index }
        index += 1
        while index < tokens.count, tokens[index].kind == .word,
            typeContinuations.contains(tokens[index].value.lowercased())
        {
            index += 1
        }
        if index < tokens.count, tokens[index].isSymbol("("), let close = matchingParenthesis(tokens, from: index),
            tokens[(index + 1)..<close].allSatisfy({ $0.kind == .number || $0.isSymbol(",") })
        {
            index = close + 1
        }
        while index + 1 < tokens.count, tokens[index].isSymbol("["), tokens[index + 1].isSymbol("]") {
            index += 2
        }
        return index
    }

    private static func matchingParenthesis(_ tokens: [SQLToken], from start: Int) -> Int? {
        var depth = 0
        for index in start..<tokens.count {
            if tokens[index].isSymbol("(") { depth += 1 }
            if tokens[index].isSymbol(")") {
                depth -= 1
                if depth == 0 { return index }
            }
        }
        return nil
    }

    private static func isLiteral(_ token: SQLToken) -> Bool {
        switch token.kind {
        case .number, .string, .blob: return true
        case .word: return ["TRUE", "FALSE", "NULL"].contains(token.value.uppercased())
        default: return false
        }
    }

    /// `column IN (v, …)`, or as PostgreSQL prints it back: `column = ANY (ARRAY[v, …])`, and
    /// `column = v` for a single value.
    private static func allowedValues(_ tokens: [SQLToken]) -> DatabaseSchema.CheckRule? {
        if tokens.count == 3, tokens[0].isName, tokens[1].isSymbol("="), isLiteral(tokens[2]) {
            return .allowedValues(column: tokens[0].value, values: [literal(tokens[2])])
        }
        guard tokens.count >= 4, tokens[0].isName else { return nil }
        let column = tokens[0].value
        var list: ArraySlice<SQLToken>
        if tokens[1].isKeyword("IN"), tokens[2].isSymbol("("), tokens.last?.isSymbol(")") == true {
            list = tokens[3..<tokens.count - 1]
        } else if tokens.count >= 8, tokens[1].isSymbol("="), tokens[2].isKeyword("ANY"), tokens[3].isSymbol("("),
            tokens[4].isKeyword("ARRAY"), tokens[5].isSymbol("["), tokens[tokens.count - 2].isSymbol("]"),
            tokens[tokens.count - 1].isSymbol(")")
        {
            list = tokens[6..<tokens.count - 2]
        } else {
            return nil
        }
        var values: [String] = []
        while let first = list.first {
            guard isLiteral(first) else { return nil }
            values.append(literal(first))
            list = list.dropFirst()
            if let separator = list.first {
                guard separator.isSymbol(","), list.count > 1 else { return nil }
                list = list.dropFirst()
            }
        }
        return values.isEmpty ? nil : .allowedValues(column: column, values: values.sorted())
    }

    /// A check's text without its grouping parentheses (those of a call or a list after a word
    /// stay): PostgreSQL prints a condition back with every operation parenthesized
    /// (`((a >= 0) OR (b > 1))`), so checks are matched on this form. Two conditions that differ
    /// only in grouping match; the schema compares them no further.
    public static func ungrouped(_ text: String, dialect: SQLDialect) -> String {
        guard let tokens = try? SQLLexer(dialect: dialect.syntax).significantTokens(text) else { return text }
        var kept: [SQLToken] = []
        var opened: [Bool] = []
        for token in tokens {
            if token.isSymbol("(") {
                let keep = kept.last?.isName ?? false
                opened.append(keep)
                if keep { kept.append(token) }
            } else if token.isSymbol(")") {
                if opened.popLast() ?? true { kept.append(token) }
            } else {
                kept.append(token)
            }
        }
        return render(kept)
    }

    static func render(_ tokens: [SQLToken]) -> String {
        var text = ""
        var previous: SQLToken?
        for token in tokens {
            let noSpaceBefore = token.isSymbol(")") || token.isSymbol("]") || token.isSymbol(",")
            let noSpaceAfterPrevious = previous.map { $0.isSymbol("(") || $0.isSymbol("[") } ?? true
            if !text.isEmpty && !noSpaceBefore && !noSpaceAfterPrevious { text += " " }
            text += literal(token)
            previous = token
        }
        return text
    }

    // MARK: Numbers

    /// A number in one spelling: integers exactly, reals in their shortest round-trip form
    /// (integral reals as integers), so `1.50`, `'1.5'` and `1.5e0` agree.
    static func number(_ text: String) -> String {
        numericValue(text) ?? text
    }

    private static func numericValue(_ text: String) -> String? {
        if let integer = Int64(text) { return String(integer) }
        let lowered = text.lowercased()
        if lowered.hasPrefix("0x"), let integer = Int64(lowered.dropFirst(2), radix: 16) { return String(integer) }
        guard text.first.map({ $0.isNumber || $0 == "-" || $0 == "+" || $0 == "." }) == true, let real = Double(text),
            real.isFinite
        else { return nil }
        if real.rounded() == real, abs(real) < 9_007_199_254_740_992 { return String(Int64(real)) }
        return String(real)
    }
}
