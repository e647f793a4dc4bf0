import Foundation

/// Paths of the package and its fixtures, found from this file's location.
public enum TestPaths {
    /// The package's root folder.
    public static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    /// `Tests/Fixtures`.
    public static let fixtures = packageRoot.appendingPathComponent("Tests/Fixtures")
    /// `Tests/Fixtures/Models`: the fixture models.
    public static let models = fixtures.appendingPathComponent("Models")
    /// `Tests/Fixtures/Golden`: reference output.
    public static let golden = fixtures.appendingPathComponent("Golden")
    /// `Tests/Fixtures/Bad`: the bad-schema corpus.
    public static let bad = fixtures.appendingPathComponent("Bad")
    /// `Schemas`: the TODO app's model.
    public static let schemas = packageRoot.appendingPathComponent("Schemas")
    /// `Generated`: the TODO app's committed output.
    public static let generated = packageRoot.appendingPathComponent("Generated")

    /// True when golden files should be rewritten instead of compared (`STRATA_UPDATE_GOLDEN=1`).
    public static var updatingGolden: Bool { ProcessInfo.processInfo.environment["STRATA_UPDATE_GOLDEN"] == "1" }

    /// A new empty temporary folder.
    public static func temporaryFolder() throws -> URL {
        let url = TestScratch.path("strata-tests")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Copies `source` into a new temporary folder and returns the copy's URL.
    public static func copy(_ source: URL) throws -> URL {
        let folder = try temporaryFolder().appendingPathComponent(source.lastPathComponent)
        try FileManager.default.copyItem(at: source, to: folder)
        return folder
    }

    /// Every file below `folder`, as paths relative to it, sorted.
    public static func files(under folder: URL) -> [String] {
        guard let enumerator = FileManager.default.enumerator(atPath: folder.path) else { return [] }
        var result: [String] = []
        while let path = enumerator.nextObject() as? String {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: folder.appendingPathComponent(path).path, isDirectory: &isDirectory),
                !isDirectory.boolValue
            {
                result.append(path)
            }
        }
        return result.sorted()
    }
}
