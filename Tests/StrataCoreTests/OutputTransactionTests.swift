import Foundation
import StrataCore
import StrataTestSupport
import Testing

/// `generate` is one transaction on the file system: all files or none, no staged file left
/// anywhere, a one-line error naming the path; a directory or a file Strata did not write is
/// never replaced or removed; an unreadable or malformed `strata.lock` is an error.
@Suite struct OutputTransactionTests {
    /// A copy of the TODO app's schemas in a temporary folder, generated once.
    static func generatedCopy() throws -> URL {
        let root = try CommandLineContractTests.todoCopy()
        let result = try CLI.strata(["generate"], in: root)
        #expect(result.status == 0, "\(result.stderr)")
        return root
    }

    /// Every file under `root` with its bytes.
    static func snapshot(_ root: URL) -> [String: Data] {
        var files: [String: Data] = [:]
        for path in TestPaths.files(under: root) {
            files[path] = FileManager.default.contents(atPath: root.appendingPathComponent(path).path)
        }
        return files
    }

    /// Hidden staging files anywhere under `root`.
    static func leftovers(_ root: URL) -> [String] {
        let enumerator = FileManager.default.enumerator(atPath: root.path)
        var found: [String] = []
        while let path = enumerator?.nextObject() as? String {
            if path.hasSuffix(".strata-tmp") || path.hasSuffix(".strata-old") { found.append(path) }
        }
        return found
    }

    @Test("a failure while staging changes nothing, leaves no staged file and names the path in one line")
    func failureLeavesEverythingAsItWas() throws {
        let root = try Self.generatedCopy()
        // A schema change, so that strata.lock, Swift and SQL files all change…
        let v3 = root.appendingPathComponent("Schemas/MyTODO/v3.yaml")
        try (try String(contentsOf: v3, encoding: .utf8)).replacingOccurrences(of: "How urgent an item is.", with: "How urgent.")
            .write(to: v3, atomically: true, encoding: .utf8)
        // …and the SQL folder replaced by a file: the sqlite files cannot be staged.
        let sqlite = root.appendingPathComponent("Generated/MyTODO/sqlite")
        try FileManager.default.removeItem(at: sqlite)
        try "in the way".write(to: sqlite, atomically: true, encoding: .utf8)
        let before = Self.snapshot(root)
        let result = try CLI.strata(["generate"], in: root)
        #expect(result.status == 2)
        #expect(result.stderr == "error: cannot write Generated/MyTODO/sqlite: a file is where a folder should be; nothing was changed\n")
        #expect(Self.snapshot(root) == before)
        #expect(Self.leftovers(root).isEmpty)
    }

    @Test("a failure removes the folders it created, and a file where a folder should be is named, however deep")
    func failureRemovesTheFoldersItCreated() throws {
        let root = try CommandLineContractTests.todoCopy()
        func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: root.appendingPathComponent(path).path) }
        // The Swift files come first, into folders of their own; then the SQL folder is a file.
        let model = root.appendingPathComponent("Generated/MyTODO")
        try FileManager.default.createDirectory(at: model, withIntermediateDirectories: true)
        try "in the way".write(to: model.appendingPathComponent("sqlite"), atomically: true, encoding: .utf8)
        let failed = try CLI.strata(["generate"], in: root)
        #expect(failed.status == 2)
        #expect(failed.stderr == "error: cannot write Generated/MyTODO/sqlite: a file is where a folder should be; nothing was changed\n")
        #expect(!exists("Generated/MyTODO/Swift"), "the folder made for the Swift files is removed again")
        #expect(exists("Generated/MyTODO/sqlite"))
        #expect(Self.leftovers(root).isEmpty)
        // A file two levels up from a generated file: named, not a file-system error code.
        try FileManager.default.removeItem(at: model)
        try "in the way".write(to: model, atomically: true, encoding: .utf8)
        let blocked = try CLI.strata(["generate"], in: root)
        #expect(blocked.status == 2)
        #expect(blocked.stderr == "error: cannot write Generated/MyTODO: a file is where a folder should be; nothing was changed\n")
        #expect(TestPaths.files(under: root.appendingPathComponent("Generated")) == ["MyTODO"])
    }

    @Test("a directory at a generated file's path is an error, and the directory and its files stay")
    func directoryIsNeverRemoved() throws {
        let root = try Self.generatedCopy()
        let swift = root.appendingPathComponent("Generated/MyTODO/Swift/MyTODOModels.swift")
        try FileManager.default.removeItem(at: swift)
        try FileManager.default.createDirectory(at: swift, withIntermediateDirectories: true)
        try "mine".write(to: swift.appendingPathComponent("notes.txt"), atomically: true, encoding: .utf8)
        let result = try CLI.strata(["generate"], in: root)
        #expect(result.status == 2)
        #expect(result.stderr.contains("cannot write Generated/MyTODO/Swift/MyTODOModels.swift: a directory is in the way"))
        #expect(try String(contentsOf: swift.appendingPathComponent("notes.txt"), encoding: .utf8) == "mine")
        #expect(Self.leftovers(root).isEmpty)
    }

    @Test("a file without Strata's header at a generated file's path is not replaced")
    func usersFileIsNeverReplaced() throws {
        let root = try Self.generatedCopy()
        let file = root.appendingPathComponent("Generated/MyTODO/sqlite/schema.sql")
        try "-- my own notes\n".write(to: file, atomically: true, encoding: .utf8)
        let result = try CLI.strata(["generate"], in: root)
        #expect(result.status == 2)
        #expect(result.stderr.contains("was not written by Strata"))
        #expect(try String(contentsOf: file, encoding: .utf8) == "-- my own notes\n")
    }

    @Test("an unreadable strata.lock is an error: an edited frozen version is not accepted for good")
    func unreadableLockIsAnError() throws {
        let root = try Self.generatedCopy()
        let lock = root.appendingPathComponent("Schemas/MyTODO/strata.lock")
        try Data([0xFF, 0xFE, 0x00, 0x80]).write(to: lock)
        let v1 = root.appendingPathComponent("Schemas/MyTODO/v1.yaml")
        try (try String(contentsOf: v1, encoding: .utf8) + "\n# edited\n").write(to: v1, atomically: true, encoding: .utf8)
        for command in ["lint", "generate"] {
            let result = try CLI.strata([command], in: root)
            #expect(result.status == 1, "\(command): \(result.stderr)")
            #expect(result.stderr.contains("Schemas/MyTODO/strata.lock:1:1: error: cannot read strata.lock"), "\(result.stderr)")
        }
        #expect(try Data(contentsOf: lock) == Data([0xFF, 0xFE, 0x00, 0x80]))
    }

    @Test("a malformed line of strata.lock is an error at its line")
    func malformedLockLine() throws {
        let root = try Self.generatedCopy()
        let lock = root.appendingPathComponent("Schemas/MyTODO/strata.lock")
        let text = try String(contentsOf: lock, encoding: .utf8)
        try text.replacingOccurrences(of: "v2.yaml sha256:", with: "v2.yaml sha1:").write(to: lock, atomically: true, encoding: .utf8)
        let result = try CLI.strata(["lint"], in: root)
        #expect(result.status == 1)
        #expect(result.stderr.contains("Schemas/MyTODO/strata.lock:4:1: error: this line of strata.lock is not"), "\(result.stderr)")
    }
}
