import Foundation
import StrataCore
import StrataIntrospection
import StrataTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `strata migrate --postgres` on the test suite's PostgreSQL server, through the real
/// executable: the TODO app's v1 database carrying rows to v3, refusals that leave the database
/// as `pg_dump` saw it, two deployers at once, a failing version rolled back, and the exit
/// statuses of a server that cannot be reached or refuses the password.
@Suite(.serialized) struct PostgresMigrateTests {
    /// `strata migrate --postgres url --schemas folder` with `extra` arguments.
    static func migrate(_ url: String, schemas: String = Models.schemas, _ extra: [String] = []) throws -> CLI.Result {
        try CLI.strata(["migrate", "--postgres", url, "--schemas", schemas] + extra)
    }

    static func ledger(_ session: PostgresSession) async throws -> [[String?]] {
        try await session.textRows(
            sql: #"SELECT "model", "version"::text, "checksum" FROM "strata_migrations" ORDER BY "version""#)
    }

    /// The TODO model's version files, as text.
    static func todoVersions() throws -> [String] {
        try (1...3).map {
            try String(contentsOfFile: "\(Models.schemas)/MyTODO/v\($0).yaml", encoding: .utf8)
        }
    }

    @Test func todoDatabaseAtV1KeepsItsRowsThroughV3() async throws {
        let server = try await TestPostgresServer.forTest()
        let history = try Models.load("MyTODO", in: Models.schemas)
        try await server.withDatabase { session in
            let url = session.url.description
            let first = try Self.migrate(url, ["--model", "MyTODO", "--to", "1"])
            #expect(first.status == 0, "\(first.stderr)")
            #expect(first.stdout.contains("MyTODO migrated from version 0 to 1 (applied v1)"), "\(first.stdout)")
            try await session.execute(
                #"INSERT INTO "todo_item" ("id", "title", "detail") SELECT md5(n::text)::uuid, 'item ' || n, 'detail''s ' || n FROM generate_series(1, 50) AS n"#
            )
            let before = try await session.textRows(
                sql: #"SELECT "id"::text, "title", "detail" FROM "todo_item" ORDER BY "id""#)

            let dump = try server.dump(database: session.url.database)
            let dryRun = try Self.migrate(url, ["--dry-run"])
            #expect(dryRun.status == 0, "\(dryRun.stderr)")
            #expect(
                dryRun.stdout.contains("-- version 2") && dryRun.stdout.contains("-- version 3"), "\(dryRun.stdout)")
            #expect(try server.dump(database: session.url.database) == dump, "a dry run changes nothing")

            let rest = try Self.migrate(url, ["--format", "json"])
            #expect(rest.status == 0, "\(rest.stderr)")
            let object = try #require(
                try JSONSerialization.jsonObject(with: Data(rest.stdout.utf8)) as? [String: Any], "\(rest.stdout)")
            #expect(object["from"] as? Int == 1 && object["to"] as? Int == 3)
            #expect((object["applied"] as? [[String: Any]])?.compactMap { $0["version"] as? Int } == [2, 3])
            #expect(rest.stderr.contains("MyTODO: applying v2 (1 of 2)…"), "\(rest.stderr)")
            #expect(!(object["database"] as? String ?? "").isEmpty)

            let after = try await session.textRows(
                sql: #"SELECT "id"::text, "title", "detail" FROM "todo_item" ORDER BY "id""#)
            #expect(after == before)
            #expect(
                try await session.textRows(
                    sql:
                        #"SELECT count(*)::text, bool_and(NOT "is_done")::text, min("priority")::text, max("priority")::text FROM "todo_item""#
                ) == [["50", "true", "2", "2"]])
            let expected = MigrationSources.postgres(for: history).map { ["MyTODO", String($0.version), $0.checksum] }
            #expect(try await Self.ledger(session) == expected)

            let again = try Self.migrate(url)
            #expect(again.status == 0, "\(again.stderr)")
            #expect(again.stdout.contains("is at version 3 of MyTODO: nothing to apply"), "\(again.stdout)")
        }
    }

