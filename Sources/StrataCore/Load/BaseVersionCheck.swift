import Foundation
import StrataChecksum

/// `strata check --base <ref>`: every version that exists on `<ref>` (the branch a pull request
/// merges into) is frozen, the latest included: databases deployed from `<ref>` may already be
/// at it. `strata.lock` alone freezes only the versions below the latest, and a merge can bring
/// in a lock that agrees with an edited file.
public enum BaseVersionCheck {
    /// The advice of every message: replay the branch's changes as new versions.
    static let advice = "run `strata rebase` to replay your changes as new versions after it"

    /// An error for every version file of `base` (the files of the schemas folder at `ref`, by
    /// path relative to it: `MyTODO/v3.yaml`) whose text differs in the folder `schemas` on disk
    /// (line endings and a byte order mark aside, as in `strata.lock`), or that is gone while its
    /// model folder is still there. A file with merge conflict markers is left to the loader's
    /// message. Located at the first line that differs.
    public static func diagnostics(schemas: String, base: [String: Data], ref: String) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        for (relative, data) in base.sorted(by: { $0.key < $1.key }) {
            let parts = relative.split(separator: "/")
            guard parts.count == 2, let number = SchemaLoader.versionNumber(ofFileName: String(parts[1])) else {
                continue
            }
            let folder = SchemaLoader.join(schemas, String(parts[0]))
            guard SchemaLoader.isFolder(folder) else { continue }
            let path = SchemaLoader.join(schemas, relative)
            guard let current = FileManager.default.contents(atPath: path) else {
                diagnostics.append(
                    Diagnostic(
                        .error,
                        "v\(number).yaml exists on \(ref) but not on this branch: versions on \(ref) are frozen; restore it "
                            + "with `git checkout \(ref) -- \(path)`",
                        at: .file(folder)))
                continue
            }
            let theirs = NormalizedText.bytes(data)
            let ours = NormalizedText.bytes(current)
            guard theirs != ours else { continue }
            let ourText = String(decoding: ours, as: UTF8.self)
            guard MergeConflictMarkers.lines(in: ourText).isEmpty else { continue }
            let line = firstDifferingLine(ourText, String(decoding: theirs, as: UTF8.self))
            diagnostics.append(
                Diagnostic(
                    .error,
                    "v\(number).yaml differs from \(ref): every version on \(ref) is frozen (databases may already be at "
                        + "it); \(advice)",
                    at: SourceLocation(file: path, line: line, column: 1)))
        }
        return diagnostics
    }

    /// True for `Model/vN.yaml` (a path relative to the schemas folder): the files
    /// ``diagnostics(schemas:base:ref:)`` compares.
    public static func isVersionFile(_ path: String) -> Bool {
        let parts = path.split(separator: "/")
        return parts.count == 2 && SchemaLoader.versionNumber(ofFileName: String(parts[1])) != nil
    }

    /// The highest version of `model` among `paths` (relative to the schemas folder:
    /// `MyTODO/v3.yaml`); 0 when the model has no version there.
    public static func latestVersion(of model: String, in paths: some Sequence<String>) -> Int {
        paths.compactMap { path -> Int? in
            let parts = path.split(separator: "/")
            guard parts.count == 2, parts[0] == model else { return nil }
            return SchemaLoader.versionNumber(ofFileName: String(parts[1]))
        }.max() ?? 0
    }

    /// The 1-based number of the first line where `ours` and `theirs` differ.
    static func firstDifferingLine(_ ours: String, _ theirs: String) -> Int {
        let left = ours.split(separator: "\n", omittingEmptySubsequences: false)
        let right = theirs.split(separator: "\n", omittingEmptySubsequences: false)
        for index in 0..<min(left.count, right.count) where left[index] != right[index] { return index + 1 }
        return max(1, min(left.count, right.count))
    }
}
