extension SwiftNames {
    /// A multi-line raw string literal whose value is exactly `text`, as lines: the opening
    /// delimiter, the content lines, and the closing delimiter followed by a comma. The caller
    /// indents content lines and the closing line alike (Swift strips the closing line's indentation).
    /// Enough `#`s are used that nothing in `text` can end the literal or interpolate.
    static func multilineStringLiteral(_ text: String) -> [String] {
        let literal = MultilineStringLiteral(text)
        return [literal.opening] + literal.lines(in: text.startIndex..<text.endIndex) + [literal.closing]
    }
}

/// A multi-line raw string literal whose value is exactly a text, whose content lines can be
/// rendered a chunk at a time (an embedded migration of a large model is megabytes of SQL).
struct MultilineStringLiteral: Sendable {
    /// The value.
    let text: String
    /// The delimiter's `#`s: one more than the longest run in the text, so that nothing in it
    /// can end the literal or interpolate.
    let hashes: String
    /// True for ASCII text without a carriage return: every character is one byte, so runs and
    /// lines can be found in the UTF-8 bytes.
    private let isPlain: Bool

    init(_ text: String) {
        self.text = text
        var longestRun = 0
        var run = 0
        var plain = true
        let scanned: Void? = text.utf8.withContiguousStorageIfAvailable { bytes in
            for byte in bytes {
                if byte >= 0x80 || byte == UInt8(ascii: "\r") { plain = false }
                run = byte == UInt8(ascii: "#") ? run + 1 : 0
                longestRun = max(longestRun, run)
            }
        }
        if scanned == nil { plain = text.utf8.allSatisfy { $0 < 0x80 && $0 != UInt8(ascii: "\r") } }
        isPlain = plain
        if !isPlain || scanned == nil {
            longestRun = 0
            run = 0
            for character in text {
                run = character == "#" ? run + 1 : 0
                longestRun = max(longestRun, run)
            }
        }
        hashes = String(repeating: "#", count: longestRun + 1)
    }

    /// The opening delimiter.
    var opening: String { "\(hashes)\"\"\"" }
    /// The closing delimiter, followed by a comma.
    var closing: String { closingDelimiter + "," }
    /// The closing delimiter alone (`"""#`), for a literal that is the last argument.
    var closingDelimiter: String { "\"\"\"\(hashes)" }

    /// The text in ranges of whole lines of about `bytes` bytes each, in order, for
    /// ``lines(in:)``: the newline between two ranges belongs to neither.
    func chunks(ofAbout bytes: Int) -> [Range<String.Index>] {
        // Lines are only cut in plain text; other text is one chunk.
        guard isPlain else { return [text.startIndex..<text.endIndex] }
        var chunks: [Range<String.Index>] = []
        var start = text.startIndex
        var size = 0
        var index = text.utf8.startIndex
        while index != text.utf8.endIndex {
            size += 1
            if size >= bytes, text.utf8[index] == UInt8(ascii: "\n") {
                chunks.append(start..<index)
                start = text.utf8.index(after: index)
                size = 0
            }
            index = text.utf8.index(after: index)
        }
        chunks.append(start..<text.endIndex)
        return chunks
    }

    /// The content lines of `range` (whole lines: all of the text, or a chunk): a trailing newline
    /// of the text becomes an empty last content line, and a carriage return at a line's end an
    /// escape.
    func lines(in range: Range<String.Index>) -> [String] {
        var lines: [String] = []
        forEachLine(in: range) { lines.append(String($0)) }
        return lines
    }

    /// Calls `body` with each content line of `range`, as ``lines(in:)`` gives them, without
    /// making a string of each line of plain text.
    func forEachLine(in range: Range<String.Index>, _ body: (Substring) -> Void) {
        guard isPlain else {
            for line in text[range].split(separator: "\n", omittingEmptySubsequences: false) {
                body(line.hasSuffix("\r") ? Substring(String(line.dropLast()) + "\\\(hashes)r") : line)
            }
            return
        }
        let utf8 = text.utf8
        var start = range.lowerBound
        while true {
            let end = utf8[start..<range.upperBound].firstIndex(of: UInt8(ascii: "\n")) ?? range.upperBound
            body(Substring(utf8[start..<end]))
            guard end < range.upperBound else { return }
            start = utf8.index(after: end)
        }
    }
}

extension SwiftNames {
    /// Why `name` cannot be both the argument label and the parameter name of a generated
    /// function (a named query's parameter), or nil when it can: `_` means "no label" to Swift.
    /// Keywords can (in backticks where they need them: ``identifier(_:)``, ``argumentLabel(_:)``).
    static func argumentProblem(_ name: String) -> String? {
        name == "_" ? "'_' means an argument without a label in Swift" : nil
    }

    /// An argument label for `name`: keywords need no backticks as labels, except `inout`, `var` and `let`.
    static func argumentLabel(_ name: String) -> String {
        ["inout", "var", "let"].contains(name) ? "`\(name)`" : name
    }
}
