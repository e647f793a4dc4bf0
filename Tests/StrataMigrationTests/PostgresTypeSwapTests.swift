import Foundation
import StrataCore
import StrataIntrospection
import StrataSQLText
import StrataTestSupport
import Testing

/// Type changes on PostgreSQL applied through a shadow column (`<column>_strata_new`) filled in
/// batches and swapped in the version's transaction, instead of `ALTER COLUMN … TYPE` rewriting
/// the table under ACCESS EXCLUSIVE: the layout of the migration, and on the test server, a
/// writer's rows kept through it, a run killed in the middle or at any statement and resumed,
/// `strata verify`, and the cases left to `ALTER TYPE`.
@Suite(.serialized) struct PostgresTypeSwapTests {
    static let v1 = """
        model: Shop
        version: 1
        entities:
          Post:
            fields:
              id: { type: Int64, autoincrement: true }
              title: String
              views: Int32
              rating: String
              code: { type: String, unique: true }
            indexes:
              - { fields: [views, title] }
        """

    /// Int32 -> Int64 (a cast), String -> Double and String -> Int64 (transforms), the index
    /// over `views` and the unique constraint of `code` rebuilt over the shadows.
    static let v2 = """
        model: Shop
        version: 2
        entities:
          Post:
            fields:
              id: { type: Int64, autoincrement: true }
              title: String
              views: { type: Int64, default: 0 }
              rating: { type: Double, transform: "CAST(rating AS DOUBLE PRECISION)" }
              code: { type: Int64, unique: true, transform: "CAST(substr(code, 2) AS BIGINT)" }
            indexes:
              - { fields: [views, title] }
        """

    static func folder(_ versions: [String] = [v1, v2]) throws -> String {
        try Models.temporary("Shop", versions: versions).folder
    }

    static func migrate(_ url: String, _ folder: String, _ extra: [String] = []) throws -> CLI.Result {
        try CLI.strata(["migrate", "--postgres", url, "--schemas", folder] + extra)
    }

    /// Rows at v1: `views` is the id, `title` 't', `rating` '<id % 10>.5', `code` 'C<id>'.
    static func seed(_ session: PostgresSession, rows: Int) async throws {
        try await session.execute(seedSQL(rows: rows))
    }

    static func seedSQL(rows: Int) -> String {
        #"INSERT INTO "post" ("title", "views", "rating", "code") SELECT 't', g, (g % 10) || '.5', 'C' || g FROM generate_series(1, \#(rows)) g"#
    }

