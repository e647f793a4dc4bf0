import Foundation
import StrataCore
import Testing

/// Paths and models of the SQL tests, found from this file's location.
enum SQLTestModels {
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let fixtures = packageRoot.appendingPathComponent("Tests/StrataSQLTests/Fixtures")
    /// This target's test models.
    static let models = fixtures.appendingPathComponent("Models")
    /// The reference SQL files, `Golden/<Model>/<dialect>/…`.
    static let golden = fixtures.appendingPathComponent("Golden")
    /// The app's schemas.
    static let schemas = packageRoot.appendingPathComponent("Schemas")
    /// The committed generated output.
    static let generated = packageRoot.appendingPathComponent("Generated")
    /// The foundation's test models (also executed here, when present).
    static let sharedModels = packageRoot.appendingPathComponent("Tests/Fixtures/Models")

    /// True when reference files should be rewritten instead of compared (`STRATA_UPDATE_GOLDEN=1`).
    static var updatingGolden: Bool { ProcessInfo.processInfo.environment["STRATA_UPDATE_GOLDEN"] == "1" }

    /// A model folder: its name and the folder holding it.
    struct Source: CustomTestStringConvertible, Sendable {
        var model: String
        var folder: URL
        var testDescription: String { model }
    }

    /// The models with reference SQL: the app's MyTODO and this target's fixtures.
    static var referenced: [Source] {
        [Source(model: "MyTODO", folder: schemas)] + modelNames(in: models).map { Source(model: $0, folder: models) }
    }

    /// Every model whose SQL is executed: the referenced ones and the foundation's test models.
    static var all: [Source] {
        referenced + modelNames(in: sharedModels).map { Source(model: $0, folder: sharedModels) }
    }

    static func modelNames(in folder: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { !$0.hasPrefix(".") }
            .sorted()
    }

    /// The validated history of a model; records an issue when it does not load cleanly.
    static func history(_ source: Source, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws
        -> SchemaHistory
    {
        let (history, _, diagnostics) = SchemaLoader.loadModel(named: source.model, in: source.folder.path)
        let errors = diagnostics.filter { $0.severity == .error }
        #expect(errors.isEmpty, "\(source.model) does not load: \(errors)", sourceLocation: sourceLocation)
        return try #require(history, sourceLocation: sourceLocation)
    }

    /// The fixture model with this name.
    static func fixture(_ name: String) throws -> SchemaHistory {
        try history(Source(model: name, folder: models))
    }
}
