import Foundation
import GRDB
import StrataCore
import StrataSQLite
import Testing

/// Models for the migration tests: the repository's own and the fixtures.
public enum Models {
    public static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    public static let schemas = packageRoot.appendingPathComponent("Schemas").path
    public static let fixtures = packageRoot.appendingPathComponent("Tests/Fixtures/Models").path

    public static func load(_ name: String, in folder: String) throws -> SchemaHistory {
        let (history, _, diagnostics) = SchemaLoader.loadModel(named: name, in: folder)
        #expect(!diagnostics.contains { $0.severity == .error }, "\(diagnostics)")
        return try #require(history)
    }

    /// A model written to a temporary folder from YAML texts, one per version.
    public static func temporary(_ name: String, versions: [String]) throws -> (history: SchemaHistory, folder: String) {
        let folder = TestScratch.path("strata-migration")
        let model = folder.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: model, withIntermediateDirectories: true)
        for (offset, text) in versions.enumerated() {
            try text.write(to: model.appendingPathComponent("v\(offset + 1).yaml"), atomically: true, encoding: .utf8)
        }
        return (try load(name, in: folder.path), folder.path)
    }

    /// The SQLite migrations of a model, as `strata migrate` and generated code apply them.
    public static func migrator(_ history: SchemaHistory) -> SQLiteMigrator {
        SQLiteMigrator(
            model: history.model,
            migrations: MigrationSources.sqlite(for: history).map(StrataMigration.init))
    }
}
