import Foundation
import StrataCore
import StrataTestSupport
import Testing

/// Reference tests: the output for each fixture model, byte for byte, with a unified diff on mismatch.
/// Rewrite the references after reviewing a change with `STRATA_UPDATE_GOLDEN=1 swift test`.
@Suite struct GoldenTests {
    static let models = TestPaths.files(under: TestPaths.models)
        .compactMap { $0.split(separator: "/").first.map(String.init) }
        .reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }

    @Test(arguments: models)
    func outputMatchesReference(model: String) throws {
        let (history, _, diagnostics) = SchemaLoader.loadModel(named: model, in: TestPaths.models.path)
        #expect(diagnostics.filter { $0.severity == .error }.isEmpty, "\(diagnostics)")
        let history_ = try #require(history)
        let files = Generator.files(for: history_)
        let folder = TestPaths.golden
        if TestPaths.updatingGolden {
            let modelFolder = folder.appendingPathComponent(model)
            for stale in TestPaths.files(under: modelFolder) {
                try FileManager.default.removeItem(at: modelFolder.appendingPathComponent(stale))
            }
            for file in files {
                let url = folder.appendingPathComponent(file.path)
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try file.contents.write(to: url, atomically: true, encoding: .utf8)
            }
            return
        }
        let expected = Set(TestPaths.files(under: folder.appendingPathComponent(model)).map { "\(model)/\($0)" })
        #expect(Set(files.map(\.path)) == expected, "generated files differ from the references in Tests/Fixtures/Golden")
        for file in files {
            let url = folder.appendingPathComponent(file.path)
            let reference = (try? String(contentsOf: url, encoding: .utf8)) ?? ""
            let diff = UnifiedDiff.render(old: reference, new: file.contents, oldPath: "reference/\(file.path)", newPath: "generated/\(file.path)")
            #expect(diff.isEmpty, "\(file.path) differs from its reference:\n\(diff)")
        }
    }

    @Test func generationIsDeterministic() throws {
        for model in Self.models {
            let first = SchemaLoader.loadModel(named: model, in: TestPaths.models.path).0.map { Generator.files(for: $0) }
            let second = SchemaLoader.loadModel(named: model, in: TestPaths.models.path).0.map { Generator.files(for: $0) }
            #expect(first == second)
            for file in first ?? [] {
                #expect(!file.contents.contains(TestPaths.packageRoot.path), "\(file.path) contains an absolute path")
            }
        }
    }
}
