import Foundation
import StrataCore
import StrataTestSupport
import Testing

/// What the build plugin and `strata migrate` render: only what they use, and byte for byte what
/// `strata generate` writes.
@Suite struct GeneratedOutputsTests {
    private static let databaseSets: [[SQLDialect]] = [[.sqlite], [.postgres], [.sqlite, .postgres]]

    private func history(_ model: String) throws -> SchemaHistory {
        let (history, _, diagnostics) = SchemaLoader.loadModel(named: model, in: TestPaths.models.path)
        #expect(diagnostics.filter { $0.severity == .error }.isEmpty, "\(diagnostics)")
        return try #require(history)
    }

    @Test(arguments: GoldenTests.models)
    func swiftOnlyIsTheSwiftOfEverything(model: String) throws {
        let history = try history(model)
        for databases in Self.databaseSets {
            let everything = Generator.files(for: history, databases: databases)
            let swiftOnly = Generator.files(for: history, databases: databases, outputs: .swiftOnly)
            #expect(!swiftOnly.isEmpty)
            #expect(swiftOnly.allSatisfy { $0.path.hasSuffix(".swift") }, "\(swiftOnly.map(\.path))")
            // The same files, in the same order, with the same bytes (the migrations embedded).
            #expect(swiftOnly == everything.filter { $0.path.hasSuffix(".swift") }, "\(model) \(databases)")
            #expect(everything.count > swiftOnly.count, "generate writes SQL too")
        }
    }

    @Test(arguments: GoldenTests.models)
    func migrationSourcesAreTheMigrationFilesGenerateWrites(model: String) throws {
        let history = try history(model)
        let plans = Generator.migrationPlans(for: history)
        let everything = Generator.files(for: history, plans: plans)
        for dialect in SQLDialect.allCases {
            let sources = dialect == .sqlite ? MigrationSources.sqlite(for: history) : MigrationSources.postgres(for: history)
            // As the generator hands them to the Swift it embeds them in: from every file.
            let fromEverything = MigrationSources.of(dialect, history: history, plans: plans, in: everything)
            #expect(sources == fromEverything, "\(model) \(dialect)")
            #expect(sources.map(\.version) == Array(1...history.versions.count))
            let folder = "\(model)/\(dialect.folderName)/migrations"
            for source in sources {
                #expect(everything.first { $0.path == "\(folder)/v\(source.version).sql" }?.contents == source.sql)
            }
        }
    }
}
