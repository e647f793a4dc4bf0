/// `Schemas/<Model>/strata.lock`: the checksum of every version, so that frozen versions stay frozen.
public struct Lockfile: Equatable, Sendable {
    /// The file name inside the model folder.
    public static let fileName = "strata.lock"

    /// SHA-256 of each version file, by version number.
    public var checksums: [Int: String]

    /// Creates a lock file.
    public init(checksums: [Int: String]) { self.checksums = checksums }

    /// Parses the text of a lock file; lines that are not comments, blank, or `vN.yaml sha256:…`
    /// are ignored here and listed by ``malformedLines(in:)``.
    public init(parsing text: String) {
        self.checksums = Self.parse(text).checksums
    }

    /// The 1-based numbers of the lines of `text` that are not comments, blank, or `vN.yaml sha256:<64 hex>`.
    public static func malformedLines(in text: String) -> [Int] {
        parse(text).malformed
    }

    private static func parse(_ text: String) -> (checksums: [Int: String], malformed: [Int]) {
        var checksums: [Int: String] = [:]
        var malformed: [Int] = []
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        for (index, rawLine) in lines.enumerated() {
            let line = rawLine.hasSuffix("\r") ? rawLine.dropLast() : rawLine
            if line.hasPrefix("#") || line.allSatisfy({ $0 == " " || $0 == "\t" }) { continue }
            let parts = line.split(separator: " ")
            guard parts.count == 2, let number = SchemaLoader.versionNumber(ofFileName: String(parts[0])),
                parts[1].hasPrefix("sha256:"), parts[1].count == "sha256:".count + 64,
                parts[1].dropFirst("sha256:".count).allSatisfy(\.isHexDigit)
            else {
                malformed.append(index + 1)
                continue
            }
            checksums[number] = String(parts[1].dropFirst("sha256:".count))
        }
        return (checksums, malformed)
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
