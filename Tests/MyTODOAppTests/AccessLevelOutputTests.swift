import Foundation
import StrataTestSupport
import Testing

/// A target whose `strata.yaml` says `access: internal` (or `package`) gets the TODO app's Swift
/// with no `public` declaration left, and it compiles, both databases and the named queries
/// included.
@Suite("TODO app: generated Swift at another access level")
struct AccessLevelOutputTests {
    /// The repository's root.
    private static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    @Test(arguments: ["internal", "package"])
    func compilesWithNoPublicDeclarationLeft(_ access: String) throws {
        let arguments = try #require(
            TypeSafetyTests.compilerArguments(), "the MyTODO module was not found next to the test bundle")
        let output = try TestScratch.folder("access-\(access)")
        defer { try? FileManager.default.removeItem(at: output) }
        // What the build plugin runs for such a target.
        let generator = Process()
        generator.executableURL = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("strata-generator")
        generator.arguments = [
            "build-plugin", "--model-folder", Self.root.appendingPathComponent("Schemas/MyTODO").path,
            "--output", output.path, "--databases", "sqlite,postgres", "--access", access,
        ]
        try generator.run()
        generator.waitUntilExit()
        #expect(generator.terminationStatus == 0)
        let folder = output.appendingPathComponent("MyTODO/Swift")
        let paths = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".swift") }
            .sorted().map { folder.appendingPathComponent($0).path }
        #expect(paths.count == 11)
        var declarations = 0
        for path in paths {
            let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
            #expect(!lines.contains { $0.drop { $0 == " " }.hasPrefix("public ") }, "\(path)")
            declarations += lines.filter { $0.drop { $0 == " " }.hasPrefix(access + " ") }.count
        }
        #expect(declarations > 50)
        // Used from the same module, as the target's own code uses it.
        let use = TestScratch.path("use", suffix: ".swift")
        defer { try? FileManager.default.removeItem(at: use) }
        try """
        func use(_ db: MyTODODatabase) throws -> [TODOItem] { try db.filteredItems(isDone: false) }
        func use(_ db: MyTODOPostgresDatabase) async throws -> [TODOItem] { try await db.filteredItems(isDone: false) }
        """.write(to: use, atomically: true, encoding: .utf8)
        let checked = try TypeSafetyTests.swiftc(
            ["-typecheck", "-swift-version", "6", "-module-name", "MyTODOAccess", "-package-name", "MyTODOAccessTests"]
                + arguments + paths + [use.path])
        #expect(checked.status == 0, "\(checked.output)")
    }
}
