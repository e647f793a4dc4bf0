import Foundation
import StrataTestSupport
import Testing

/// The Swift that a target naming one database gets (the committed `Generated/MyTODO/Swift`
/// files of that database, which `generate --databases` writes byte for byte) compiles on its
/// own: a PostgreSQL-only target gets the named queries without SQLite's module, a SQLite-only
/// one without PostgreSQL's.
@Suite("TODO app: one database's generated Swift")
struct OneDatabaseOutputTests {
    /// Generated/MyTODO/Swift of this repository.
    private static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Generated/MyTODO/Swift")

    /// The files of each database, as `OutputLayout.swiftFiles(model:databases:hasQueries:)` names them.
    private static let files: [TODOBackend: [String]] = [
        .sqlite: ["Models", "Records", "QueryRows", "Repositories", "Database", "Migrations", "Queries"],
        .postgres: [
            "Models", "Records", "QueryRows", "PostgresRepositories", "PostgresDatabase", "PostgresMigrations",
            "PostgresQueries",
        ],
    ]

    @Test(arguments: TODOBackend.allCases)
    func compilesWithoutTheOtherDatabasesModule(_ backend: TODOBackend) throws {
        let arguments = try #require(
            TypeSafetyTests.compilerArguments(), "the MyTODO module was not found next to the test bundle")
        let paths = (Self.files[backend] ?? []).map { Self.folder.appendingPathComponent("MyTODO\($0).swift").path }
        let other = backend == .sqlite ? "import StrataPostgres" : "import StrataSQLite"
        for path in paths {
            #expect(!(try String(contentsOfFile: path, encoding: .utf8)).contains(other), "\(path)")
        }
        // The named queries as the app calls them, on that database alone.
        let use = TestScratch.path("use", suffix: ".swift")
        defer { try? FileManager.default.removeItem(at: use) }
        // The row types nested in the model's queries enum, which the rows file declares for either.
        let call =
            backend == .sqlite
            ? """
            func use(_ db: MyTODODatabase) throws -> [TODOItem] { try db.filteredItems(isDone: false) }
            func rows(_ db: MyTODODatabase) throws -> [MyTODOQueries.SearchRow] { try db.search(pattern: "%", limit: 1) }
            let sql: String = MyTODOQueries.search
            """
            : """
            func use(_ db: MyTODOPostgresDatabase) async throws -> [TODOItem] { try await db.filteredItems(isDone: false) }
            func rows(_ db: MyTODOPostgresDatabase) async throws -> [MyTODOQueries.SearchRow] {
                try await db.search(pattern: "%", limit: 1)
            }
            let sql: String = MyTODOPostgresQueries.search
            """
        try call.write(to: use, atomically: true, encoding: .utf8)
        let checked = try TypeSafetyTests.swiftc(
            ["-typecheck", "-swift-version", "6", "-module-name", "MyTODOSubset"] + arguments + paths + [use.path])
        #expect(checked.status == 0, "\(checked.output)")
    }
}
