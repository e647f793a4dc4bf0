/// `Schemas/<Model>/strata.lock`: the checksum of every version, so that frozen versions stay frozen.
public struct Lockfile: Equatable, Sendable {
    /// The file name inside the model folder.
    public static let fileName = "strata.lock"

    /// SHA-256 of each version file, by version number.
    public var checksums: [Int: String]

    /// Creates a lock file.
    public init(checksums: [Int: String]) { self.checksums = checksums }

    /// Parses the text of a lock file; lines that are not comments, blank, or `vN.yaml sha256:…`
    /// are ignored here and listed by ``problems(in:)``. When a version is listed twice, the last
    /// line counts.
    public init(parsing text: String) {
        self.checksums = Self.parse(text).checksums
    }

    /// What is wrong with one line of a lock file.
    public enum Problem: Equatable, Sendable {
        /// Not a comment, blank, or `vN.yaml sha256:<64 hex>`.
        case malformed(line: Int)
        /// A merge conflict marker (``MergeConflictMarkers``).
        case conflictMarker(line: Int)
        /// A second line for `version`; `firstLine` is the line that listed it first, and
        /// `sameChecksum` says whether both lines record the same checksum.
        case duplicate(line: Int, version: Int, firstLine: Int, sameChecksum: Bool)

        /// The 1-based line the problem is on.
        public var line: Int {
            switch self {
            case .malformed(let line), .conflictMarker(let line), .duplicate(let line, _, _, _): line
            }
        }
    }

    /// Every problem of `text`, in line order: conflict markers, malformed lines, and second
    /// lines for one version (not reported when the file has conflict markers: the merge explains them).
    public static func problems(in text: String) -> [Problem] {
        parse(text).problems
    }

    /// The 1-based numbers of the lines of `text` that are not comments, blank, or `vN.yaml sha256:<64 hex>`.
    public static func malformedLines(in text: String) -> [Int] {
        parse(text).problems.compactMap { if case .malformed(let line) = $0 { line } else { nil } }
    }

    private static func parse(_ text: String) -> (checksums: [Int: String], problems: [Problem]) {
        var checksums: [Int: String] = [:]
        var firstLines: [Int: Int] = [:]
        var problems: [Problem] = []
        var duplicates: [Problem] = []
        // Split on every line break: Swift reads "\r\n" as one Character, which "\n" never equals,
        // so a lock file checked out with CRLF line ends would otherwise be one malformed line.
        let lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
        for (index, rawLine) in lines.enumerated() {
            if MergeConflictMarkers.isMarker(rawLine) {
                problems.append(.conflictMarker(line: index + 1))
                continue
            }
            let line = rawLine.hasSuffix("\r") ? rawLine.dropLast() : rawLine
            if line.hasPrefix("#") || line.allSatisfy({ $0 == " " || $0 == "\t" }) { continue }
            let parts = line.split(separator: " ")
            guard parts.count == 2, let number = SchemaLoader.versionNumber(ofFileName: String(parts[0])),
                parts[1].hasPrefix("sha256:"), parts[1].count == "sha256:".count + 64,
                parts[1].dropFirst("sha256:".count).allSatisfy(\.isHexDigit)
            else {
                problems.append(.malformed(line: index + 1))
                continue
            }
            let checksum = String(parts[1].dropFirst("sha256:".count))
            if let first = firstLines[number] {
                duplicates.append(
                    .duplicate(
                        line: index + 1, version: number, firstLine: first, sameChecksum: checksums[number] == checksum)
                )
            } else {
                firstLines[number] = index + 1
            }
            checksums[number] = checksum
        }
        let hasMarkers = problems.contains { if case .conflictMarker = $0 { true } else { false } }
        if !hasMarkers { problems += duplicates }
        return (checksums, problems.sorted { $0.line < $1.line })
    }

    /// The diagnostics of the lock file at `path` holding `text`: one error at the first conflict
    /// marker (the merge is not finished), an error for each malformed line, and for each second
    /// line of a version an error (another checksum: two branches recorded that version) or a
    /// warning (the same checksum twice, which `strata generate` rewrites).
    public static func diagnostics(for text: String, path: String) -> [Diagnostic] {
        let problems = problems(in: text)
        var diagnostics: [Diagnostic] = []
        let markers = problems.filter { if case .conflictMarker = $0 { true } else { false } }.map(\.line)
        if let marker = MergeConflictMarkers.diagnostic(fileName: fileName, path: path, lines: markers) {
            diagnostics.append(marker)
        }
        for problem in problems {
            switch problem {
            case .conflictMarker:
                continue
            case .malformed(let line):
                diagnostics.append(
                    Diagnostic(
                        .error,
                        "this line of \(fileName) is not 'vN.yaml sha256:<checksum>'; restore the file from version "
                            + "control (frozen versions cannot be checked without it)",
                        at: SourceLocation(file: path, line: line, column: 1)))
            case .duplicate(let line, let version, let firstLine, let same):
                diagnostics.append(
                    same
                        ? Diagnostic(
                            .warning,
                            "v\(version).yaml is listed twice in \(fileName) (first at line \(firstLine)), with the same "
                                + "checksum; `strata generate` rewrites the file with one line",
                            at: SourceLocation(file: path, line: line, column: 1))
                        : Diagnostic(
                            .error,
                            "v\(version).yaml is listed twice in \(fileName) (first at line \(firstLine)) with different "
                                + "checksums: two branches each recorded their own v\(version).yaml; run `strata rebase` to "
                                + "renumber your versions after the other branch's",
                            at: SourceLocation(file: path, line: line, column: 1)))
            }
        }
        return diagnostics
    }

    /// The text of the lock file of `model`.
    public func rendered(model: String) -> String {
        var text = """
            # strata.lock: checksums of the versions of \(model), written by `strata generate`.
            # Every version but the latest is frozen: editing it is an error; add a new version instead.

            """
        for number in checksums.keys.sorted() {
            text += "v\(number).yaml sha256:\(checksums[number] ?? "")\n"
        }
        return text
    }

    /// An error for every version but the latest whose checksum differs from the recorded one.
    public func frozenVersionErrors(current: [Int: String], model: String, folder: String) -> [Diagnostic] {
        guard let latest = current.keys.max() else { return [] }
        var diagnostics: [Diagnostic] = []
        for number in current.keys.sorted() where number < latest {
            guard let recorded = checksums[number], recorded != current[number] else { continue }
            let frozenBy = checksums.keys.filter { $0 > number }.min() ?? latest
            diagnostics.append(
                Diagnostic(
                    .error,
                    "v\(number).yaml changed after v\(frozenBy) was added: versions other than the latest are frozen; revert it and add a new version instead",
                    at: .file(SchemaLoader.join(folder, "v\(number).yaml"))))
        }
        return diagnostics
    }
}
