import Foundation
import StrataCore
import StrataIntrospection
import StrataSQLText
import StrataTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Columns filled in batches on PostgreSQL (a new field computed by its transform, an optional
/// field made required): the layout of the migration file, how migrators read it, and on the
/// test server, rows the application writes meanwhile, a run killed in the middle of a backfill
/// and resumed, a backfill that fails and is undone, and the hold limit.
@Suite(.serialized) struct PostgresBackfillTests {
    static let v1 = """
        model: Shop
        version: 1
        entities:
          Customer:
            fields:
              id: { type: Int64, autoincrement: true }
              email: String
              name: String
              nickname: String?
        """

    /// v2: `score` computed from the row by `transform`, `nickname` made required (NULLs filled).
    static func v2(transform: String = "length(name) * 10", after: String? = nil) -> String {
        """
        model: Shop
        version: 2
        entities:
          Customer:
            fields:
              id: { type: Int64, autoincrement: true }
              email: String
              name: String
              nickname: { type: String, default: "" }
              score: { type: Int64, transform: "\(transform)" }
        """ + (after.map { "\nmigration:\n  after: { postgres: \"\($0)\", sqlite: \"SELECT 1\" }" } ?? "")
    }

    static func folder(_ v2: String = v2()) throws -> String {
        try Models.temporary("Shop", versions: [v1, v2]).folder
    }

    static func migrate(_ url: String, _ folder: String, _ extra: [String] = []) throws -> CLI.Result {
        try CLI.strata(["migrate", "--postgres", url, "--schemas", folder] + extra)
    }

    /// Shop at v1 with `rows` customers (every other one without a nickname).
    static func withShopAtV1(
        rows: Int, v2: String = v2(),
        _ body: (TestPostgresServer, PostgresSession, _ folder: String) async throws -> Void
    ) async throws {
        let server = try await TestPostgresServer.forTest()
        let folder = try folder(v2)
        try await server.withDatabase { session in
            let first = try migrate(session.url.description, folder, ["--to", "1"])
            #expect(first.status == 0, "\(first.stderr)")
            try await session.execute(
                #"INSERT INTO "customer" ("email", "name", "nickname") SELECT 'c' || g || '@x', repeat('n', 1 + g % 7), CASE WHEN g % 2 = 0 THEN 'nick' END FROM generate_series(1, \#(rows)) g"#
            )
            try await body(server, session, folder)
        }
    }

    /// The rows that do not hold what v2 says (score from the name, nickname filled), and what
    /// the backfill leaves behind (its trigger, function, check or step records).
    static func wrongRowsAndLeftovers(_ session: PostgresSession) async throws -> [String?] {
        try await session.textRows(
            sql: #"""
                SELECT (SELECT count(*) FROM "customer" WHERE "score" IS DISTINCT FROM length("name") * 10
                        OR "nickname" IS NULL OR ("id" % 2 = 0 AND "nickname" <> 'nick'))::text,
                       (SELECT count(*) FROM pg_trigger WHERE NOT tgisinternal)::text,
                       (SELECT count(*) FROM pg_proc WHERE proname LIKE '%strata%')::text,
                       (SELECT count(*) FROM pg_constraint WHERE conname LIKE '%not_null')::text,
                       (to_regclass('strata_migration_steps') IS NOT NULL)::text
                """#
        ).first ?? []
    }

    // MARK: The file, and how migrators read it

    @Test func theMigrationFillsInBatchesBetweenItsTransactions() throws {
        let folder = try Self.folder()
        let generated = try CLI.strata(["generate", "--schemas", folder, "--output", folder + "/Generated", "--databases", "postgres"])
        #expect(generated.status == 0, "\(generated.stderr)")
        let sql = try String(contentsOfFile: folder + "/Generated/Shop/postgres/migrations/v2.sql", encoding: .utf8)
        let script = try PostgresMigrationScript(SQLScriptSplitter.statements(sql, dialect: .postgres))
        guard script.steps.count == 7 else {
            Issue.record("\(script.steps)")
            return
        }
        // The column and its trigger, one backfill per column, then the checks proving NOT NULL.
        guard case .transaction(let expand) = script.steps[0] else {
            Issue.record("\(script.steps[0])")
            return
        }
        #expect(expand.count == 3)
        #expect(expand[0].hasPrefix(#"ALTER TABLE "customer" ADD COLUMN "score" BIGINT"#))
        #expect(expand.map(PostgresMigrationScript.undo(of:)).compactMap { $0 }.count == 3)
        guard case .backfill(let score) = script.steps[1], case .backfill(let nickname) = script.steps[2] else {
            Issue.record("\(script.steps)")
            return
        }
        #expect(nickname.condition == #""nickname" IS NULL"#)
        #expect(score.assignment == #""score" = (length(name) * 10)"#)
        #expect(score.condition == nil)
        for step in script.steps[3...] {
            guard case .own = step else {
                Issue.record("\(step)")
                return
            }
        }
        #expect(script.transaction.contains(#"ALTER TABLE "customer" ALTER COLUMN "score" SET NOT NULL"#))
        #expect(script.transaction.contains(#"DROP TRIGGER "customer_strata_backfill" ON "customer""#))
        #expect(!script.transaction.contains { $0.contains("UPDATE") })
    }

    @Test func aBatchFollowsTheKeyFromWhereTheLastOneStopped() throws {
        let backfill = try #require(PostgresBackfill(#"UPDATE "line" SET "total" = (qty * price) WHERE "total" IS NULL"#))
        let key = [
            PostgresBackfill.KeyColumn(name: "order", type: "bigint"), .init(name: "no", type: "integer"),
        ]
        let first = backfill.batch(key: key, after: nil, size: 500)
        #expect(!first.contains(") > ("))
        #expect(first.contains("ORDER BY \"order\", \"no\" LIMIT 500"))
        let next = backfill.batch(key: key, after: ["7", "it's"], size: 500)
        #expect(next.contains(#"("order", "no") > ('7'::bigint, 'it''s'::integer)"#))
        #expect(next.contains(#"WHERE ("total" IS NULL) AND"#))
        // Not a backfill: another table joined, or rows returned.
        #expect(PostgresBackfill(#"UPDATE "a" SET "x" = 1 FROM "b""#) == nil)
        #expect(PostgresBackfill(#"UPDATE "a" SET "x" = (SELECT 1 FROM b WHERE b.y = 2)"#) != nil)
        #expect(PostgresBackfill(#"UPDATE "a" SET "x" = 1 RETURNING "x""#) == nil)
    }

    @Test func aFileWithTransactionsMustEndWithTheVersionsOne() {
        #expect(throws: PostgresMigrationScript.Failure.self) {
            try PostgresMigrationScript(["BEGIN", #"ALTER TABLE "a" ADD COLUMN "b" INT"#, "COMMIT", #"DROP TABLE "c""#])
        }
        #expect(throws: PostgresMigrationScript.Failure.self) {
            try PostgresMigrationScript(["BEGIN", #"ALTER TABLE "a" ADD COLUMN "b" INT"#])
        }
        // Without BEGIN: the layout of one transaction, as before.
        let single = try? PostgresMigrationScript([#"ALTER TABLE "a" ADD COLUMN "b" INT"#, #"UPDATE "a" SET "b" = 1"#])
        #expect(single?.steps.isEmpty == true && single?.transaction.count == 2)
    }

    // MARK: On the server

    @Test("rows the application writes while the batches run end as v2 says, and nothing is left behind")
    func writesDuringTheBackfillAreKeptInStep() async throws {
        try await Self.withShopAtV1(rows: 3_000) { _, session, folder in
            let url = session.url.description
            let writer = try await PostgresSession.connect(to: session.url)
            // v1's code keeps inserting and updating while v2 is applied in batches of 5 rows.
            let running = try CLI.start(["migrate", "--postgres", url, "--schemas", folder, "--batch-size", "5"])
            var written = 0
            while running.process.isRunning {
                do {
                    try await writer.execute(
                        #"INSERT INTO "customer" ("email", "name") VALUES ('w\#(written)@x', 'writer\#(written)')"#)
                    // v1 may store no nickname: v2's trigger fills it, and recomputes the score.
                    try await writer.execute(
                        #"UPDATE "customer" SET "name" = "name" || 'x', "nickname" = NULL WHERE "id" = \#(1 + written % 3_000)"#)
                    written += 1
                } catch {
                    // Once v2 is committed, v1's insert (without a score) is refused.
                    try await Task.sleep(for: .milliseconds(100))
                    if running.process.isRunning { throw error }
                }
            }
            let result = CLI.finish(running)
            try await writer.close()
            #expect(result.status == 0, "\(result.stderr)")
            #expect(written > 0)
            // A writer's nickname of NULL was filled; every score is the name's.
            let check = try await session.textRows(
                sql: #"SELECT count(*)::text FROM "customer" WHERE "score" IS DISTINCT FROM length("name") * 10 OR "nickname" IS NULL"#)
            #expect(check.first?.first == "0")
            let leftovers = try await Self.wrongRowsAndLeftovers(session)
            #expect(Array(leftovers.dropFirst()) == ["0", "0", "0", "false"], "\(leftovers)")
            #expect(try await PostgresMigrateTests.ledger(session).count == 2)
        }
    }

    @Test("strata migrate killed (SIGKILL) in the middle of a backfill: the rerun resumes and ends as an uninterrupted run")
    func aRunKilledInTheMiddleOfABackfillResumes() async throws {
        var uninterrupted = ""
        try await Self.withShopAtV1(rows: 2_000) { server, session, folder in
            let result = try Self.migrate(session.url.description, folder, ["--batch-size", "100"])
            #expect(result.status == 0, "\(result.stderr)")
            uninterrupted = try server.dump(database: session.url.database)
        }
        try await Self.withShopAtV1(rows: 2_000) { server, session, folder in
            let url = session.url.description
            // Batches of one row, slow enough to be killed between two of them.
            try await MigrationKills.killInTheMiddleOfABackfill(session, folder: folder)
            // Half-way: v2 not in the ledger, its column and trigger there, the batches recorded.
            #expect(try await PostgresMigrateTests.ledger(session).count == 1)
            let recorded = try await session.textRows(
                sql: #"SELECT "step"::text, "done"::text FROM "strata_migration_steps" ORDER BY "step""#)
            #expect(recorded.first == ["1", "true"], "\(recorded)")

            let again = try Self.migrate(url, folder, ["--batch-size", "100"])
            #expect(again.status == 0, "\(again.stderr)")
            #expect(try await PostgresMigrateTests.ledger(session).count == 2)
            // The same schema and rows; the ledger's times differ.
            func kept(_ dump: String) -> [String] {
                PostgresMigrateTests.significantLines(dump).filter { !$0.hasPrefix("Shop\t") }
            }
            #expect(kept(try server.dump(database: session.url.database)) == kept(uninterrupted))
            let leftovers = try await Self.wrongRowsAndLeftovers(session)
            #expect(leftovers == ["0", "0", "0", "0", "false"], "\(leftovers)")
        }
    }

    @Test("strata migrate killed (SIGKILL) before each statement of a version run in several transactions: every rerun ends as an uninterrupted run")
    func killedAtEveryStatementBoundaryTheRerunEndsTheSame() async throws {
        let v1 = """
            model: Shop
            version: 1
            enums:
              Tier: { type: String, cases: [bronze, silver] }
            entities:
              Customer:
                fields:
                  id: { type: Int64, autoincrement: true }
                  email: String
                  name: String
                  nickname: String?
                  tier: { type: Tier, default: bronze }
            """
        // A concurrent index, a check replaced, a column computed and NULLs filled in batches.
        let v2 = """
            model: Shop
            version: 2
            enums:
              Tier: { type: String, cases: [bronze, silver, gold] }
            entities:
              Customer:
                fields:
                  id: { type: Int64, autoincrement: true }
                  email: String
                  name: String
                  nickname: { type: String, default: "" }
                  tier: { type: Tier, default: bronze }
                  score: { type: Int64, transform: "length(name) * 10" }
                indexes:
                  - [email]
            """
        let seed =
            #"INSERT INTO "customer" ("email", "name", "nickname", "tier") SELECT 'c' || g || '@x', repeat('n', 1 + g % 7), CASE WHEN g % 2 = 0 THEN 'nick' END, CASE WHEN g % 3 = 0 THEN 'silver' ELSE 'bronze' END FROM generate_series(1, 300) g"#
        // The index, the expand transaction's statements, the batches, the validations and the
        // version's transaction: every boundary was a kill point.
        #expect(try await Self.killedAtEveryStatement(v1: v1, v2: v2, seed: seed) >= 15)
    }

    @Test("a rolling version killed (SIGKILL) before each statement of its expand: every rerun ends as an uninterrupted run, and so does the contract")
    func rollingExpandKilledAtEveryStatementBoundaryTheRerunEndsTheSame() async throws {
        let v1 = """
            model: Shop
            version: 1
            entities:
              Customer:
                fields:
                  id: { type: Int64, autoincrement: true }
                  email: String
                  name: { type: String, default: "" }
                  note: String?
                indexes:
                  - { fields: [name], name: customer_by_name }
            """
        // A column renamed (with an index over it), one computed, one removed: side by side.
        let v2 = """
            model: Shop
            version: 2
            entities:
              Customer:
                fields:
                  id: { type: Int64, autoincrement: true }
                  email: String
                  fullName: { type: String, default: "", renamedFrom: name }
                  score: { type: Int64, transform: "length(name) * 10" }
                indexes:
                  - { fields: [fullName], name: customer_by_name }
            migration:
              rolling: true
              allowDataLoss: [Customer.note]
            """
        let seed =
            #"INSERT INTO "customer" ("email", "name", "note") SELECT 'c' || g || '@x', repeat('n', 1 + g % 7), 'x' FROM generate_series(1, 300) g"#
        #expect(try await Self.killedAtEveryStatement(v1: v1, v2: v2, seed: seed, contract: true) >= 12)
    }

    /// Runs `strata migrate` from v1 (with `seed`) to v2 killed before its 1st, 2nd, …
    /// statement, reruns it each time, and expects the database (schema and rows, `pg_dump`) as
    /// after an uninterrupted run; with `contract`, runs `--contract` after and expects the same
    /// again. Returns the number of kill points.
    static func killedAtEveryStatement(v1: String, v2: String, seed: String, contract: Bool = false) async throws -> Int {
        let server = try await TestPostgresServer.forTest()
        let (_, folder) = try Models.temporary("Shop", versions: [v1, v2])
        // The schema and rows, without the ledger's times.
        func kept(_ dump: String) -> [String] {
            PostgresMigrateTests.significantLines(dump).filter { !$0.hasPrefix("Shop\t") }
        }
        func contracted(_ session: PostgresSession) throws -> [String] {
            guard contract else { return [] }
            let result = try Self.migrate(session.url.description, folder, ["--contract"])
            #expect(result.status == 0, "\(result.stderr)")
            return kept(try server.dump(database: session.url.database))
        }
        let (uninterrupted, uninterruptedContracted) = try await server.withDatabase { session in
            #expect(try Self.migrate(session.url.description, folder, ["--to", "1"]).status == 0)
            try await session.execute(seed)
            let result = try Self.migrate(session.url.description, folder, ["--batch-size", "100"])
            #expect(result.status == 0, "\(result.stderr)")
            return (kept(try server.dump(database: session.url.database)), try contracted(session))
        }
        var killed = 0
        for statement in 1...80 {
            let done = try await server.withDatabase { session -> Bool in
                let url = session.url.description
                #expect(try Self.migrate(url, folder, ["--to", "1"]).status == 0)
                try await session.execute(seed)
                let running = try CLI.start(
                    ["migrate", "--postgres", url, "--schemas", folder, "--batch-size", "100"],
                    environment: ["STRATA_TEST_KILL_BEFORE_STATEMENT": String(statement)])
                let first = CLI.finish(running)
                guard running.process.terminationReason == .uncaughtSignal else {
                    // Fewer statements than that: the run went through.
                    #expect(first.status == 0, "\(first.stderr)")
                    return true
                }
                let again = try Self.migrate(url, folder, ["--batch-size", "100"])
                #expect(again.status == 0, "killed before statement \(statement), rerun: \(again.stderr)")
                #expect(
                    kept(try server.dump(database: session.url.database)) == uninterrupted,
                    "killed before statement \(statement)")
                #expect(try contracted(session) == uninterruptedContracted, "killed before statement \(statement), contracted")
                return false
            }
            if done { break }
            killed += 1
        }
        return killed
    }

    @Test("a backfill that fails on a row: exit 4, the column, trigger and step records removed")
    func aFailingBackfillIsUndone() async throws {
        // Division by zero on the names of length 4 (every seventh row).
        try await Self.withShopAtV1(rows: 500, v2: Self.v2(transform: "100 / (length(name) - 4)")) {
            server, session, folder in
            let url = session.url.description
            let dump = try server.dump(database: session.url.database)
            let failed = try Self.migrate(url, folder, ["--batch-size", "50"])
            #expect(failed.status == 4, "\(failed.stderr)")
            #expect(failed.stderr.contains("division by zero"), "\(failed.stderr)")
            #expect(failed.stderr.contains("v2 was rolled back"), "\(failed.stderr)")
            // The computed column is filled first: nothing was filled when it failed.
            #expect(
                PostgresMigrateTests.significantLines(try server.dump(database: session.url.database))
                    == PostgresMigrateTests.significantLines(dump))
        }
    }

    @Test("a version that fails after replacing a check (a case added) puts the old check back, validated")
    func aFailureAfterAConstraintSwapPutsTheOldOneBack() async throws {
        let server = try await TestPostgresServer.forTest()
        let v1 = """
            model: Shop
            version: 1
            enums:
              Tier: { type: String, cases: [bronze, silver] }
            entities:
              Customer:
                fields:
                  id: { type: Int64, autoincrement: true }
                  name: String
                  tier: { type: Tier, default: bronze }
            """
        let v2 = """
            model: Shop
            version: 2
            enums:
              Tier: { type: String, cases: [bronze, silver, gold] }
            entities:
              Customer:
                fields:
                  id: { type: Int64, autoincrement: true }
                  name: String
                  tier: { type: Tier, default: bronze }
                  score: { type: Int64, transform: "100 / (length(name) - 4)" }
            """
        let (_, folder) = try Models.temporary("Shop", versions: [v1, v2])
        let sql = try CLI.strata(["plan", "Shop", "--from", "1", "--dialect", "postgres", "--schemas", folder]).stdout
        #expect(sql.contains(#"ADD CONSTRAINT "customer_tier_check" CHECK ("tier" IN ('bronze', 'silver', 'gold')) NOT VALID"#), "\(sql)")
        try await server.withDatabase { session in
            let url = session.url.description
            #expect(try Self.migrate(url, folder, ["--to", "1"]).status == 0)
            try await session.execute(
                #"INSERT INTO "customer" ("name", "tier") SELECT repeat('n', 1 + g % 7), 'silver' FROM generate_series(1, 100) g"#)
            let dump = try server.dump(database: session.url.database)
            let failed = try Self.migrate(url, folder, ["--batch-size", "10"])
            #expect(failed.status == 4, "\(failed.stderr)")
            #expect(failed.stderr.contains("division by zero"), "\(failed.stderr)")
            #expect(
                PostgresMigrateTests.significantLines(try server.dump(database: session.url.database))
                    == PostgresMigrateTests.significantLines(dump))
            // The old check is back and enforced.
            await #expect(throws: (any Error).self) {
                try await session.execute(#"INSERT INTO "customer" ("name", "tier") VALUES ('x', 'gold')"#)
            }
        }
    }

    @Test("a statement that holds its locks longer than --lock-hold-limit is cancelled and its version rolled back")
    func theHoldLimitCancelsALongStatement() async throws {
        try await Self.withShopAtV1(rows: 10, v2: Self.v2(after: "SELECT pg_sleep(2)")) { server, session, folder in
            let url = session.url.description
            let dump = try server.dump(database: session.url.database)
            let failed = try Self.migrate(url, folder, ["--lock-hold-limit", "200ms"])
            #expect(failed.status == 4, "\(failed.stderr)")
            #expect(failed.stderr.contains("longer than the hold limit (200 ms"), "\(failed.stderr)")
            // The NULLs filled before the version's transaction stay filled (with v2's default);
            // all else is as it was.
            try await session.execute(#"UPDATE "customer" SET "nickname" = NULL WHERE "id" % 2 = 1"#)
            #expect(
                PostgresMigrateTests.significantLines(try server.dump(database: session.url.database))
                    == PostgresMigrateTests.significantLines(dump))
            let allowed = try Self.migrate(url, folder, ["--lock-hold-limit", "0"])
            #expect(allowed.status == 0, "\(allowed.stderr)")
        }
    }
}
