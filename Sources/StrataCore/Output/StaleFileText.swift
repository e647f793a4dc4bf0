extension StaleFile {
    /// A missing or extra file of more lines than this is summarised in text reports.
    public static let wholeFileLinesShown = 200

    /// What `strata check` prints for this finding in text: its diff, except that the diff of a
    /// missing or extra file longer than `limit` lines (the whole file, added or removed) is cut
    /// to its header and first `limit` lines, followed by a `\` line (as `diff` marks "No newline
    /// at end of file") saying how many lines are not shown.
    ///
    /// A `check` before the first `generate` would otherwise print every generated file in full
    /// (30 MB for a 1,000-entity model). The JSON report keeps every diff whole.
    public func textDiff(limit: Int = wholeFileLinesShown) -> String {
        guard kind != .stale else { return diff }
        // The header: `--- old`, `+++ new` and the one hunk's `@@ … @@` line.
        let header = 3
        let utf8 = diff.utf8
        var lines = 0
        var end = utf8.endIndex
        for index in utf8.indices where utf8[index] == UInt8(ascii: "\n") {
            lines += 1
            if lines == header + limit { end = utf8.index(after: index) }
        }
        let hidden = lines - header - limit
        guard hidden > 0 else { return diff }
        let count = hidden == 1 ? "1 more line" : "\(hidden) more lines"
        let what = kind == .missing ? "the file is missing; `generate` writes it" : "the file no longer belongs; `generate` removes it"
        return String(diff[..<end]) + "\\ \(count) not shown: \(what)\n"
    }
}
