import StrataSQLText

/// Reads a query's SQL as far as typing it needs: the tables it names (with their aliases, and
/// whether an outer join can make their columns NULL), and the column each parameter is compared
/// with, assigned to or inserted into.
///
/// SQLite has already accepted the statement when this runs, so the text is valid SQL; anything
/// this does not recognise leaves a parameter untyped, and the analyzer asks for a declaration.
struct QueryColumnReferences {
    /// A significant token and the UTF-8 offset where it starts.
    struct Token {
        var token: SQLToken
        var offset: Int
    }

    /// What a use of a parameter says about its type.
    enum Use {
        /// Compared with, assigned to or inserted into this table's column; `optional` for `IS`.
        case column(table: String, column: String, optional: Bool)
        /// A fixed type: `LIMIT`/`OFFSET` take an `Int`, `LIKE`/`GLOB` a `String`.
        case type(String)
    }

    /// Every significant token.
    let tokens: [Token]
    /// Table names by alias and by their own name (lowercased keys).
    private(set) var tables: [String: String] = [:]
    /// The tables, in order of appearance.
    private(set) var tableOrder: [String] = []
    /// Tables (lowercased) on the nullable side of an outer join.
    private(set) var nullableTables: Set<String> = []

    private static let clauseWords: Set<String> = [
        "where", "join", "inner", "left", "right", "full", "cross", "natural", "on", "using", "group", "order",
        "limit", "having", "set", "values", "select", "union", "except", "intersect", "window", "returning",
        "default", "outer", "as", "offset", "from", "indexed", "not",
    ]

    init(sql: String) {
        var tokens: [Token] = []
        var offset = 0
        for token in (try? SQLLexer(dialect: .sqlite).tokens(sql)) ?? [] {
            if token.kind != .whitespace && token.kind != .comment {
                tokens.append(Token(token: token, offset: offset))
            }
            offset += token.text.utf8.count
        }
        self.tokens = tokens
        readTables()
    }

    /// Records the tables after `FROM`, `JOIN`, `UPDATE` and `INTO`, with their aliases.
    private mutating func readTables() {
        var index = 0
        while index < tokens.count {
            let token = tokens[index].token
            guard ["from", "join", "update", "into"].contains(where: token.isKeyword) else {
                index += 1
                continue
            }
            let isOuter =
                token.isKeyword("join")
                && (1...3).contains { back in
                    index - back >= 0
                        && ["left", "right", "full"].contains(where: tokens[index - back].token.isKeyword)
                }
            let makesLeftNullable =
                token.isKeyword("join")
                && (1...3).contains { back in
                    index - back >= 0 && ["right", "full"].contains(where: tokens[index - back].token.isKeyword)
                }
            if makesLeftNullable { nullableTables.formUnion(tableOrder.map { $0.lowercased() }) }
            index += 1
            while index < tokens.count, tokens[index].token.isName, !Self.isClauseWord(tokens[index].token) {
                var name = tokens[index].token.value
                index += 1
                if index + 1 < tokens.count, tokens[index].token.isSymbol("."), tokens[index + 1].token.isName {
                    name = tokens[index + 1].token.value  // schema.table
                    index += 2
                }
                tables[name.lowercased()] = name
                tableOrder.append(name)
                if isOuter { nullableTables.insert(name.lowercased()) }
                if index < tokens.count, tokens[index].token.isKeyword("as") { index += 1 }
                if index < tokens.count, tokens[index].token.isName, !Self.isClauseWord(tokens[index].token) {
                    tables[tokens[index].token.value.lowercased()] = name
                    if isOuter { nullableTables.insert(tokens[index].token.value.lowercased()) }
                    index += 1
                }
                // `FROM a, b`: another table.
                guard index < tokens.count, tokens[index].token.isSymbol(",") else { break }
                index += 1
            }
        }
    }

    private static func isClauseWord(_ token: SQLToken) -> Bool {
        token.kind == .word && clauseWords.contains(token.value.lowercased())
    }

    /// The index of each `:name` parameter's name token, with the name (`:` included).
    var parameterTokens: [(index: Int, name: String)] {
        tokens.indices.compactMap { index in
            guard index + 1 < tokens.count, tokens[index].token.isSymbol(":"), tokens[index + 1].token.kind == .word,
                tokens[index].offset + 1 == tokens[index + 1].offset
            else { return nil }
            return (index + 1, ":" + tokens[index + 1].token.value)
        }
    }

    /// The byte offset of the first use of the parameter written `name` (`:_`, `@x`, `?2`; nil
    /// for an anonymous `?`), its tokens written together.
    func offset(ofParameter name: String?) -> Int? {
        for start in tokens.indices {
            var text = ""
            var index = start
            while index < tokens.count, index == start || tokens[index].offset == tokens[index - 1].offset
                + tokens[index - 1].token.text.utf8.count
            {
                text += tokens[index].token.text
                if let name, text == name { return tokens[start].offset }
                if name == nil, text == "?", index + 1 == tokens.count || tokens[index + 1].token.kind != .number {
                    return tokens[start].offset
                }
                guard let name, name.hasPrefix(text) else { break }
                index += 1
            }
        }
        return nil
    }

