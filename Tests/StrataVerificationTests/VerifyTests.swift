import Foundation
import StrataCore
import StrataIntrospection
import StrataTestSupport
import StrataVerification
import Testing

/// `strata verify`'s checks on every model: the chain of migrations equals a fresh schema, and
/// rows seeded at v1 survive every step, on SQLite and on a real PostgreSQL server.
@Suite struct VerifyTests {
    static let models: [(String, String)] = [
        ("MyTODO", Models.schemas), ("Evolution", Models.fixtures), ("Showcase", Models.fixtures),
    ]

    @Test(arguments: ["MyTODO", "Evolution", "Showcase"])
    func migrationsVerifyOnSQLite(model: String) async throws {
        let folder = model == "MyTODO" ? Models.schemas : Models.fixtures
        let history = try Models.load(model, in: folder)
        let report = try await MigrationVerifier().verify(
            history, chain: try SQLiteVerificationDatabase(model: model), fresh: try SQLiteVerificationDatabase(model: model))
        #expect(report.passed, "\(report.lines.joined(separator: "\n"))")
        #expect(report.rowsSeeded.allSatisfy { $0.count == 200 })
        #expect(report.valuesCompared > 0)
        Self.expectSearchProved(report, model: model)
    }

    @Test(arguments: ["MyTODO", "Evolution", "Showcase"])
    func migrationsVerifyOnPostgreSQL(model: String) async throws {
        let server = try await TestPostgresServer.forTest()
        let folder = model == "MyTODO" ? Models.schemas : Models.fixtures
        let history = try Models.load(model, in: folder)
        let report = try await PostgresScratch.verify(history, url: server.url.description, verifier: MigrationVerifier())
        #expect(report.passed, "\(report.lines.joined(separator: "\n"))")
        #expect(report.rowsSeeded.allSatisfy { $0.count == 200 })
        #expect(report.valuesCompared > 0)
        Self.expectSearchProved(report, model: model)
    }

    /// Evolution's v6 searches Writer: the rows seeded at v1 and migrated are in its index.
    static func expectSearchProved(_ report: VerificationReport, model: String) {
        let proved = report.notes.contains { $0.hasPrefix("full-text search of Writer (displayName, bio; english): the index agrees") }
        #expect(proved == (model == "Evolution"), "\(report.notes)")
    }

    /// `verify --postgres` prepares every named query on PostgreSQL and lists those it refuses,
    /// without failing: their functions are generated for SQLite.
    @Test func namedQueriesArePreparedOnPostgreSQL() async throws {
        let server = try await TestPostgresServer.forTest()
        var history = try Models.load("MyTODO", in: Models.schemas)
        #expect(history.queries.count == 4)
        let portable = try await PostgresScratch.verify(history, url: server.url.description, verifier: MigrationVerifier())
        #expect(portable.queriesPrepared == 4)
        #expect(portable.queryProblems.isEmpty, "\(portable.queryProblems)")
        // SQLite compares a Bool column with 0; PostgreSQL does not.
        var sqliteOnly = history.queries[0]
        sqliteOnly.source.name = "sqliteOnly"
        sqliteOnly.source.sql = "SELECT title FROM todo_item WHERE is_done = 0 AND title = :title"
        sqliteOnly.parameters = [.init(name: "title", swiftType: "String")]
        history.queries.append(sqliteOnly)
        let report = try await PostgresScratch.verify(history, url: server.url.description, verifier: MigrationVerifier())
        #expect(report.passed)
        #expect(report.queriesPrepared == 5)
        #expect(report.queryProblems.count == 1)
        let problem = try #require(report.queryProblems.first)
        #expect(problem.hasPrefix("'sqliteOnly' ("), "\(problem)")
        #expect(problem.contains("items.sql:4:10) does not run on PostgreSQL: "), "\(problem)")
        #expect(problem.contains("operator does not exist: boolean = integer"), "\(problem)")
        #expect(report.lines.contains("  queries: 5 named queries prepared, 1 do not run here"))
    }

    /// The verifier itself must notice what goes wrong: a lost row, a changed value, a schema that differs.
    @Test func verifierReportsLostRowsChangedValuesAndSchemaDifferences() async throws {
        let history = try Models.load("Evolution", in: Models.fixtures)
        let tampering = TamperingDatabase(
            base: try SQLiteVerificationDatabase(model: "Evolution"),
            afterVersion: 5,
            script: """
                DELETE FROM "post" WHERE rowid IN (SELECT rowid FROM "post" LIMIT 1);
                UPDATE "writer" SET "slug" = 'tampered' WHERE "id" = 7;
                CREATE INDEX "extra_idx" ON "writer" ("email");
                """)
        let report = try await MigrationVerifier().verify(history, chain: tampering, fresh: try SQLiteVerificationDatabase(model: "Evolution"))
        #expect(!report.passed)
        #expect(report.dataProblems.contains { $0.contains("v5 Post") && $0.contains("200 rows before the migration, 199 after") })
        #expect(report.dataProblems.contains { $0.contains("v5 Writer") && $0.contains("field slug: 'tampered'") })
        #expect(report.schemaDifferences.contains { $0.contains("extra_idx") })
    }
}

/// A database that runs extra SQL right after one version's migration: a migration gone wrong.
final class TamperingDatabase: VerificationDatabase {
    let base: SQLiteVerificationDatabase
    let afterVersion: Int
    let script: String
    var dialect: SQLDialect { base.dialect }

    init(base: SQLiteVerificationDatabase, afterVersion: Int, script: String) {
        self.base = base
        self.afterVersion = afterVersion
        self.script = script
    }

    func execute(_ script: String) async throws { try await base.execute(script) }
    func applyMigration(version: Int, sql: String) async throws {
        try await base.applyMigration(version: version, sql: sql)
        if version == afterVersion { try await base.execute(script) }
    }
    func textRows(_ sql: String) async throws -> [[String?]] { try await base.textRows(sql) }
    func rowsAfter(_ script: String?, _ query: String) async throws -> [[String?]] { try await base.rowsAfter(script, query) }
    func schema() async throws -> DatabaseSchema { try await base.schema() }
}
