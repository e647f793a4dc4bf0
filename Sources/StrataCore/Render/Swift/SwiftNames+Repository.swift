extension SwiftNames {
    /// A multi-line raw string literal whose value is exactly `text`, as lines: the opening
    /// delimiter, the content lines, and the closing delimiter followed by a comma. The caller
    /// indents content lines and the closing line alike (Swift strips the closing line's indentation).
    /// Enough `#`s are used that nothing in `text` can end the literal or interpolate.
    static func multilineStringLiteral(_ text: String) -> [String] {
        // Fast path (the same result): in ASCII text without a carriage return every character is
        // one byte, so runs and lines can be found in the UTF-8 bytes (embedded migrations are large).
        if text.utf8.allSatisfy({ $0 < 0x80 && $0 != UInt8(ascii: "\r") }) {
            var longestRun = 0
            var run = 0
            for byte in text.utf8 {
                run = byte == UInt8(ascii: "#") ? run + 1 : 0
                longestRun = max(longestRun, run)
            }
            let hashes = String(repeating: "#", count: longestRun + 1)
            let lines = text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map {
                String(Substring($0))
            }
            return ["\(hashes)\"\"\""] + lines + ["\"\"\"\(hashes),"]
        }
        var longestRun = 0
        var run = 0
        for character in text {
            run = character == "#" ? run + 1 : 0
            longestRun = max(longestRun, run)
        }
        let hashes = String(repeating: "#", count: longestRun + 1)
        // A trailing newline of the text becomes an empty last content line.
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.hasSuffix("\r") ? String(line.dropLast()) + "\\\(hashes)r" : String(line)
        }
        return ["\(hashes)\"\"\""] + lines + ["\"\"\"\(hashes),"]
    }
}

extension SwiftNames {
    /// An argument label for `name`: keywords need no backticks as labels, except `inout`, `var` and `let`.
    static func argumentLabel(_ name: String) -> String {
        ["inout", "var", "let"].contains(name) ? "`\(name)`" : name
    }
}