    /// What the use of the parameter whose name token is at `index` says about its type.
    func use(ofParameterAt index: Int) -> Use? {
        let colon = index - 1
        let comparisons: Set<String> = ["=", "==", "!=", "<>", "<", "<=", ">", ">="]
        func token(_ i: Int) -> SQLToken? { i >= 0 && i < tokens.count ? tokens[i].token : nil }
        // `column <op> :p`, `column IS [NOT] :p`, `column [NOT] LIKE :p`, `column BETWEEN :a AND :b`
        if let before = token(colon - 1) {
            if before.kind == .symbol, comparisons.contains(before.value) {
                return column(endingAt: colon - 2, optional: false)
            }
            if before.isKeyword("is") { return column(endingAt: colon - 2, optional: true) }
            if before.isKeyword("not"), token(colon - 2)?.isKeyword("is") == true {
                return column(endingAt: colon - 3, optional: true)
            }
            if before.isKeyword("like") || before.isKeyword("glob") { return .type("String") }
            if before.isKeyword("limit") || before.isKeyword("offset") { return .type("Int") }
            if before.isKeyword("between") {
                let end = token(colon - 2)?.isKeyword("not") == true ? colon - 3 : colon - 2
                return column(endingAt: end, optional: false)
            }
            if before.isKeyword("and"), token(colon - 4)?.isKeyword("between") == true {
                let end = token(colon - 5)?.isKeyword("not") == true ? colon - 6 : colon - 5
                return column(endingAt: end, optional: false)
            }
        }
        // `:p <op> column`
        if let after = token(index + 1), after.kind == .symbol, comparisons.contains(after.value) {
            return column(startingAt: index + 2)
        }
        // `column [NOT] IN (…, :p, …)` and `INSERT INTO t (a, b) VALUES (:a, :b)`
        var depth = 0
        var position = 0
        var open = colon - 1
        while open >= 0 {
            let current = tokens[open].token
            if current.isSymbol(")") { depth += 1 }
            if current.isSymbol("(") {
                if depth == 0 { break }
                depth -= 1
            }
            if depth == 0 && current.isSymbol(",") { position += 1 }
            open -= 1
        }
        guard open >= 0 else { return nil }
        if token(open - 1)?.isKeyword("in") == true {
            let end = token(open - 2)?.isKeyword("not") == true ? open - 3 : open - 2
            return column(endingAt: end, optional: false)
        }
        if token(open - 1)?.isKeyword("values") == true,
            token(index + 1).map({ $0.isSymbol(",") || $0.isSymbol(")") }) == true
        {
            return insertedColumn(valuesAt: open - 1, position: position)
        }
        return nil
    }

    /// The column named by the tokens ending at `end`: `name` or `table.name`.
    private func column(endingAt end: Int, optional: Bool) -> Use? {
        guard end >= 0, end < tokens.count, tokens[end].token.isName else { return nil }
        let name = tokens[end].token.value
        if end >= 2, tokens[end - 1].token.isSymbol("."), tokens[end - 2].token.isName {
            return resolve(qualifier: tokens[end - 2].token.value, column: name, optional: optional)
        }
        return resolve(qualifier: nil, column: name, optional: optional)
    }

    /// The column named by the tokens starting at `start`.
    private func column(startingAt start: Int) -> Use? {
        guard start < tokens.count, tokens[start].token.isName else { return nil }
        if start + 2 < tokens.count, tokens[start + 1].token.isSymbol("."), tokens[start + 2].token.isName {
            return resolve(qualifier: tokens[start].token.value, column: tokens[start + 2].token.value, optional: false)
        }
        return resolve(qualifier: nil, column: tokens[start].token.value, optional: false)
    }

    /// The column at `position` of the column list of `INSERT INTO t (…) VALUES`, `values` being
    /// the index of `VALUES`.
    private func insertedColumn(valuesAt values: Int, position: Int) -> Use? {
        guard values >= 1, tokens[values - 1].token.isSymbol(")") else { return nil }
        var names: [String] = []
        var index = values - 2
        while index >= 0, !tokens[index].token.isSymbol("(") {
            if tokens[index].token.isName { names.insert(tokens[index].token.value, at: 0) }
            index -= 1
        }
        guard index >= 1, tokens[index - 1].token.isName, position < names.count else { return nil }
        return .column(table: tokens[index - 1].token.value, column: names[position], optional: false)
    }

    /// A column by its qualifier (an alias or a table) or, without one, by its name alone.
    private func resolve(qualifier: String?, column: String, optional: Bool) -> Use? {
        if let qualifier {
            guard let table = tables[qualifier.lowercased()] else { return nil }
            return .column(table: table, column: column, optional: optional)
        }
        // Unqualified: the table is decided by the caller among those named (see `candidates`).
        return .column(table: "", column: column, optional: optional)
    }
}
