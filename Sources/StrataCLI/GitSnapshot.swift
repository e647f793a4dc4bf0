import Foundation

/// Reads files of another commit with the `git` command: what `--base <ref>` compares with.
package enum GitSnapshot {
    /// The files under `folder` (a folder of the working tree) as they are in `ref`, by path
    /// relative to `folder` (`MyTODO/v3.yaml`), with their bytes; with `including`, only the
    /// paths it accepts are read. Empty when `ref` has no such folder, or when `folder` does not
    /// exist (the schemas loader reports that). Throws ``CouldNotRun`` when git cannot run,
    /// `folder` is not in a repository, or `ref` names no commit.
    package static func files(
        at ref: String, under folder: String, including: (String) -> Bool = { _ in true }
    ) throws -> [String: Data] {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
            return [:]
        }
        // A ref is never taken for one of git's options.
        guard !ref.hasPrefix("-"), !ref.isEmpty else { throw CouldNotRun("--base: '\(ref)' is not a git ref") }
        _ = try git(
            ["rev-parse", "--git-dir"], in: folder, failure: "--base reads git: '\(folder)' is not in a git repository")
        _ = try git(
            ["rev-parse", "--verify", "--quiet", "\(ref)^{commit}"], in: folder, failure: "'\(ref)' names no commit")
        var files: [String: Data] = [:]
        for (path, object) in try listing(at: ref, under: folder) where including(path) {
            files[path] = try git(["cat-file", "blob", object], in: folder, failure: "cannot read \(path) at \(ref)")
        }
        return files
    }

    /// The paths of the files under `folder` in `commit` (relative to `folder`), without their bytes.
    package static func paths(at commit: String, under folder: String) throws -> [String] {
        try listing(at: commit, under: folder).map(\.path)
    }

    /// The commit where `HEAD` and `ref` forked (`git merge-base HEAD ref`); nil when they
    /// share no history or git cannot tell (a shallow clone).
    package static func mergeBase(of ref: String, in folder: String) -> String? {
        guard let output = try? git(["merge-base", "HEAD", ref], in: folder, failure: "") else { return nil }
        let commit = String(decoding: output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return commit.isEmpty ? nil : commit
    }

    /// Every blob under `folder` in `commit`: its path relative to `folder` and its object name.
    private static func listing(at commit: String, under folder: String) throws -> [(path: String, object: String)] {
        // Paths are relative to the folder git runs in: `-C folder ... -- .` lists the folder's files.
        let listing = try git(
            ["ls-tree", "-r", "-z", commit, "--", "."], in: folder, failure: "cannot list '\(folder)' at \(commit)")
        var entries: [(path: String, object: String)] = []
        for entry in listing.split(separator: 0) {
            let text = String(decoding: entry, as: UTF8.self)
            guard let tab = text.firstIndex(of: "\t") else { continue }
            let fields = text[..<tab].split(separator: " ")
            guard fields.count == 3, fields[1] == "blob" else { continue }
            entries.append((String(text[text.index(after: tab)...]), String(fields[2])))
        }
        return entries
    }

    /// Writes `files` (from ``files(at:under:)``) under a new temporary folder and returns it; the
    /// caller removes it.
    package static func materialize(_ files: [String: Data]) throws -> String {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("strata-base-\(UUID().uuidString)")
        for (path, data) in files {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try data.write(to: url)
        }
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        return root.path
    }

    /// Runs `git -C folder arguments` and returns its standard output; throws ``CouldNotRun``
    /// (with `failure` and what git said) when it exits with another status than 0.
    static func git(_ arguments: [String], in folder: String, failure: String) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["git", "-C", folder] + arguments
        let output = Pipe()
        let errors = FileManager.default.temporaryDirectory.appendingPathComponent("strata-git-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: errors) }
        process.standardOutput = output
        process.standardError = try FileHandle(forWritingTo: errors)
        process.standardInput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            throw CouldNotRun("--base needs git: cannot run it (\(error.localizedDescription))")
        }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            let said =
                (try? String(contentsOf: errors, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
                ?? ""
            throw CouldNotRun("\(failure)\(said.isEmpty ? "" : " (git: \(said))")")
        }
        return data
    }
}
