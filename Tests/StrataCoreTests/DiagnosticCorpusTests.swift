import Foundation
import StrataCore
import StrataTestSupport
import Testing

/// Every bad schema under Tests/Fixtures/Bad/<case>/ gets exactly the diagnostics of its
/// `expected.txt` (paths relative to the case folder), exit status 1, and no file written.
@Suite struct DiagnosticCorpusTests {
    static let cases: [String] = ((try? FileManager.default.contentsOfDirectory(atPath: TestPaths.bad.path)) ?? []).sorted()

    @Test(arguments: cases)
    func reportsExpectedDiagnostics(name: String) throws {
        let folder = TestPaths.bad.appendingPathComponent(name)
        let output = try TestPaths.temporaryFolder()
        let plan = Workspace.plan(schemas: folder.path, output: output.path)
        let lines = plan.diagnostics.map { $0.description.replacingOccurrences(of: folder.path + "/", with: "") }
        let expectedURL = folder.appendingPathComponent("expected.txt")
        if TestPaths.updatingGolden {
            try (lines.joined(separator: "\n") + "\n").write(to: expectedURL, atomically: true, encoding: .utf8)
        }
        let expected = try String(contentsOf: expectedURL, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(lines == expected)
        #expect(plan.hasErrors)
        #expect(try Workspace.write(plan).isEmpty)
        #expect(TestPaths.files(under: output).isEmpty)
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("M/strata.lock").path))
    }

    @Test func everyCaseHasAnExpectation() {
        #expect(Self.cases.count >= 20)
        for name in Self.cases {
            #expect(FileManager.default.fileExists(atPath: TestPaths.bad.appendingPathComponent("\(name)/expected.txt").path), "\(name)")
        }
    }
}
