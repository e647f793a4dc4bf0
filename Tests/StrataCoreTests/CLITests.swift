import Foundation
import StrataTestSupport
import Testing

/// The `strata` executable itself: exit statuses, where output goes, `--help`.
@Suite struct CLITests {
    @Test func badSchemaExitsOneWithCompilerStyleDiagnosticsAndWritesNothing() throws {
        let root = try TestPaths.copy(TestPaths.bad.appendingPathComponent("many-problems-at-once"))
        let result = try CLI.strata(["generate", "--schemas", ".", "--output", "Generated"], in: root)
        #expect(result.status == 1)
        #expect(result.stderr.contains("./M/v1.yaml:12:14: error: unknown type 'Colour'; did you mean 'Color'?"))
        #expect(result.stderr.contains("5 errors"))
        #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent("Generated").path))
        #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent("M/strata.lock").path))
    }

    @Test func lintReportsJSONForTools() throws {
        let root = try TestPaths.copy(TestPaths.bad.appendingPathComponent("unknown-type"))
        let result = try CLI.strata(["lint", "--schemas", ".", "--format", "json"], in: root)
        #expect(result.status == 1)
        let items = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]]
        #expect(items?.count == 1)
        #expect(items?.first?["line"] as? Int == 7)
        #expect(items?.first?["column"] as? Int == 14)
        #expect(items?.first?["severity"] as? String == "error")
    }

    @Test func generateThenCheckSucceedOnAFreshCopy() throws {
        let root = try TestPaths.temporaryFolder()
        try FileManager.default.createDirectory(at: root.appendingPathComponent("Schemas"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: TestPaths.schemas.appendingPathComponent("MyTODO"), to: root.appendingPathComponent("Schemas/MyTODO"))
        #expect(try CLI.strata(["check"], in: root).status == 1, "nothing generated yet")
        let generate = try CLI.strata(["generate"], in: root)
        #expect(generate.status == 0, "\(generate.stderr)")
        #expect(generate.stdout.contains("wrote Generated/MyTODO/Swift/MyTODOModels.swift"))
        let check = try CLI.strata(["check"], in: root)
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        let again = try CLI.strata(["generate"], in: root)
        #expect(again.stdout.contains("up to date"))
    }

    @Test func staleOutputPrintsAUnifiedDiff() throws {
        let root = try TestPaths.temporaryFolder()
        try FileManager.default.createDirectory(at: root.appendingPathComponent("Schemas"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: TestPaths.schemas.appendingPathComponent("MyTODO"), to: root.appendingPathComponent("Schemas/MyTODO"))
        #expect(try CLI.strata(["generate"], in: root).status == 0)
        let v3 = root.appendingPathComponent("Schemas/MyTODO/v3.yaml")
        try (try String(contentsOf: v3, encoding: .utf8)).replacingOccurrences(of: "default: middle", with: "default: low")
            .write(to: v3, atomically: true, encoding: .utf8)
        let check = try CLI.strata(["check"], in: root)
        #expect(check.status == 1)
        #expect(check.stdout.contains("--- Generated/MyTODO/Swift/MyTODOModels.swift"))
        #expect(check.stdout.contains("+        priority: Priority = .low"))
        #expect(check.stderr.contains("is stale"))
    }

    @Test func usageErrorsExit64AndHelpDescribesCommands() throws {
        let usage = try CLI.strata(["generate", "--no-such-flag"])
        #expect(usage.status == 64)
        let help = try CLI.strata(["--help"])
        #expect(help.status == 0)
        for command in ["generate", "check", "lint"] {
            #expect(help.stdout.contains(command))
        }
    }

    /// `--help` re-wraps each paragraph of a command's description to the terminal's width, so a
    /// line break written into the source text shows up as a short, ragged line. A paragraph's lines,
    /// all but its last, must be nearly full width (indented lines, such as examples, are exempt).
    @Test(arguments: [
        ("strata", []), ("strata", ["generate"]), ("strata", ["check"]), ("strata", ["lint"]), ("strata", ["plan"]),
        ("strata", ["migrate"]), ("strata", ["verify"]), ("strata", ["import"]), ("strata", ["import", "coredata"]),
        ("strata", ["import", "coredata-store"]), ("strata", ["import", "database"]),
        ("strata-generator", []), ("strata-generator", ["build-plugin"]), ("strata-generator", ["generate-models"]),
    ] as [(String, [String])])
    func helpParagraphsAreWrappedOnlyByArgumentParser(tool: String, command: [String]) throws {
        let help = try CLI.run(tool, command + ["--help"])
        #expect(help.status == 0, "\(tool) \(command) --help: \(help.stderr)")
        let description = help.stdout.components(separatedBy: "USAGE:")[0]
        for paragraph in description.components(separatedBy: "\n\n") {
            let lines = paragraph.split(separator: "\n", omittingEmptySubsequences: true)
            for (line, next) in zip(lines, lines.dropFirst()) where !line.hasPrefix(" ") && !next.hasPrefix(" ") {
                #expect(line.count >= 45, "\(tool) \(command.joined(separator: " ")) --help breaks a paragraph early: \"\(line)\"")
            }
        }
    }
}
