/// The lines git writes into a file it could not merge: `<<<<<<< ours`, `|||||||` (diff3),
/// `=======`, `>>>>>>> theirs`. A file of Strata's that holds them is in the middle of a merge,
/// and the advice is to finish the merge, not to restore the file.
public enum MergeConflictMarkers {
    /// The advice every conflict-marker message ends with.
    public static let advice = "resolve the merge with `strata rebase`"

    /// The 1-based numbers of the lines of `text` that are conflict markers: seven `<`, `|`, `=`
    /// or `>` at the start of a line, followed by a space or the end of the line (git's rule).
    public static func lines(in text: String) -> [Int] {
        var found: [Int] = []
        // "\r\n" is one Character in Swift: both endings separate lines.
        let lines = text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" })
        for (index, rawLine) in lines.enumerated() {
            if isMarker(rawLine) { found.append(index + 1) }
        }
        return found
    }

    /// The error for the file at `path` (named `fileName` in the message) whose lines `lines`
    /// are markers, at the first of them; nil when `lines` is empty.
    public static func diagnostic(fileName: String, path: String, lines: [Int]) -> Diagnostic? {
        guard let first = lines.first else { return nil }
        return Diagnostic(
            .error,
            "\(fileName) has merge conflict markers (line\(lines.count == 1 ? "" : "s") "
                + "\(lines.map(String.init).joined(separator: ", "))): \(advice)",
            at: SourceLocation(file: path, line: first, column: 1))
    }

    /// True for one line (with or without its `\r`) that is a conflict marker.
    static func isMarker(_ rawLine: Substring) -> Bool {
        let line = rawLine.hasSuffix("\r") ? rawLine.dropLast() : rawLine
        guard let first = line.first, "<|=>".contains(first), line.count >= 7 else { return false }
        let prefix = line.prefix(7)
        guard prefix.allSatisfy({ $0 == first }) else { return false }
        let rest = line.dropFirst(7)
        return rest.isEmpty || rest.first == " "
    }
}
