import Foundation
import StrataCore
import StrataTestSupport
import Testing

/// Bounds on any input, and guards that say what a migration may do to existing rows.
@Suite struct HardeningTests {
    /// A model folder `M` with the given version files, in a temporary folder.
    static func model(_ versions: [String]) throws -> URL {
        let root = try TestPaths.temporaryFolder()
        let folder = root.appendingPathComponent("M")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for (offset, text) in versions.enumerated() {
            try text.write(to: folder.appendingPathComponent("v\(offset + 1).yaml"), atomically: true, encoding: .utf8)
        }
        return root
    }

    @Test("an integer that becomes a reference gets a warning, and plan says the values must name rows")
    func integerBecomingReferenceWarns() throws {
        let v1 = "model: M\nversion: 1\nentities:\n  A:\n    fields:\n      id: Int64\n  B:\n    fields:\n      id: UUID\n      a: Int64\n"
        let v2 = "model: M\nversion: 2\nentities:\n  A:\n    fields:\n      id: Int64\n  B:\n    fields:\n      id: UUID\n      a: A\n"
        let root = try Self.model([v1, v2])
        let lint = try CLI.strata(["lint", "--schemas", "."], in: root)
        #expect(lint.status == 0)
        #expect(
            lint.stderr.contains(
                "./M/v2.yaml:10:10: warning: 'B.a' becomes a reference to A: if existing rows hold values that name no A, the migration fails and the database stays at version 1"
            ), "\(lint.stderr)")
        let plan = try CLI.strata(["plan", "M", "--schemas", "."], in: root)
        #expect(plan.stdout.contains("must each name a row of A"), "\(plan.stdout)")
        #expect(!plan.stdout.contains("(same stored values)"), "\(plan.stdout)")
    }

    @Test("a name past the length limit is a located error, computed without suggestions, in bounded time")
    func longNamesAreBounded() throws {
        // As long as the version-file size limit (1 MB) allows.
        let long = String(repeating: "Q", count: 1_000_000)
        // (YAML itself limits a plain mapping key to 1,024 characters.)
        let key = String(repeating: "K", count: 500)
        let text = "model: M\nversion: 1\nentities:\n  A:\n    fields:\n      id: UUID\n      x: \(long)\n      \(key): String\n"
        let root = try Self.model([text])
        let clock = ContinuousClock()
        let start = clock.now
        let lint = try CLI.strata(["lint", "--schemas", "."], in: root)
        let elapsed = clock.now - start
        #expect(lint.status == 1)
        #expect(lint.stderr.contains("./M/v1.yaml:7:10: error: the type of field 'x' is longer than 128 characters"), "\(lint.stderr.prefix(500))")
        #expect(lint.stderr.contains("./M/v1.yaml:8:7: error: the name 'KKKK"), "\(lint.stderr.prefix(500))")
        #expect(lint.stderr.utf8.count < 1_000, "messages do not repeat a long name")
        // A bound, not a benchmark: minutes before the limits, seconds now, even in a debug build.
        #expect(elapsed < .seconds(20))
    }

    @Test("a version file above the size limit is a located error")
    func largeFilesAreRefused() throws {
        let padding = String(repeating: "# padding\n", count: Limits.versionFileBytes / 10 + 1)
        let root = try Self.model(["model: M\nversion: 1\n" + padding])
        let lint = try CLI.strata(["lint", "--schemas", "."], in: root)
        #expect(lint.status == 1)
        #expect(lint.stderr.contains("./M/v1.yaml:1:1: error: './M/v1.yaml' is"), "\(lint.stderr)")
        #expect(lint.stderr.contains("version files are limited to 1048576 bytes"), "\(lint.stderr)")
    }

    @Test("misleading messages: a symbolic-link loop, deep nesting, a duplicate key in a CRLF file")
    func messagesSayWhatHappened() throws {
        let root = try TestPaths.temporaryFolder()
        try FileManager.default.createSymbolicLink(atPath: root.appendingPathComponent("a").path, withDestinationPath: "b")
        try FileManager.default.createSymbolicLink(atPath: root.appendingPathComponent("b").path, withDestinationPath: "a")
        let loop = try CLI.strata(["lint", "--schemas", "a"], in: root)
        #expect(loop.stderr.contains("a:1:1: error: schemas folder 'a' is a symbolic link that leads back to itself"), "\(loop.stderr)")

        let nested = try Self.model(["model: M\nversion: 1\nentities: " + String(repeating: "[", count: 2_000) + "\n"])
        let deep = try CLI.strata(["lint", "--schemas", "."], in: nested)
        #expect(deep.stderr.contains("error: malformed YAML: collections are nested too deeply"), "\(deep.stderr)")
        #expect(!deep.stderr.contains("yaml_set_max_nest_level"))

        let crlf = try Self.model([
            "model: M\r\nversion: 1\r\nentities:\r\n  A:\r\n    fields:\r\n      id: UUID\r\n  A:\r\n    fields:\r\n      id: UUID\r\n"
        ])
        let duplicate = try CLI.strata(["lint", "--schemas", "."], in: crlf)
        #expect(duplicate.stderr.contains("./M/v1.yaml:7:3: error: duplicate key 'A'"), "\(duplicate.stderr)")
    }
}
