import Foundation
import GRDB
import StrataCore
import StrataIntrospection
import StrataTestSupport
import Testing

/// The committed Generated/MyTODO SQL runs cleanly in the `sqlite3` and `psql` command-line
/// clients (stopping at the first error), and yields the schema of the model.
@Suite struct CommandLineClientTests {
    static let files = ["schema.sql", "migrations/v1.sql"]

    static func history() throws -> SchemaHistory {
        try SQLTestModels.history(SQLTestModels.referenced[0])
    }

    static func schema(for file: String, in history: SchemaHistory) throws -> Schema {
        try #require(file == "schema.sql" ? history.latest : history.version(1))
    }

    @Test(arguments: files)
    func sqlite3RunsGeneratedMyTODO(_ file: String) throws {
        guard let sqlite3 = ProcessRunner.locate("sqlite3") else {
            if TestPostgresServer.isCI { Issue.record("sqlite3 is not installed, and CI=true requires it") }
            try Test.cancel("skipped: the sqlite3 command-line client is not installed")
        }
        let path = SQLTestModels.generated.appendingPathComponent("MyTODO/sqlite/\(file)").path
        let database = TestScratch.path("strata", suffix: ".sqlite").path
        defer { try? FileManager.default.removeItem(atPath: database) }
        let script = try String(contentsOfFile: path, encoding: .utf8)
        let result = try ProcessRunner.run([sqlite3, "-bail", "-batch", database], input: script)
        #expect(result.status == 0, "sqlite3 failed:\n\(result.output)")
        #expect(result.output.isEmpty, "sqlite3 printed:\n\(result.output)")
        let queue = try DatabaseQueue(path: database)
        let actual = try queue.read { db in try SQLiteIntrospector.schema(of: db) }
        let history = try Self.history()
        let report = SchemaComparison().report(
            expected: ExpectedSchema.of(try Self.schema(for: file, in: history), dialect: .sqlite), actual: actual)
        #expect(report.isEmpty, "\(file) through sqlite3:\n\(report)")
    }

    @Test(arguments: files)
    func psqlRunsGeneratedMyTODO(_ file: String) async throws {
        let server = try await TestPostgresServer.forTest()
        let path = SQLTestModels.generated.appendingPathComponent("MyTODO/postgres/\(file)").path
        let history = try Self.history()
        let expected = ExpectedSchema.of(try Self.schema(for: file, in: history), dialect: .postgres)
        try await server.withDatabase { session in
            let result = try server.psql(
                database: session.url.database, arguments: ["--single-transaction", "-f", path])
            #expect(result.status == 0, "psql failed:\n\(result.output)")
            #expect(result.output.isEmpty, "psql printed:\n\(result.output)")
            let actual = try await PostgresIntrospector.schema(of: session)
            let report = SchemaComparison().report(expected: expected, actual: actual)
            #expect(report.isEmpty, "\(file) through psql:\n\(report)")
        }
    }
}
