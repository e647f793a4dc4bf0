import StrataSQLText

/// A named query's `SELECT *`, `SELECT t.*` and `RETURNING *` written as the explicit list of
/// the columns they stand for, in the order the latest version declares them: what the PostgreSQL
/// queries file runs. Generated code reads result columns by position, and a PostgreSQL table's
/// columns are not always in declaration order (a column added by a migration, or a type change
/// swapped through a shadow column, comes last), while a `*` follows the table's own order.
///
/// Only stars of the statement's own result are written out (not in parentheses); a bare `*`
/// only over tables of the model, without `USING` or `NATURAL` joins (which merge columns). The
/// caller checks that the written-out SQL has the same result columns.
enum QueryStarExpansion {
    /// `sql` with its stars written out, or nil when it has none that can be.
    static func expand(_ sql: String, schema: Schema) -> String? {
        let references = QueryColumnReferences(sql: sql)
        let tokens = references.tokens
        var replacements: [(range: Range<Int>, text: String)] = []
        var depth = 0
        var inList = false
        func columns(of table: String) -> [String]? {
            schema.entities.first { $0.table.lowercased() == table.lowercased() }?.fields.map(\.column)
        }
        func quoted(_ name: String) -> String { "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }
        for (index, item) in tokens.enumerated() {
            let token = item.token
            if token.isSymbol("(") { depth += 1 }
            if token.isSymbol(")") { depth -= 1 }
            guard depth == 0 else { continue }
            if token.isKeyword("select") || token.isKeyword("returning") {
                inList = true
                continue
            }
            if token.isKeyword("from") {
                inList = false
                continue
            }
            guard inList, token.isSymbol("*"), index > 0 else { continue }
            func startsItem(_ at: Int) -> Bool {
                guard at >= 0 else { return false }
                let before = tokens[at].token
                return before.isSymbol(",") || ["select", "distinct", "all", "returning"].contains(where: before.isKeyword)
            }
            let start = item.offset
            let end = item.offset + token.text.utf8.count
            if startsItem(index - 1) {
                // A bare star: every table of this SELECT's FROM clause, or the statement's target.
                let listed: [(written: String, table: String)]?
                if tokens[..<index].last(where: { $0.token.kind == .word && ["select", "returning"].contains(where: $0.token.isKeyword) })?
                    .token.isKeyword("returning") == true
                {
                    listed = references.tableOrder.first.map { [("", $0)] }
                } else {
                    listed = fromTables(after: index, in: tokens)
                }
                guard let listed, !listed.isEmpty else { return nil }
                var parts: [String] = []
                for (written, table) in listed {
                    guard let names = columns(of: table) else { return nil }
                    parts += names.map { written.isEmpty ? quoted($0) : "\(written).\(quoted($0))" }
                }
                replacements.append((start..<end, parts.joined(separator: ", ")))
            } else if index >= 2, tokens[index - 1].token.isSymbol("."), tokens[index - 2].token.isName, startsItem(index - 3) {
                let written = tokens[index - 2].token.text
                guard let table = references.tables[tokens[index - 2].token.value.lowercased()], let names = columns(of: table) else {
                    return nil
                }
                let qualifier = tokens[index - 2].offset
                replacements.append((qualifier..<end, names.map { "\(written).\(quoted($0))" }.joined(separator: ", ")))
            }
        }
        guard !replacements.isEmpty else { return nil }
        var bytes = Array(sql.utf8)
        for replacement in replacements.reversed() {
            bytes.replaceSubrange(replacement.range, with: Array(replacement.text.utf8))
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The tables of the `FROM` clause that follows the token at `index` (at the same depth), each
    /// with how a column of it is qualified (its alias or name as written); nil when one is not a
    /// plain table name or the columns are merged (`USING`, `NATURAL`).
    private static func fromTables(after index: Int, in tokens: [QueryColumnReferences.Token]) -> [(written: String, table: String)]? {
        let ends: Set<String> = ["where", "group", "order", "limit", "having", "window", "union", "except", "intersect", "returning", "offset"]
        guard let from = tokens[index...].firstIndex(where: { $0.token.isKeyword("from") }) else { return nil }
        var tables: [(written: String, table: String)] = []
        var depth = 0
        var position = from
        var expectsTable = true
        while position < tokens.count {
            let token = tokens[position].token
            if token.isSymbol("(") {
                // A subquery or function as a table, or a join condition in parentheses.
                if expectsTable { return nil }
                depth += 1
            } else if token.isSymbol(")") {
                depth -= 1
                if depth < 0 { break }
            } else if depth == 0 {
                if token.kind == .word, ends.contains(token.value.lowercased()) || token.isKeyword("using") || token.isKeyword("natural") {
                    if token.isKeyword("using") || token.isKeyword("natural") { return nil }
                    break
                }
                if token.isSymbol(";") { break }
                if token.isSymbol(",") || token.isKeyword("join") || token.isKeyword("from") {
                    expectsTable = true
                } else if expectsTable, token.isName {
                    var table = token.value
                    var written = token.text
                    var next = position + 1
                    if next + 1 < tokens.count, tokens[next].token.isSymbol("."), tokens[next + 1].token.isName {
                        table = tokens[next + 1].token.value  // schema.table
                        written = tokens[next + 1].token.text
                        next += 2
                    }
                    if next < tokens.count, tokens[next].token.isKeyword("as") { next += 1 }
                    if next < tokens.count, tokens[next].token.isName, !isClauseWord(tokens[next].token) {
                        written = tokens[next].token.text
                        next += 1
                    }
                    tables.append((written, table))
                    expectsTable = false
                    position = next
                    continue
                }
            }
            position += 1
        }
        return tables
    }

    private static func isClauseWord(_ token: SQLToken) -> Bool {
        let words: Set<String> = [
            "where", "join", "inner", "left", "right", "full", "cross", "natural", "on", "using", "group", "order",
            "limit", "having", "window", "union", "except", "intersect", "returning", "offset", "outer",
        ]
        return token.kind == .word && words.contains(token.value.lowercased())
    }
}