    /// The rows that do not hold what v2 says of them: seeded rows whose views are not the id
    /// plus one per `x` a writer appended to the title, rows a writer inserted ('w<n>') whose
    /// views are not n; ratings and codes not those of v1's text.
    static func wrongRows(_ session: PostgresSession) async throws -> String? {
        try await session.textRows(
            sql: #"""
                SELECT count(*)::text FROM "post" WHERE
                  CASE WHEN "title" LIKE 'w%' THEN "views" IS DISTINCT FROM substr("title", 2)::bigint
                            OR "rating" IS DISTINCT FROM substr("title", 2)::bigint + 0.25
                       ELSE "views" IS DISTINCT FROM "id" + length("title") - 1
                            OR "rating" IS DISTINCT FROM ("id" % 10) + 0.5 END
                  OR "code" IS DISTINCT FROM CASE WHEN "title" LIKE 'w%' THEN substr("title", 2)::bigint + 1000000 ELSE "id" END
                """#
        ).first?.first ?? nil
    }

    /// The database of `session` at v1 of `folder`, with `rows` seeded.
    static func atV1(_ session: PostgresSession, _ folder: String, rows: Int) async throws {
        #expect(try Self.migrate(session.url.description, folder, ["--to", "1"]).status == 0)
        try await Self.seed(session, rows: rows)
    }

    /// `body` on a database of `server` at v1 of `folder` with `rows` seeded.
    static func withShopAtV1<T: Sendable>(
        _ server: TestPostgresServer, _ folder: String, rows: Int, _ body: (PostgresSession) async throws -> T
    ) async throws -> T {
        try await server.withDatabase { session in
            try await atV1(session, folder, rows: rows)
            return try await body(session)
        }
    }

    /// The dump (``kept(_:)``) of a database at v1 with `rows` seeded, migrated to v2 in one run.
    static func uninterrupted(_ server: TestPostgresServer, _ folder: String, rows: Int) async throws -> [String] {
        try await withShopAtV1(server, folder, rows: rows) { session in
            let result = try Self.migrate(session.url.description, folder, ["--batch-size", "100"])
            #expect(result.status == 0, "\(result.stderr)")
            return Self.kept(try server.dump(database: session.url.database))
        }
    }

    /// The schema and rows of a dump, without the ledger's times.
    static func kept(_ dump: String) -> [String] {
        PostgresMigrateTests.significantLines(dump).filter { !$0.hasPrefix("Shop\t") }
    }

    // MARK: The file

    @Test func aTypeChangeFillsAShadowColumnAndSwapsIt() throws {
        let plan = try CLI.strata(["plan", "Shop", "--from", "1", "--dialect", "postgres", "--schemas", try Self.folder()])
        #expect(plan.status == 0, "\(plan.stderr)")
        // Lint: nothing rewrites the table under ACCESS EXCLUSIVE any more.
        #expect(!plan.stderr.contains("warning"), "\(plan.stderr)")
        let sql = plan.stdout.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(!sql.contains { $0.contains("TYPE BIGINT") || $0.contains("TYPE DOUBLE") }, "\(plan.stdout)")
        for expected in [
            #"ALTER TABLE "post" ADD COLUMN "views_strata_new" BIGINT;"#,
            #"ALTER TABLE "post" ADD COLUMN "rating_strata_new" DOUBLE PRECISION;"#,
            #"UPDATE "post" SET "views_strata_new" = CAST("views" AS BIGINT);"#,
            #"ALTER TABLE "post" VALIDATE CONSTRAINT "post_views_strata_new_not_null";"#,
            #"CREATE UNIQUE INDEX CONCURRENTLY IF NOT EXISTS "post_code_strata_new_key" ON "post" ("code_strata_new");"#,
            #"CREATE INDEX CONCURRENTLY IF NOT EXISTS "post_views_title_idx_strata_new" ON "post" ("views_strata_new", "title");"#,
            #"ALTER TABLE "post" DROP COLUMN "views";"#,
            #"ALTER TABLE "post" RENAME COLUMN "views_strata_new" TO "views";"#,
            #"ALTER TABLE "post" ALTER COLUMN "views" SET DEFAULT 0;"#,
            #"ALTER TABLE "post" ADD CONSTRAINT "post_code_key" UNIQUE USING INDEX "post_code_strata_new_key";"#,
            #"ALTER INDEX "post_views_title_idx_strata_new" RENAME TO "post_views_title_idx";"#,
        ] {
            #expect(sql.contains(expected), "missing \(expected)\n\(plan.stdout)")
        }
        #expect(
            plan.stdout.contains("ACCESS EXCLUSIVE, catalog only, rows filled beforehand in batches under ROW EXCLUSIVE"),
            "\(plan.stdout)")
        // The version's transaction: drop, rename, constraints; the trigger dropped once the
        // first old column is (the shadows it writes are renamed next).
        let script = try Self.script(plan.stdout)
        let version = try #require(script).transaction
        let dropViews = try #require(version.firstIndex(of: #"ALTER TABLE "post" DROP COLUMN "views""#))
        let dropTrigger = try #require(version.firstIndex(of: #"DROP TRIGGER "post_strata_backfill" ON "post""#))
        #expect(dropTrigger == dropViews + 1, "\(version)")
    }

    /// The migration script of the SQL `strata plan` prints (indented under `SQL:`).
    static func script(_ plan: String) throws -> PostgresMigrationScript? {
        guard let start = plan.range(of: "  SQL:\n") else { return nil }
        let sql = plan[start.upperBound...].split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.hasPrefix("    ") ? String($0.dropFirst(4)) : String($0) }.joined(separator: "\n")
        return try PostgresMigrationScript(SQLScriptSplitter.statements(sql, dialect: .postgres))
    }

    @Test("out of scope: a key, a renamed column, `before` SQL keep ALTER TYPE in the version's transaction")
    func whatStaysAnAlterType() throws {
        func plan(_ v2: String) throws -> String {
            let v1 = """
                model: Shop
                version: 1
                entities:
                  Post:
                    fields:
                      id: Int32
                      views: Int32
                """
            let result = try CLI.strata(["plan", "Shop", "--from", "1", "--dialect", "postgres", "--schemas", try Self.folder([v1, v2])])
            #expect(result.status == 0, "\(result.stderr)")
            return result.stdout
        }
        let key = try plan(
            """
            model: Shop
            version: 2
            entities:
              Post:
                fields:
                  id: Int64
                  views: Int32
            """)
        #expect(key.contains(#"ALTER TABLE "post" ALTER COLUMN "id" TYPE BIGINT USING CAST("id" AS BIGINT);"#), "\(key)")
        let renamed = try plan(
            """
            model: Shop
            version: 2
            entities:
              Post:
                fields:
                  id: Int32
                  hits: { type: Int64, renamedFrom: views }
            """)
        #expect(renamed.contains(#"ALTER COLUMN "views" TYPE BIGINT"#), "\(renamed)")
        let before = try plan(
            """
            model: Shop
            version: 2
            entities:
              Post:
                fields:
                  id: Int32
                  views: Int64
            migration:
              before: "SELECT 1"
            """)
        #expect(before.contains(#"ALTER COLUMN "views" TYPE BIGINT"#), "\(before)")
        #expect(!before.contains("strata_new"), "\(before)")
    }

    // MARK: On the server

    @Test("a writer's inserts and updates during the swap are all kept, every value converted")
    func writesDuringTheSwapAreKept() async throws {
        let (server, folder) = (try await TestPostgresServer.forTest(), try Self.folder())
        try await Self.withShopAtV1(server, folder, rows: 5_000) { session in
            let url = session.url.description
            let writer = try await PostgresSession.connect(to: session.url)
            let running = try CLI.start(["migrate", "--postgres", url, "--schemas", folder, "--batch-size", "50"])
            var (inserted, updated, longest) = (0, 0, Duration.zero)
            let clock = ContinuousClock()
            // v1's statements, until v2 commits.
            while running.process.isRunning {
                let n = inserted + 1
                let start = clock.now
                do {
                    try await writer.execute(
                        #"INSERT INTO "post" ("title", "views", "rating", "code") VALUES ('w\#(n)', \#(n), '\#(n).25', 'C\#(n + 1_000_000)')"#
                    )
                } catch {
                    // Once v2 is committed, v1's code text is refused by the Int64 column.
                    try await Task.sleep(for: .milliseconds(200))
                    if running.process.isRunning { throw error }
                    break
                }
                inserted = n
                try await writer.execute(
                    #"UPDATE "post" SET "views" = "views" + 1, "title" = "title" || 'x' WHERE "id" = \#(1 + updated % 5_000)"#)
                updated += 1
                longest = max(longest, clock.now - start)
            }
            let result = CLI.finish(running)
            #expect(result.status == 0, "\(result.stderr)")
            try await writer.close()
            #expect(inserted > 0)
            print("type swap under a writer: \(inserted) inserts and \(updated) updates, longest pair \(longest)")
            #expect(try await Self.wrongRows(session) == "0")
            let counts = try await session.textRows(
                sql: #"SELECT count(*) FILTER (WHERE "title" LIKE 'w%')::text, sum(length("title") - 1) FILTER (WHERE "title" NOT LIKE 'w%')::text FROM "post""#
            )
            #expect(counts.first == [String(inserted), String(updated)])
            // Nothing left behind: no trigger, function, shadow column or temporary name.
            let leftovers = try await session.textRows(
                sql: #"""
                    SELECT (SELECT count(*) FROM pg_trigger WHERE NOT tgisinternal)::text,
                           (SELECT count(*) FROM pg_proc WHERE proname LIKE '%strata%')::text,
                           (SELECT count(*) FROM pg_attribute WHERE attrelid = '"post"'::regclass AND attname LIKE '%strata_new%' AND NOT attisdropped)::text,
                           (SELECT count(*) FROM pg_class WHERE relname LIKE '%strata_new%')::text,
                           (SELECT count(*) FROM pg_constraint WHERE conname LIKE '%strata_new%')::text,
                           (SELECT format_type(atttypid, atttypmod) FROM pg_attribute WHERE attrelid = '"post"'::regclass AND attname = 'views')
                    """#)
            #expect(leftovers.first == ["0", "0", "0", "0", "0", "bigint"], "\(leftovers)")
        }
    }

    @Test("strata verify: a chain that swapped a column (now last) equals a fresh schema, rows kept")
    func verifyPassesAfterASwap() async throws {
        let server = try await TestPostgresServer.forTest()
        // Only views widened: the transforms of v2 cannot convert the text verify seeds.
        let v2 = Self.v1.replacingOccurrences(of: "version: 1", with: "version: 2")
            .replacingOccurrences(of: "views: Int32", with: "views: { type: Int64, default: 0 }")
        let folder = try Self.folder([Self.v1, v2])
        let plan = try CLI.strata(["plan", "Shop", "--from", "1", "--dialect", "postgres", "--schemas", folder])
        #expect(plan.stdout.contains(#"RENAME COLUMN "views_strata_new" TO "views""#), "\(plan.stdout)")
        try await Self.withShopAtV1(server, folder, rows: 100) { session in
            let url = session.url.description
            #expect(try Self.migrate(url, folder).status == 0)
            // The swapped column comes last; drift compares columns by name.
            let order = try await session.textRows(
                sql: #"SELECT string_agg(attname, ',' ORDER BY attnum) FROM pg_attribute WHERE attrelid = '"post"'::regclass AND attnum > 0 AND NOT attisdropped"#
            )
            #expect(order == [["id,title,rating,code,views"]])
            let drift = try CLI.strata(["drift", "--postgres", url, "--schemas", folder])
            #expect(drift.status == 0, "\(drift.stdout)\(drift.stderr)")
        }
        let verify = try CLI.strata(["verify", "--schemas", folder, "--postgres", server.url.description, "--rows", "5"])
        #expect(verify.status == 0, "\(verify.stdout)\(verify.stderr)")
    }

    @Test("strata migrate killed (SIGKILL) in the middle of filling a shadow column: the rerun ends as an uninterrupted run")
    func aRunKilledInTheMiddleOfTheFillResumes() async throws {
        let server = try await TestPostgresServer.forTest()
        let folder = try Self.folder()
        let uninterrupted = try await Self.uninterrupted(server, folder, rows: 2_000)
        try await Self.withShopAtV1(server, folder, rows: 2_000) { session in
            let url = session.url.description
            try await MigrationKills.killInTheMiddleOfABackfill(session, folder: folder)
            #expect(try await PostgresMigrateTests.ledger(session).count == 1)
            let again = try Self.migrate(url, folder, ["--batch-size", "100"])
            #expect(again.status == 0, "\(again.stderr)")
            #expect(Self.kept(try server.dump(database: session.url.database)) == uninterrupted)
            #expect(try await Self.wrongRows(session) == "0")
        }
    }

    @Test("strata migrate killed (SIGKILL) before each statement of a type swap: every rerun ends as an uninterrupted run")
    func killedAtEveryStatementTheRerunEndsTheSame() async throws {
        let killed = try await PostgresBackfillTests.killedAtEveryStatement(
            v1: Self.v1, v2: Self.v2, seed: Self.seedSQL(rows: 300))
        // The expand transaction, the batches of three columns, the checks, the two concurrent
        // index builds and the version's transaction.
        #expect(killed >= 15, "only \(killed) kill points")
    }

    @Test("a swap whose new values break the unique constraint: the concurrent build fails, exit 4, all undone")
    func aUniqueViolationOnTheShadowIsUndone() async throws {
        let (server, folder) = (try await TestPostgresServer.forTest(), try Self.folder())
        try await Self.withShopAtV1(server, folder, rows: 500) { session in
            // 'C07' and 'C7' are both 7 as a number.
            try await session.execute(#"UPDATE "post" SET "code" = 'C07' WHERE "id" = 400"#)
            let dump = try server.dump(database: session.url.database)
            let failed = try Self.migrate(session.url.description, folder, ["--batch-size", "50"])
            #expect(failed.status == 4, "\(failed.stderr)")
            #expect(failed.stderr.contains("v2 was rolled back"), "\(failed.stderr)")
            #expect(
                PostgresMigrateTests.significantLines(try server.dump(database: session.url.database))
                    == PostgresMigrateTests.significantLines(dump))
            // The old unique constraint still holds.
            await #expect(throws: (any Error).self) {
                try await session.execute(#"INSERT INTO "post" ("title", "views", "rating", "code") VALUES ('t', 1, '1', 'C1')"#)
            }
        }
    }

    @Test("a swap whose value fails on a row (a text that is no number): exit 4, the shadow columns and trigger removed")
    func aFailingConversionIsUndone() async throws {
        let (server, folder) = (try await TestPostgresServer.forTest(), try Self.folder())
        try await Self.withShopAtV1(server, folder, rows: 500) { session in
            let url = session.url.description
            try await session.execute(#"UPDATE "post" SET "rating" = 'n/a' WHERE "id" = 400"#)
            let dump = try server.dump(database: session.url.database)
            let failed = try Self.migrate(url, folder, ["--batch-size", "50"])
            #expect(failed.status == 4, "\(failed.stderr)")
            #expect(failed.stderr.contains("v2 was rolled back"), "\(failed.stderr)")
            #expect(
                PostgresMigrateTests.significantLines(try server.dump(database: session.url.database))
                    == PostgresMigrateTests.significantLines(dump))
        }
    }
}
