/// The checksum the migration ledger (`strata_migrations`) records for a migration's SQL: the same
/// in the generator (`MigrationSources`), in generated code (which embeds it) and in the runtime
/// (`StrataMigration(version:sql:)`).
public enum MigrationChecksum {
    /// The statement that starts SQLite migration files that drop tables, on a line of its own;
    /// the checksum does not count that line.
    public static let foreignKeysOff = "PRAGMA foreign_keys = OFF;"

    /// The ledger checksum of a migration: the SHA-256 (hexadecimal) of its SQL without the lines
    /// that hold only a `--` comment and without trailing white space, so that a change to the
    /// generated header or to comments does not make shipped databases look edited, while any
    /// change to a statement does. Lines that continue a quoted string or identifier (a default
    /// spanning lines) are part of a statement and count as written, even blank or starting with `--`.
    ///
    /// The SQL is first normalised (`NormalizedText`: CRLF and CR read as LF, a leading byte order
    /// mark dropped), so a migration read from a CRLF checkout records the same checksum as from
    /// an LF one. The `PRAGMA foreign_keys = OFF;` line that starts the files that rebuild tables is
    /// not counted either: it does nothing inside the migrator's transaction, and databases migrated
    /// before files carried it must not look edited.
    public static func of(_ sql: String) -> String {
        // The significant lines, joined by newlines, go straight into the digest: a migration of
        // a large model is megabytes, and is never copied unless its line endings need normalising.
        var text = sql
        let plain = text.withUTF8 { bytes -> String? in
            guard !NormalizedText.needsNormalizing(bytes) else { return nil }
            return digest(ofLines: bytes)
        }
        if let plain { return plain }
        var normalized = NormalizedText.string(sql)
        return normalized.withUTF8 { digest(ofLines: $0) }
    }

    /// The checksum of normalised SQL text, given as its UTF-8 bytes.
    private static func digest(ofLines text: UnsafeBufferPointer<UInt8>) -> String {
        var hasher = SHA256.Hasher()
        var isFirst = true
        func hash(_ range: Range<Int>) {
            if !isFirst { hasher.update(byte: UInt8(ascii: "\n")) }
            isFirst = false
            hasher.update(UnsafeBufferPointer(rebasing: text[range]))
        }
        let foreignKeysOff = Array(Self.foreignKeysOff.utf8)
        func isBlank(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        var state = LexicalState.code
        var start = 0
        while true {
            var end = start
            while end < text.count && text[end] != UInt8(ascii: "\n") { end += 1 }
            if case .quoted = state {
                hash(start..<end)
            } else {
                var trimmedEnd = end
                while trimmedEnd > start && isBlank(text[trimmedEnd - 1]) { trimmedEnd -= 1 }
                var contentStart = start
                while contentStart < trimmedEnd && isBlank(text[contentStart]) { contentStart += 1 }
                let content = text[contentStart..<trimmedEnd]
                if !content.isEmpty && !content.starts(with: [UInt8(ascii: "-"), UInt8(ascii: "-")])
                    && !content.elementsEqual(foreignKeysOff)
                {
                    hash(start..<trimmedEnd)
                }
            }
            state = state.after(text[start..<end])
            guard end < text.count else { break }
            start = end + 1
        }
        return hasher.hex()
    }

    /// Where a scan of SQL text is: in code, inside a string or identifier quoted by the given
    /// character, or inside a `/* */` comment. The markers are ASCII, so bytes are enough.
    private enum LexicalState: Equatable {
        case code
        case quoted(by: UInt8)
        case blockComment

        /// The state after `line`, starting from this one.
        func after(_ line: Slice<UnsafeBufferPointer<UInt8>>) -> LexicalState {
            var state = self
            var index = line.startIndex
            while index != line.endIndex {
                let byte = line[index]
                let next = index + 1
                let following = next != line.endIndex ? line[next] : 0
                switch state {
                case .code:
                    if byte == UInt8(ascii: "'") || byte == UInt8(ascii: "\"") {
                        state = .quoted(by: byte)
                    } else if byte == UInt8(ascii: "-") && following == UInt8(ascii: "-") {
                        return .code  // the rest of the line is a comment
                    } else if byte == UInt8(ascii: "/") && following == UInt8(ascii: "*") {
                        state = .blockComment
                        index = next
                    }
                case .quoted(let quote):
                    // A doubled quote leaves and enters again: the same as staying inside.
                    if byte == quote { state = .code }
                case .blockComment:
                    if byte == UInt8(ascii: "*") && following == UInt8(ascii: "/") {
                        state = .code
                        index = next
                    }
                }
                if index != line.endIndex { index += 1 }
            }
            return state
        }
    }
}
