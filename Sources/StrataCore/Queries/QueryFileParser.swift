/// Splits a query file into its named queries.
///
/// A query starts at a `-- name: <identifier>` line and runs to the next one or the end of the
/// file. The comment lines right after the name line are its documentation, except
/// `-- param: <name> <Type>` lines, which declare a parameter's type. One statement per query; a
/// final `;` is optional.
enum QueryFileParser {
    /// The queries of `text`, read from `file`, and the problems found.
    static func parse(_ text: String, file: String) -> ([QuerySource], [Diagnostic]) {
        var bag = DiagnosticBag()
        var queries: [QuerySource] = []
        var current:
            (
                name: String, location: SourceLocation, doc: [String], params: [QuerySource.DeclaredParameter],
                inHeader: Bool, body: [(Int, Substring)]
            )?
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map {
            $0.hasSuffix("\r") ? $0.dropLast() : $0
        }
        func finish() {
            guard let query = current else { return }
            current = nil
            // The body: from its first line that is not blank, to its last one.
            var body = query.body
            while let first = body.first, first.1.allSatisfy(\.isWhitespace) { body.removeFirst() }
            var sql = body.map { String($0.1) }.joined(separator: "\n")
            sql = String(sql.trimmingTrailingWhitespaceAndSemicolons())
            guard let first = body.first, !sql.isEmpty else {
                bag.error(
                    "query '\(query.name)' has no SQL: write its statement after the '-- name:' line",
                    at: query.location)
                return
            }
            let indent = first.1.prefix { $0 == " " || $0 == "\t" }.count
            sql = String(sql.dropFirst(indent))
            queries.append(
                QuerySource(
                    name: query.name, nameLocation: query.location,
                    doc: query.doc.isEmpty ? nil : query.doc.joined(separator: "\n"),
                    declaredParameters: query.params, sql: sql,
                    sqlStart: SourceLocation(file: file, line: first.0, column: indent + 1)))
        }
        for (offset, line) in lines.enumerated() {
            let number = offset + 1
            let trimmed = line.drop { $0 == " " || $0 == "\t" }
            let indent = line.count - trimmed.count
            if let value = Self.commentValue(trimmed, key: "name") {
                finish()
                let column = indent + 1 + (trimmed.count - value.count)
                let location = SourceLocation(file: file, line: number, column: column)
                let name = String(value)
                if name.count > Limits.nameLength {
                    bag.error(
                        "the query name is longer than \(Limits.nameLength) characters: '\(Limits.shown(name))'",
                        at: location)
                } else if !Self.isIdentifier(name) {
                    bag.error(
                        "query name '\(name)' is not a Swift identifier: use letters, digits and '_', starting with a letter (e.g. 'filteredItems')",
                        at: location)
                }
                current = (name, location, [], [], true, [])
                continue
            }
            guard current != nil else {
                if !trimmed.isEmpty && !trimmed.hasPrefix("--") {
                    bag.error(
                        "SQL before the first '-- name:' line: start each query with '-- name: <queryName>'",
                        at: SourceLocation(file: file, line: number, column: indent + 1))
                }
                continue
            }
            if current?.inHeader == true, trimmed.hasPrefix("--") {
                if let value = Self.commentValue(trimmed, key: "param") {
                    let column = indent + 1 + (trimmed.count - value.count)
                    let location = SourceLocation(file: file, line: number, column: column)
                    let parts = value.split(separator: " ", maxSplits: 1).map { $0.trimmingCharacters() }
                    if parts.count == 2,
                        Self.isIdentifier(parts[0].hasPrefix(":") ? String(parts[0].dropFirst()) : parts[0])
                    {
                        let name = parts[0].hasPrefix(":") ? String(parts[0].dropFirst()) : parts[0]
                        current?.params.append(.init(name: name, type: parts[1], location: location))
                    } else {
                        bag.error("expected '-- param: <name> <Type>' (e.g. '-- param: limit Int')", at: location)
                    }
                } else {
                    current?.doc.append(String(trimmed.dropFirst(2).drop { $0 == " " }).trimmingCharacters())
                }
                continue
            }
            if current?.inHeader == true && trimmed.isEmpty && current?.body.isEmpty == true { continue }
            current?.inHeader = false
            current?.body.append((number, line))
        }
        finish()
        return (queries, bag.all)
    }

    /// The value of a `-- key: value` comment line (`line` without its indentation), or nil.
    private static func commentValue(_ line: Substring, key: String) -> Substring? {
        guard line.hasPrefix("--") else { return nil }
        let rest = line.dropFirst(2).drop { $0 == " " || $0 == "\t" }
        guard rest.hasPrefix(key + ":") else { return nil }
        let value = rest.dropFirst(key.count + 1).drop { $0 == " " || $0 == "\t" }
        var end = value.endIndex
        while end > value.startIndex, value[value.index(before: end)] == " " || value[value.index(before: end)] == "\t"
        {
            end = value.index(before: end)
        }
        return value[value.startIndex..<end]
    }

    /// True for an ASCII Swift identifier: a letter or `_`, then letters, digits and `_`.
    static func isIdentifier(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first == "_" || first.properties.isAlphabetic, first.isASCII
        else { return false }
        return name.unicodeScalars.allSatisfy {
            $0.isASCII && ($0 == "_" || $0.properties.isAlphabetic || ("0"..."9").contains($0))
        }
    }
}

extension StringProtocol {
    /// The text without leading and trailing spaces and tabs.
    fileprivate func trimmingCharacters() -> String {
        var text = Substring(self)
        while let first = text.first, first == " " || first == "\t" { text = text.dropFirst() }
        while let last = text.last, last == " " || last == "\t" { text = text.dropLast() }
        return String(text)
    }

    /// The text without trailing whitespace and `;`.
    fileprivate func trimmingTrailingWhitespaceAndSemicolons() -> Substring {
        var text = Substring(self)
        while let last = text.last, last.isWhitespace || last == ";" { text = text.dropLast() }
        return text
    }
}
