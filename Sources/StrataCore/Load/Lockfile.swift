import Foundation

/// `Schemas/<Model>/strata.lock`: the checksum of every version, so that frozen versions stay frozen.
public struct Lockfile: Equatable, Sendable {
    /// The file name inside the model folder.
    public static let fileName = "strata.lock"

    /// SHA-256 of each version file, by version number.
    public var checksums: [Int: String]

    /// Creates a lock file.
    public init(checksums: [Int: String]) { self.checksums = checksums }

    /// Parses the text of a lock file; unreadable lines are ignored (the file is rewritten by `generate`).
    public init(parsing text: String) {
        var checksums: [Int: String] = [:]
        for line in text.split(whereSeparator: \.isNewline) where !line.hasPrefix("#") {
            let parts = line.split(separator: " ")
            guard parts.count == 2, let number = SchemaLoader.versionNumber(ofFileName: String(parts[0])),
                parts[1].hasPrefix("sha256:")
            else { continue }
            checksums[number] = String(parts[1].dropFirst("sha256:".count))
        }
        self.checksums = checksums
    }

    /// What reading a lock file found.
    public enum ReadResult: Equatable, Sendable {
        /// No file (nor link) at the path.
        case absent
        /// The file, parsed.
        case read(Lockfile)
        /// Something is at the path but cannot be read as UTF-8 text; the reason.
        case unreadable(String)
    }

    /// Reads the lock file at `path`, telling an absent file from one that cannot be read.
    public static func read(at path: String) -> ReadResult {
        let manager = FileManager.default
        let present = manager.fileExists(atPath: path) || (try? manager.destinationOfSymbolicLink(atPath: path)) != nil
        guard present else { return .absent }
        if let problem = FileErrorReason.brokenLink(path), !manager.fileExists(atPath: path) { return .unreadable(problem) }
        do {
            let data = try Data(contentsOf: URL(fileURLWithPath: path))
            guard let text = String(data: data, encoding: .utf8) else { return .unreadable("not UTF-8 text") }
            return .read(Lockfile(parsing: text))
        } catch {
            return .unreadable(FileErrorReason.of(error))
        }
    }

    /// True when the file at `path` starts like a lock file Strata writes (only such a file is replaced).
    static func isWrittenByStrata(_ path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        return String(decoding: handle.readData(ofLength: 64), as: UTF8.self).hasPrefix("# strata.lock")
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
