import Foundation
import StrataCore
import StrataTestSupport
import Testing

/// Generated Swift passes `swift format lint --strict` with the repository's configuration.
@Suite struct SwiftFormatLintTests {
    @Test func generatedSwiftPassesSwiftFormatLint() throws {
        let folder = try TestPaths.temporaryFolder()
        var paths: [String] = []
        for (root, model) in [(TestPaths.schemas, "MyTODO"), (TestPaths.models, "Showcase")] {
            let history = try #require(SchemaLoader.loadModel(named: model, in: root.path).0)
            for file in Generator.files(for: history) where file.path.hasSuffix(".swift") {
                let url = folder.appendingPathComponent(file.path)
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try file.contents.write(to: url, atomically: true, encoding: .utf8)
                paths.append(url.path)
            }
        }
        #expect(!paths.isEmpty)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        let configuration = TestPaths.packageRoot.appendingPathComponent(".swift-format").path
        process.arguments = ["swift", "format", "lint", "--strict", "--configuration", configuration] + paths
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let report = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(report)")
    }
}
