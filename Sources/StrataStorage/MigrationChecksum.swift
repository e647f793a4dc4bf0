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
        let text = NormalizedText.string(sql).utf8
        // The significant lines, joined by newlines, go straight into the digest: a migration of
        // a large model is megabytes, and is never copied.
        var hasher = SHA256.Hasher()
        var isFirst = true
        func hash(_ line: Substring.UTF8View) {
            if !isFirst { hasher.update(CollectionOfOne(UInt8(ascii: "\n"))) }
            isFirst = false
            hasher.update(line)
        }
        var state = LexicalState.code
        var start = text.startIndex
        while true {
            let end = text[start...].firstIndex(of: UInt8(ascii: "\n")) ?? text.endIndex
            let line = text[start..<end]
            if case .quoted = state {
                hash(line)
            } else {
                var trimmed = line
                while let last = trimmed.last, last == UInt8(ascii: " ") || last == UInt8(ascii: "\t") {
                    trimmed = trimmed.dropLast()
                }
                let content = trimmed.drop { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
                if !content.isEmpty && !content.starts(with: [UInt8(ascii: "-"), UInt8(ascii: "-")])
                    && !content.elementsEqual(foreignKeysOff.utf8)
                {
                    hash(trimmed)
                }
            }
            state = state.after(line)
            guard end != text.endIndex else { break }
            start = text.index(after: end)
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
        func after(_ line: Substring.UTF8View) -> LexicalState {
            var state = self
            var index = line.startIndex
            while index != line.endIndex {
                let byte = line[index]
                let next = line.index(after: index)
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
                if index != line.endIndex { index = line.index(after: index) }
            }
            return state
        }
    }
}
