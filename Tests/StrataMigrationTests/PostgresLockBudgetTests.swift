import Foundation
@testable import StrataPostgres
import StrataTestSupport
import Testing
import StrataIntrospection

/// The lock budget of `strata migrate --postgres` on the test server: a statement waits for a
/// table's lock at most `--lock-timeout`, the version is rolled back and tried again (naming the
/// session that holds the lock) until `--lock-wait-limit`, the application's writes never queue
/// behind the migration for longer than the budget, and an INVALID index left by an interrupted
/// concurrent build is built again.
@Suite(.serialized) struct PostgresLockBudgetTests {
    /// Opens a session of `session`'s database that holds `mode` on the customer table in an
    /// open transaction, and returns it with its server process id.
    static func lockHolder(_ session: PostgresSession, mode: String = "ACCESS SHARE") async throws -> (
        PostgresSession, Int
    ) {
        let holder = try await PostgresSession.connect(to: session.url)
        try await holder.execute("BEGIN")
        try await holder.execute(#"LOCK TABLE "customer" IN \#(mode) MODE"#)
        return (holder, try await holder.backendPID())
    }

    @Test("a reader holding a lock for 6 s: migrate retries, naming it, then applies v2 once; writes stall at most the budget")
    func aHeldLockIsWaitedForInShortAttempts() async throws {
        let server = try await TestPostgresServer.forTest()
        try await PostgresLostServerTests.withShopAtV1(on: server) { session, folder in
            let url = session.url.description
            let (holder, holderPID) = try await Self.lockHolder(session)
            let writer = try await PostgresSession.connect(to: session.url)
            let running = try CLI.start(["migrate", "--postgres", url, "--schemas", folder])
            let start = ContinuousClock.now
            // The application keeps writing while the report query holds its lock for 6 s.
            var longestStall = Duration.zero
            var writes = 0
            while ContinuousClock.now - start < .seconds(6) {
                let before = ContinuousClock.now
                try await writer.execute(#"UPDATE "customer" SET "name" = "name" WHERE "email" = 'a@x'"#)
                longestStall = max(longestStall, ContinuousClock.now - before)
                writes += 1
                try await Task.sleep(for: .milliseconds(20))
            }
            try await holder.execute("ROLLBACK")
            let (result, _) = PostgresLostServerTests.finish(running, since: start)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(
                result.stderr.contains(
                    "Shop: v2 could not get a lock within the lock timeout, held by pid \(holderPID) (idle in transaction for"
                ), "\(result.stderr)")
            #expect(result.stderr.contains("AccessShareLock on customer"), "\(result.stderr)")
            #expect(result.stderr.contains("rolled back, trying again in"), "\(result.stderr)")
            #expect(try await PostgresMigrateTests.ledger(session).map { $0[1] } == ["1", "2"])
            // Without the budget, the writes would have queued behind v2's ALTER TABLE until the
            // holder let go, about 5 s; with it, each waits at most one 300 ms lock timeout (the
            // bound leaves room for a machine loaded by parallel tests and builds: 1.55 s seen).
            #expect(writes > 6)
            #expect(longestStall < .milliseconds(2500), "a write stalled \(longestStall)")
            try await writer.close()
            try await holder.close()
        }
    }

    @Test(
        "autovacuum on the table: a role that may cancels its pass beforehand, another outwaits deadlock_timeout; v2 applies",
        arguments: [true, false])
    func autovacuumIsCancelledOrOutwaited(asSuperuser: Bool) async throws {
        // A server of its own: autovacuum made eager and slow there only.
        let server = try TestPostgresServer.dedicated()
        let admin = try await PostgresSession.connect(to: server.url)
        try await admin.execute("ALTER SYSTEM SET autovacuum_naptime = '1s'")
        try await admin.execute("SELECT pg_reload_conf()")
        try await admin.execute("DO $$ BEGIN CREATE ROLE deployer LOGIN; EXCEPTION WHEN duplicate_object THEN NULL; END $$")
        try await admin.close()
        try await server.withDatabase { session in
            var deployer = session.url
            if !asSuperuser {
                // A deployer that owns the database but is no superuser: it may not cancel autovacuum.
                try await session.execute("ALTER DATABASE \(session.url.database) OWNER TO deployer")
                try await session.execute("ALTER SCHEMA public OWNER TO deployer")
                deployer.user = "deployer"
            }
            let url = deployer.description
            let (_, folder) = try Models.temporary("Shop", versions: MigrationFaultTests.versions)
            let first = try PostgresMigrateTests.migrate(url, schemas: folder, ["--to", "1"])
            #expect(first.status == 0, "\(first.stderr)")
            try await session.execute(
                #"ALTER TABLE "customer" SET (autovacuum_vacuum_threshold = 0, autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_cost_delay = 100, autovacuum_vacuum_cost_limit = 1)"#
            )
            try await session.execute(
                #"INSERT INTO "customer" ("email", "name") SELECT 'c' || g || '@x', 'C' FROM generate_series(1, 20000) g"#)
            try await session.execute(#"DELETE FROM "customer" WHERE "email" LIKE 'c%'"#)
            var vacuuming = false
            for _ in 0..<600 where !vacuuming {
                let rows = try await session.textRows(
                    sql: "SELECT count(*)::text FROM pg_stat_activity WHERE query LIKE 'autovacuum: VACUUM%customer%'")
                vacuuming = rows.first?.first == "1"
                if !vacuuming { try await Task.sleep(for: .milliseconds(50)) }
            }
            try #require(vacuuming, "autovacuum never started on customer")
            let result = try PostgresMigrateTests.migrate(url, schemas: folder, ["--lock-wait-limit", "30s"])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(
                result.stderr.contains(
                    asSuperuser
                        ? "Shop: v2: cancelled autovacuum on customer (pid "
                        : "it is autovacuum, which PostgreSQL cancels for a lock request that waits deadlock_timeout"),
                "\(result.stderr)")
            #expect(try await PostgresMigrateTests.ledger(session).map { $0[1] } == ["1", "2"])
        }
    }

    @Test("a lock held past --lock-wait-limit: exit 4, the holder named, the database as pg_dump saw it")
    func aLockHeldPastTheLimitGivesUp() async throws {
        let server = try await TestPostgresServer.forTest()
        try await PostgresLostServerTests.withShopAtV1(on: server) { session, folder in
            let url = session.url.description
            let dump = try server.dump(database: session.url.database)
            let (holder, holderPID) = try await Self.lockHolder(session)
            let start = ContinuousClock.now
            let result = try PostgresMigrateTests.migrate(url, schemas: folder, ["--lock-wait-limit", "3s"])
            let elapsed = ContinuousClock.now - start
            #expect(result.status == 4, "\(result.stderr)")
            #expect(elapsed < .seconds(15), "gave up after \(elapsed)")
            #expect(
                result.stderr.contains("migrating Shop to v2 failed and v2 was rolled back"), "\(result.stderr)")
            #expect(result.stderr.contains("gave up waiting for locks after"), "\(result.stderr)")
            #expect(result.stderr.contains("held by pid \(holderPID)"), "\(result.stderr)")
            try await holder.execute("ROLLBACK")
            try await holder.close()
            #expect(try server.dump(database: session.url.database) == dump)
            #expect(try await PostgresMigrateTests.ledger(session).map { $0[1] } == ["1"])
        }
    }

    @Test func anInvalidIndexLeftByAnInterruptedBuildIsBuiltAgain() async throws {
        let server = try await TestPostgresServer.forTest()
        let folder = try PostgresMigrateTests.concurrentShop(index: "{ fields: [name], concurrently: true }")
        try await server.withDatabase { session in
            let url = session.url.description
            #expect(try PostgresMigrateTests.migrate(url, schemas: folder, ["--to", "1"]).status == 0)
            try await session.execute(#"INSERT INTO "customer" ("email", "name") VALUES ('a@x', 'A'), ('b@x', 'A')"#)
            // A build of that name that failed half way, as a killed or cancelled one does.
            await #expect(throws: (any Error).self) {
                try await session.execute(#"CREATE UNIQUE INDEX CONCURRENTLY "customer_name_idx" ON "customer" ("name")"#)
            }
            let state = #"SELECT "indisvalid"::text, "indisunique"::text FROM "pg_index" WHERE "indexrelid" = to_regclass('"customer_name_idx"')"#
            #expect(try await session.textRows(sql: state) == [["false", "true"]])
            let result = try PostgresMigrateTests.migrate(url, schemas: folder)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(try await session.textRows(sql: state) == [["true", "false"]], "the model's index, valid")
            #expect(try await PostgresMigrateTests.ledger(session).map { $0[1] } == ["1", "2"])
        }
    }

    @Test func durationsAreCheckedAndPostgresOnly() throws {
        for (value, shown) in [("-1", "-1"), ("25h", "25h")] {
            let bad = try CLI.strata(["migrate", "--postgres", "postgres://x@127.0.0.1:1/x", "--lock-timeout=\(value)"])
            #expect(bad.status == 64, "\(bad.stderr)")
            #expect(bad.stderr.contains("--lock-timeout must be from 0 to 24h, not \(shown)"), "\(bad.stderr)")
        }
        let word = try CLI.strata(["migrate", "--postgres", "postgres://x@127.0.0.1:1/x", "--lock-wait-limit", "soon"])
        #expect(word.status == 64, "\(word.stderr)")
        let sqlite = try CLI.strata(["migrate", "--database", "x.sqlite", "--lock-wait-limit", "5s"])
        #expect(sqlite.status == 64, "\(sqlite.stderr)")
        #expect(sqlite.stderr.contains("--lock-wait-limit applies to PostgreSQL only"), "\(sqlite.stderr)")
    }

    @Test func pausesGrowWithEachAttemptAndAreJitteredAndCapped() {
        let budget = PostgresLockBudget.default
        #expect(budget.pause(afterAttempt: 1, random: 0) == .milliseconds(100))
        #expect(budget.pause(afterAttempt: 1, random: 1) == .milliseconds(200))
        #expect(budget.pause(afterAttempt: 3, random: 1) == .milliseconds(800))
        #expect(budget.pause(afterAttempt: 40, random: 1) == .seconds(5))
        #expect(budget.pause(afterAttempt: 40, random: 0) == .milliseconds(2500))
        #expect(budget.setting == "'300ms'")
        #expect(PostgresLockBudget(lockTimeout: .seconds(2)).setting == "'2000ms'")
    }

    @Test func theTablesOfAStatementAreItsQuotedNames() {
        #expect(
            PostgresLockHolders.quotedIdentifiers(
                in: #"ALTER TABLE "customer" ADD CONSTRAINT "customer_fk" FOREIGN KEY ("shop") REFERENCES "shop" ("id") -- "not""#
            ) == ["customer", "customer_fk", "shop", "id"])
        #expect(PostgresLockHolders.quotedIdentifiers(in: #"UPDATE "a""b" SET x = '"c"'"#) == [#"a"b"#])
    }

    @Test func aHolderIsDescribedOnOneLine() {
        let holder = StrataLockHolder(
            pid: 42, state: "idle in transaction", age: .milliseconds(3140), query: "SELECT 1", table: "customer",
            mode: "AccessShareLock")
        #expect(
            holder.description == "pid 42 (idle in transaction for 3.1 s, AccessShareLock on customer, query: SELECT 1)")
        let wait = StrataLockWait(attempt: 2, retryIn: .zero, waited: .milliseconds(600), holders: [], statement: "")
        #expect(wait.holdersDescription == "the sessions holding them had ended when they were read")
        #expect(wait.waitedDescription == "0.6 s")
    }
}
