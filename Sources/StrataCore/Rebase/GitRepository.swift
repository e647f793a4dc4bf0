import Foundation

/// The git repository `strata rebase` reads versions from, through the `git` command: refs,
/// the merge base, and files of a commit's tree (`git ls-tree`, `git cat-file`).
public struct GitRepository: Sendable {
    /// Why git could not answer.
    public struct Failure: Error, CustomStringConvertible, Sendable {
        /// What went wrong, in one line.
        public var description: String
    }

    /// The folder git runs in.
    public var directory: String
    /// The repository's top folder.
    public var root: String

    /// The repository holding `directory` (the current folder by default).
    public init(directory: String = FileManager.default.currentDirectoryPath) throws(Failure) {
        self.directory = directory
        self.root = ""
        let top = try run(["rev-parse", "--show-toplevel"])
        self.root = top.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Runs git with `arguments`; its standard output, or a failure with its message.
    @discardableResult
    public func run(_ arguments: [String]) throws(Failure) -> String {
        let (status, output, error) = runRaw(arguments)
        guard status == 0 else {
            let message = error.trimmingCharacters(in: .whitespacesAndNewlines)
            throw Failure(description: "git \(arguments.joined(separator: " ")) failed: \(message)")
        }
        return String(decoding: output, as: UTF8.self)
    }

    private func runRaw(_ arguments: [String]) -> (Int32, Data, String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["git"] + arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        let output = Pipe()
        let errors = FileManager.default.temporaryDirectory.appendingPathComponent("strata-git-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: errors) }
        _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
        process.standardOutput = output
        let errorHandle = try? FileHandle(forWritingTo: errors)
        defer { try? errorHandle?.close() }
        process.standardError = errorHandle
        process.standardInput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            return (127, Data(), "cannot run git: \(OutputTransaction.reason(error))")
        }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let message = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
        return (process.terminationStatus, data, message)
    }

    /// The commit `ref` names, or nil when it names none.
    public func commit(_ ref: String) -> String? {
        let (status, output, _) = runRaw(["rev-parse", "--verify", "--quiet", "\(ref)^{commit}"])
        guard status == 0 else { return nil }
        return String(decoding: output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The commit a conflicted `git merge` merges in, when one is under way.
    public var mergeHead: String? { commit("MERGE_HEAD") }

    /// The merge base of two commits.
    public func mergeBase(_ a: String, _ b: String) throws(Failure) -> String {
        try run(["merge-base", a, b]).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The path of `path` (absolute, or relative to the current folder) relative to the
    /// repository's top folder.
    public func relativePath(_ path: String) -> String {
        let absolute = path.hasPrefix("/") ? path : SchemaLoader.join(FileManager.default.currentDirectoryPath, path)
        let resolved = URL(fileURLWithPath: absolute).standardizedFileURL.resolvingSymlinksInPath().path
        let top = URL(fileURLWithPath: root).standardizedFileURL.resolvingSymlinksInPath().path
        if resolved == top { return "" }
        return resolved.hasPrefix(top + "/") ? String(resolved.dropFirst(top.count + 1)) : resolved
    }

    /// The version files (`vN.yaml`) of the model folder `folder` (relative to the top) in
    /// `commit`'s tree, by number.
    public func versions(at commit: String, folder: String) throws(Failure) -> [Int: String] {
        let listing = try run(["ls-tree", "--name-only", commit, folder + "/"])
        var versions: [Int: String] = [:]
        for line in listing.split(separator: "\n") {
            let name = SchemaLoader.name(of: String(line))
            guard let number = SchemaLoader.versionNumber(ofFileName: name) else { continue }
            versions[number] = try run(["cat-file", "blob", "\(commit):\(line)"])
        }
        return versions
    }
}