    @Test func refusalsLeaveTheDatabaseAsItWas() async throws {
        let server = try await TestPostgresServer.forTest()
        let versions = try Self.todoVersions()
        try await server.withDatabase { session in
            let url = session.url.description
            let applied = try Self.migrate(url, ["--model", "MyTODO"])
            #expect(applied.status == 0, "\(applied.stderr)")
            try await session.execute(#"INSERT INTO "todo_item" ("id", "title") VALUES (gen_random_uuid(), 'keep me')"#)
            let dump = try server.dump(database: session.url.database)

            // v2 edited after it was applied.
            let edited = try Models.temporary(
                "MyTODO",
                versions: [
                    versions[0], versions[1].replacingOccurrences(of: "default: false", with: "default: true"),
                    versions[2],
                ])
            let checksum = try Self.migrate(url, schemas: edited.folder)
            #expect(checksum.status == 1, "\(checksum.stderr)")
            #expect(
                checksum.stderr.contains("MyTODO v2 was applied to the database with checksum"), "\(checksum.stderr)")
            #expect(try server.dump(database: session.url.database) == dump)

            // A model that only knows v1 and v2 meets a v3 database: v3 only added, so its code runs
            // against it (a rolling deploy) and nothing is applied.
            let older = try Models.temporary("MyTODO", versions: Array(versions.prefix(2)))
            let ahead = try Self.migrate(url, schemas: older.folder)
            #expect(ahead.status == 0, "\(ahead.stderr)")
            #expect(ahead.stdout.contains("ahead of these schemas (v2); v3 is compatible with the code of v2"), "\(ahead.stdout)")
            #expect(try server.dump(database: session.url.database) == dump)
            // Refused when the ledger does not say so (a row written before Strata recorded it).
            try await session.execute(#"UPDATE "strata_migrations" SET "compatible_from" = NULL WHERE "version" = 3"#)
            let unmarked = try server.dump(database: session.url.database)
            let newer = try Self.migrate(url, schemas: older.folder)
            #expect(newer.status == 1, "\(newer.stderr)")
            #expect(newer.stderr.contains("newer than the latest version this code knows (v2)"), "\(newer.stderr)")
            #expect(try server.dump(database: session.url.database) == unmarked)

            // Another model's migrations.
            let other = try Models.temporary(
                "Other", versions: [versions[0].replacingOccurrences(of: "model: MyTODO", with: "model: Other")])
            let foreign = try Self.migrate(url, schemas: other.folder)
            #expect(foreign.status == 1, "\(foreign.stderr)")
            #expect(foreign.stderr.contains("the database belongs to model MyTODO, not Other"), "\(foreign.stderr)")
            #expect(try server.dump(database: session.url.database) == unmarked)
            // Each refusal is one line.
            for result in [checksum, newer, foreign] {
                #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
            }
        }
    }

    @Test func aLedgerOfOtherTypesIsRefusedNamingTheRowAndColumn() async throws {
        let server = try await TestPostgresServer.forTest()
        try await server.withDatabase { session in
            try await session.execute(
                #"CREATE TABLE "strata_migrations" ("model" TEXT, "version" TEXT, "checksum" TEXT, "applied_at" DOUBLE PRECISION)"#
            )
            try await session.execute(#"INSERT INTO "strata_migrations" VALUES ('MyTODO', 'one', 'x', 0)"#)
            let dump = try server.dump(database: session.url.database)
            let result = try Self.migrate(session.url.description)
            #expect(result.status == 1, "\(result.stderr)")
            #expect(
                result.stderr.contains(
                    "holds the text 'one' in column version of row 1, where Strata writes a version number"),
                "\(result.stderr)")
            #expect(try server.dump(database: session.url.database) == dump)
        }
    }

    @Test func aLedgerWithAGapIsRefused() async throws {
        let server = try await TestPostgresServer.forTest()
        try await server.withDatabase { session in
            let url = session.url.description
            #expect(try Self.migrate(url).status == 0)
            try await session.execute(#"DELETE FROM "strata_migrations" WHERE "version" = 2"#)
            let dump = try server.dump(database: session.url.database)
            let result = try Self.migrate(url)
            #expect(result.status == 1, "\(result.stderr)")
            #expect(
                result.stderr.contains("the migration ledger of MyTODO lacks v2 below later versions"),
                "\(result.stderr)")
            #expect(try server.dump(database: session.url.database) == dump)
        }
    }

    @Test func twoMigrateProcessesStartedTogetherApplyEachVersionOnce() async throws {
        let server = try await TestPostgresServer.forTest()
        let history = try Models.load("MyTODO", in: Models.schemas)
        for _ in 0..<2 {
            try await server.withDatabase { session in
                let arguments = ["migrate", "--postgres", session.url.description, "--schemas", Models.schemas]
                let first = try CLI.start(arguments)
                let second = try CLI.start(arguments)
                let results = [CLI.finish(first), CLI.finish(second)]
                for result in results { #expect(result.status == 0, "\(result.stderr)") }
                #expect(results.filter { $0.stdout.contains("migrated from version 0 to 3") }.count == 1, "\(results)")
                #expect(results.filter { $0.stdout.contains("nothing to apply") }.count == 1, "\(results)")
                let expected = MigrationSources.postgres(for: history).map {
                    ["MyTODO", String($0.version), $0.checksum]
                }
                #expect(try await Self.ledger(session) == expected)
            }
        }
    }

    @Test func migrateWaitsForTheAdvisoryLockAndSaysSo() async throws {
        let server = try await TestPostgresServer.forTest()
        try await server.withDatabase { session in
            try await session.execute("SELECT pg_advisory_lock(hashtext('strata_migrations:MyTODO'))")
            let running = try CLI.start(["migrate", "--postgres", session.url.description, "--schemas", Models.schemas])
            try await Task.sleep(for: .seconds(1.5))
            #expect(running.process.isRunning, "migrate did not wait for the lock")
            #expect(try await session.textRows(sql: #"SELECT to_regclass('"strata_migrations"')::text"#) == [[nil]])
            try await session.execute("SELECT pg_advisory_unlock(hashtext('strata_migrations:MyTODO'))")
            let result = CLI.finish(running)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(
                result.stderr.contains("another strata migrate is migrating MyTODO; waiting for it to finish…"),
                "\(result.stderr)")
            #expect(try await Self.ledger(session).count == 3)
            // The lock was released when migrate ended.
            #expect(
                try await session.textRows(
                    sql: "SELECT pg_try_advisory_lock(hashtext('strata_migrations:MyTODO'))::text")
                    == [["true"]])
        }
    }

    /// The Shop model at v1 in a new database of the test server, holding `customers` (SQL
    /// values), with its `pg_dump`: `body` gets the session, the schemas folder and the dump.
    static func withShopAtV1(
        customers: String,
        _ body: (TestPostgresServer, PostgresSession, _ folder: String, _ dump: String) async throws -> Void
    ) async throws {
        let server = try await TestPostgresServer.forTest()
        let (_, folder) = try Models.temporary("Shop", versions: MigrationFaultTests.versions)
        try await server.withDatabase { session in
            let first = try Self.migrate(session.url.description, schemas: folder, ["--to", "1"])
            #expect(first.status == 0, "\(first.stderr)")
            try await session.execute(#"INSERT INTO "customer" ("email", "name") VALUES "# + customers)
            try await body(server, session, folder, try server.dump(database: session.url.database))
        }
    }

    @Test func aFailingMigrationIsRolledBackAndExits4() async throws {
        try await Self.withShopAtV1(customers: "('a@x', 'A'), ('a@x', 'A again')") { server, session, folder, dump in
            let url = session.url.description
            let failed = try Self.migrate(url, schemas: folder)
            #expect(failed.status == 4, "\(failed.stderr)")
            #expect(failed.stderr.contains("migrating Shop to v2 failed and v2 was rolled back"), "\(failed.stderr)")
            #expect(failed.stderr.contains("could not create unique index"), "\(failed.stderr)")
            #expect(
                failed.stderr.split(separator: "\n").filter { $0.hasPrefix("error: ") }.count == 1, "\(failed.stderr)")
            #expect(try server.dump(database: session.url.database) == dump)

            // Once the data is fixed, the same migration goes through.
            try await session.execute(#"UPDATE "customer" SET "email" = 'a2@x' WHERE "name" = 'A again'"#)
            let fixed = try Self.migrate(url, schemas: folder)
            #expect(fixed.status == 0, "\(fixed.stderr)")
        }
    }

    /// Starts `strata migrate --postgres` on Shop at v1 while another connection (returned, to
    /// end its transaction) holds a lock on the customer table, and returns once v2's first
    /// ALTER waits for it, inside the migration's transaction.
    /// The statements of a `pg_dump`, without comments and blank lines, sorted.
    static func significantLines(_ dump: String) -> [String] {
        dump.split(separator: "\n").map(String.init).filter { !$0.isEmpty && !$0.hasPrefix("--") }.sorted()
    }

    static func migrateWaitingForALock(
        _ session: PostgresSession, folder: String
    ) async throws -> (holder: PostgresSession, running: CLI.Running) {
        let holder = try await PostgresSession.connect(to: session.url)
        try await holder.execute("BEGIN")
        try await holder.execute(#"LOCK TABLE "customer" IN ACCESS SHARE MODE"#)
        // A lock timeout of 10 minutes keeps it waiting in that one statement.
        let running = try CLI.start([
            "migrate", "--postgres", session.url.description, "--schemas", folder, "--lock-timeout", "10m",
        ])
        var waited = false
        for _ in 0..<600 where !waited {
            waited = try await sessions(session, where: "wait_event_type = 'Lock'") == "1"
            if !waited { try await Task.sleep(for: .milliseconds(50)) }
        }
        #expect(waited, "migrate never waited for the table lock")
        return (holder, running)
    }

    /// How many sessions of the test database match `condition` (SQL over `pg_stat_activity`).
    static func sessions(_ session: PostgresSession, where condition: String) async throws -> String? {
        try await session.textRows(
            sql: "SELECT count(*)::text FROM pg_stat_activity WHERE datname = current_database() AND \(condition)"
        ).first?.first ?? nil
    }

    @Test("strata migrate killed (SIGKILL) inside its transaction: the version rolled back, the rerun applies it once")
    func killedInsideItsTransactionLeavesTheDatabaseAsItWas() async throws {
        try await Self.withShopAtV1(customers: "('a@x', 'A'), ('b@x', 'B')") { server, session, folder, dump in
            let url = session.url.description
            // Killed inside the migration's transaction, where v2's first ALTER waits.
            let (holder, running) = try await Self.migrateWaitingForALock(session, folder: folder)
            kill(running.process.processIdentifier, SIGKILL)
            _ = CLI.finish(running)
            #expect(running.process.terminationReason == .uncaughtSignal)
            // The lock released, the server finds the client gone and rolls its transaction back.
            try await holder.execute("ROLLBACK")
            try await holder.close()
            var ended = false
            for _ in 0..<600 where !ended {
                ended = try await Self.sessions(session, where: "pid <> pg_backend_pid()") == "0"
                if !ended { try await Task.sleep(for: .milliseconds(50)) }
            }
            #expect(ended, "the killed migrate's connection stayed")
            // The version's transaction was rolled back; only its leading step, the unique index
            // built concurrently before it, is left, for the rerun to take as done.
            let left = try server.dump(database: session.url.database)
            let expectedLeft =
                dump + "\n" + #"CREATE UNIQUE INDEX customer_email_key ON public.customer USING btree (email);"#
            #expect(
                Self.significantLines(left) == Self.significantLines(expectedLeft), "\(left)")

            let again = try Self.migrate(url, schemas: folder)
            #expect(again.status == 0, "\(again.stderr)")
            #expect(try await Self.ledger(session).count == 2)
        }
    }

    @Test("Ctrl-C during strata migrate --postgres stops before the next statement and rolls the version back")
    func interruptedStopsBeforeTheNextStatementAndRollsBack() async throws {
        try await Self.withShopAtV1(customers: "('a@x', 'A'), ('b@x', 'B')") { server, session, folder, dump in
            let url = session.url.description
            // v2 adds a column, then a unique constraint: the signal comes while its first ALTER waits.
            let (holder, running) = try await Self.migrateWaitingForALock(session, folder: folder)
            kill(running.process.processIdentifier, SIGINT)
            // It says it stops after the running statement, which goes on once the lock is free.
            var stderr = CLI.standardError(of: running, until: "stopping after the running statement")
            try await holder.execute("ROLLBACK")
            try await holder.close()
            let stopped = CLI.finish(running)
            stderr += stopped.stderr
            #expect(stopped.status == 130, "\(stderr)")
            #expect(stderr.contains("press Ctrl-C again to end strata now"), "\(stderr)")
            #expect(
                stderr.hasSuffix(
                    "error: \(url): interrupted (SIGINT): the database is at version 1 of Shop; no version was left half-applied\n"),
                "\(stderr)")
            // The added column was rolled back with the rest of v2; the lock is released.
            #expect(try server.dump(database: session.url.database) == dump)
            let again = try Self.migrate(url, schemas: folder)
            #expect(again.status == 0, "\(again.stderr)")
            #expect(try await Self.ledger(session).count == 2)
        }
    }

    /// Shop v1, and a v2 adding an index marked `concurrently` (`index` is its YAML).
    static func concurrentShop(index: String, extraField: String = "") throws -> String {
        let v2 = """
            model: Shop
            version: 2
            entities:
              Customer:
                fields:
                  id: { type: Int64, autoincrement: true }
                  email: String
                  name: String\(extraField)
                indexes:
                  - \(index)
            """
        return try Models.temporary("Shop", versions: [MigrationFaultTests.versions[0], v2]).folder
    }

    @Test func anIndexMarkedConcurrentlyIsBuiltOutsideTheTransaction() async throws {
        let server = try await TestPostgresServer.forTest()
        let folder = try Self.concurrentShop(index: "{ fields: [name], concurrently: true }")
        let plan = try CLI.strata(["plan", "Shop", "--from", "1", "--dialect", "postgres", "--schemas", folder])
        #expect(plan.status == 0, "\(plan.stderr)")
        #expect(
            plan.stdout.contains(
                "add index customer_name_idx on Customer(name) (PostgreSQL: built CONCURRENTLY, outside and before the version's transaction)"
            ), "\(plan.stdout)")
        #expect(plan.stdout.contains(#"CREATE INDEX CONCURRENTLY IF NOT EXISTS "customer_name_idx""#), "\(plan.stdout)")
        try await server.withDatabase { session in
            let url = session.url.description
            #expect(try Self.migrate(url, schemas: folder, ["--to", "1"]).status == 0)
            try await session.execute(#"INSERT INTO "customer" ("email", "name") VALUES ('a@x', 'A'), ('b@x', 'B')"#)
            let result = try Self.migrate(url, schemas: folder)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(
                try await session.textRows(
                    sql:
                        #"SELECT "indisvalid"::text FROM "pg_index" WHERE "indexrelid" = to_regclass('"customer_name_idx"')"#
                )
                    == [["true"]])
            #expect(try await Self.ledger(session).map { $0[1] } == ["1", "2"])
        }
        let verify = try CLI.strata([
            "verify", "--schemas", folder, "--postgres", server.url.description, "--rows", "5",
        ])
        #expect(verify.status == 0, "\(verify.stdout)\(verify.stderr)")
    }

    @Test func aConcurrentIndexThatFailsIsDroppedAndTheDatabaseLeftAsItWas() async throws {
        let server = try await TestPostgresServer.forTest()
        let folder = try Self.concurrentShop(index: "{ fields: [email], unique: true, concurrently: true }")
        try await server.withDatabase { session in
            let url = session.url.description
            #expect(try Self.migrate(url, schemas: folder, ["--to", "1"]).status == 0)
            try await session.execute(
                #"INSERT INTO "customer" ("email", "name") VALUES ('a@x', 'A'), ('a@x', 'A again')"#)
            let dump = try server.dump(database: session.url.database)
            let failed = try Self.migrate(url, schemas: folder)
            #expect(failed.status == 4, "\(failed.stderr)")
            #expect(failed.stderr.contains("could not create unique index"), "\(failed.stderr)")
            #expect(try server.dump(database: session.url.database) == dump, "no invalid index is left behind")
        }
    }

    @Test func concurrentlyOnAColumnNewInTheVersionIsAnError() throws {
        let folder = try Self.concurrentShop(
            index: "{ fields: [vip], concurrently: true }", extraField: "\n      vip: { type: Bool, default: false }")
        let lint = try CLI.strata(["lint", "--schemas", folder])
        #expect(lint.status == 1, "\(lint.stderr)")
        #expect(
            lint.stderr.contains(
                "index 'customer_vip_idx' is 'concurrently': PostgreSQL builds it before the version's transaction, on table 'customer' as it is at version 1, but column 'vip' does not exist in version 1"
            ), "\(lint.stderr)")
    }

    @Test("entities removed together are dropped referencing first, and in a cycle their foreign keys first")
    func removedEntitiesThatReferenceEachOtherAreDropped() async throws {
        let v1 = """
            model: Polls
            version: 1
            entities:
              Poll:
                fields:
                  id: { type: Int64, autoincrement: true }
                  question: String
                  winner: Option?
              Option:
                fields:
                  id: { type: Int64, autoincrement: true }
                  poll: Poll
                  label: String
              Vote:
                fields:
                  id: { type: Int64, autoincrement: true }
                  option: Option
              Keep:
                fields:
                  id: { type: Int64, autoincrement: true }
            """
        let v2 = """
            model: Polls
            version: 2
            entities:
              Keep:
                fields:
                  id: { type: Int64, autoincrement: true }
            migration:
              allowDataLoss: [Poll, Option, Vote]
            """
        let server = try await TestPostgresServer.forTest()
        let (_, folder) = try Models.temporary("Polls", versions: [v1, v2])
        try await server.withDatabase { session in
            let url = session.url.description
            #expect(try Self.migrate(url, schemas: folder, ["--to", "1"]).status == 0)
            try await session.execute(#"INSERT INTO "poll" ("question") VALUES ('q')"#)
            try await session.execute(#"INSERT INTO "option" ("poll", "label") VALUES (1, 'a')"#)
            try await session.execute(#"UPDATE "poll" SET "winner" = 1"#)
            try await session.execute(#"INSERT INTO "vote" ("option") VALUES (1)"#)
            let result = try Self.migrate(url, schemas: folder)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(try await Self.ledger(session).count == 2)
        }
    }

    @Test func anUnreachableServerExits2() throws {
        let result = try Self.migrate("postgres://postgres@127.0.0.1:1/postgres?sslmode=disable")
        #expect(result.status == 2, "\(result.stderr)")
        #expect(
            result.stderr.hasPrefix("error: postgres://postgres@127.0.0.1:1/postgres: cannot connect"),
            "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
    }

    @Test func aWrongPasswordExits3() async throws {
        let server = try await TestPostgresServer.forTest()
        try await Self.requirePassword(server)
        try await server.withDatabase { session in
            let good = session.url.database
            let wrong = "postgres://strata_password_user:wrong@127.0.0.1:\(server.port)/\(good)"
            let result = try Self.migrate(wrong)
            #expect(result.status == 3, "\(result.stderr)")
            #expect(result.stderr.contains("the server refused the credentials"), "\(result.stderr)")
            #expect(!result.stderr.contains("wrong"), "the password is never printed: \(result.stderr)")
            #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        }
    }

    @Test func theURLMayComeFromTheEnvironmentAndOnlyOneDatabaseIsAllowed() throws {
        let fromEnvironment = CLI.finish(
            try CLI.start(
                ["migrate", "--schemas", Models.schemas],
                environment: ["STRATA_POSTGRES_URL": "postgres://postgres@127.0.0.1:1/fromenv?sslmode=disable"]))
        #expect(fromEnvironment.status == 2, "\(fromEnvironment.stderr)")
        #expect(fromEnvironment.stderr.contains("127.0.0.1:1/fromenv: cannot connect"), "\(fromEnvironment.stderr)")
        let both = try CLI.strata(["migrate", "--database", "x.sqlite", "--postgres", "postgres://x@127.0.0.1:1/x"])
        #expect(both.status == 64, "\(both.stderr)")
        #expect(both.stderr.contains("not both"), "\(both.stderr)")
        let invalid = try CLI.strata(["migrate", "--postgres", "mysql://x@y/z"])
        #expect(invalid.status == 64, "\(invalid.stderr)")
    }

    /// A role that must log in with a password (scram-sha-256), on the test server whose other
    /// users are trusted: a line ahead of the others in pg_hba.conf, then a reload.
    static func requirePassword(_ server: TestPostgresServer) async throws {
        let hba = "\(server.folder)/data/pg_hba.conf"
        let line = "host all strata_password_user 127.0.0.1/32 scram-sha-256\n"
        let current = try String(contentsOfFile: hba, encoding: .utf8)
        if !current.hasPrefix(line) { try (line + current).write(toFile: hba, atomically: false, encoding: .utf8) }
        let admin = try await PostgresSession.connect(to: server.url)
        try await admin.execute(
            "DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'strata_password_user') THEN CREATE ROLE strata_password_user LOGIN PASSWORD 'right'; END IF; END $$"
        )
        try await admin.execute("SELECT pg_reload_conf()")
        try await admin.close()
        // The server reloads its configuration asynchronously: wait until a wrong password is refused.
        let wrong = PostgresURL(
            port: server.port, user: "strata_password_user", password: "wrong", database: "postgres")
        for _ in 0..<100 {
            do {
                try await PostgresSession.connect(to: wrong).close()
            } catch let error as PostgresSessionError where error.isAuthenticationFailure {
                return
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        Issue.record("pg_hba.conf was not reloaded within 5 s")
    }
}
