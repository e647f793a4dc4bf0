import Foundation
import StrataCore
import StrataIntrospection
import StrataTestSupport
import Testing

/// Lock-safe PostgreSQL migrations on the test server: constraints over columns that exist at
/// N-1 are prepared before the version's transaction (a unique index built concurrently, foreign
/// keys and checks added `NOT VALID` then validated), so that no lock that blocks writers is held
/// while the table is read; a version that fails there leaves the database as `pg_dump` saw it.
@Suite(.serialized) struct PostgresLockSafeMigrationTests {
    static let v1 = """
        model: Shop
        version: 1
        entities:
          Shop:
            fields:
              id: { type: Int64, autoincrement: true }
              name: String
          Customer:
            fields:
              id: { type: Int64, autoincrement: true }
              email: String
              shop: Int64
              name: String
        """

    /// v1 with Customer.email unique, Customer.shop a reference to Shop, and an index on the name.
    static let v2 = """
        model: Shop
        version: 2
        entities:
          Shop:
            fields:
              id: { type: Int64, autoincrement: true }
              name: String
          Customer:
            fields:
              id: { type: Int64, autoincrement: true }
              email: { type: String, unique: true }
              shop: Shop
              name: String
            indexes:
              - { fields: [name] }
        """

    static func folder() throws -> String { try Models.temporary("Shop", versions: [v1, v2]).folder }

    @Test func theMigrationPreparesConstraintsBeforeItsTransaction() throws {
        let plan = try CLI.strata(["plan", "Shop", "--from", "1", "--dialect", "postgres", "--schemas", try Self.folder()])
        #expect(plan.status == 0, "\(plan.stderr)")
        let sql = plan.stdout.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { $0.hasSuffix(";") }
        #expect(
            sql == [
                #"CREATE UNIQUE INDEX CONCURRENTLY IF NOT EXISTS "customer_email_key" ON "customer" ("email");"#,
                #"ALTER TABLE "customer" ADD CONSTRAINT "customer_shop_fkey" FOREIGN KEY ("shop") REFERENCES "shop" ("id") ON DELETE NO ACTION NOT VALID;"#,
                #"ALTER TABLE "customer" VALIDATE CONSTRAINT "customer_shop_fkey";"#,
                #"CREATE INDEX CONCURRENTLY IF NOT EXISTS "customer_name_idx" ON "customer" ("name");"#,
                #"ALTER TABLE "customer" ADD CONSTRAINT "customer_email_key" UNIQUE USING INDEX "customer_email_key";"#,
            ], "\(plan.stdout)")
    }

    @Test func planSaysWhatIsReadBeforehand() throws {
        let plan = try CLI.strata([
            "plan", "Shop", "--from", "1", "--dialect", "postgres", "--schemas", try Self.folder(), "--format", "json",
        ])
        #expect(plan.status == 0, "\(plan.stderr)")
        #expect(
            plan.stdout.contains(#""postgresLock":"ACCESS EXCLUSIVE, catalog only, rows read beforehand under SHARE UPDATE EXCLUSIVE""#),
            "\(plan.stdout)")
        #expect(
            plan.stdout.contains(#""postgresLock":"SHARE UPDATE EXCLUSIVE, scans every row, outside the transaction""#),
            "\(plan.stdout)")
        #expect(
            plan.stdout.contains(
                #""postgresLock":"SHARE ROW EXCLUSIVE, catalog only, outside the transaction, rows read beforehand under SHARE UPDATE EXCLUSIVE; SHARE ROW EXCLUSIVE on Shop""#
            ), "\(plan.stdout)")
    }

    @Test func constraintsPreparedBeforehandEndValidAndTheChainVerifies() async throws {
        let server = try await TestPostgresServer.forTest()
        let folder = try Self.folder()
        try await server.withDatabase { session in
            let url = session.url.description
            #expect(try PostgresMigrateTests.migrate(url, schemas: folder, ["--to", "1"]).status == 0)
            try await session.execute(#"INSERT INTO "shop" ("name") VALUES ('North'), ('South')"#)
            try await session.execute(
                #"INSERT INTO "customer" ("email", "shop", "name") SELECT 'c' || n || '@x', 1 + n % 2, 'C' || n FROM generate_series(1, 500) AS n"#
            )
            let result = try PostgresMigrateTests.migrate(url, schemas: folder)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(
                try await session.textRows(
                    sql:
                        #"SELECT conname::text, contype::text, convalidated::text FROM pg_constraint WHERE conrelid = 'customer'::regclass AND contype <> 'p' ORDER BY conname"#
                ) == [["customer_email_key", "u", "true"], ["customer_shop_fkey", "f", "true"]])
            #expect(
                try await session.textRows(
                    sql:
                        #"SELECT c.relname::text, i.indisvalid::text FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid WHERE i.indrelid = 'customer'::regclass AND NOT i.indisprimary ORDER BY 1"#
                ) == [["customer_email_key", "true"], ["customer_name_idx", "true"]])
            #expect(try await PostgresMigrateTests.ledger(session).map { $0[1] } == ["1", "2"])
            // The foreign key is enforced like one added in the transaction.
            await #expect(throws: (any Error).self) {
                try await session.execute(#"INSERT INTO "customer" ("email", "shop", "name") VALUES ('new@x', 99, 'N')"#)
            }
        }
    }

    @Test("a validation that fails: exit 4, and the constraint and index prepared before it are gone")
    func aFailedValidationUndoesWhatWasPrepared() async throws {
        let server = try await TestPostgresServer.forTest()
        let folder = try Self.folder()
        try await server.withDatabase { session in
            let url = session.url.description
            #expect(try PostgresMigrateTests.migrate(url, schemas: folder, ["--to", "1"]).status == 0)
            try await session.execute(#"INSERT INTO "shop" ("name") VALUES ('North')"#)
            try await session.execute(
                #"INSERT INTO "customer" ("email", "shop", "name") VALUES ('a@x', 1, 'A'), ('b@x', 7, 'B')"#)
            let dump = try server.dump(database: session.url.database)
            let result = try PostgresMigrateTests.migrate(url, schemas: folder)
            #expect(result.status == 4, "\(result.stderr)")
            #expect(result.stderr.contains("migrating Shop to v2 failed and v2 was rolled back"), "\(result.stderr)")
            #expect(result.stderr.contains(#"VALIDATE CONSTRAINT "customer_shop_fkey""#), "\(result.stderr)")
            #expect(try server.dump(database: session.url.database) == dump)
            #expect(try await PostgresMigrateTests.ledger(session).map { $0[1] } == ["1"])
            // Fixed, the version applies.
            try await session.execute(#"UPDATE "customer" SET "shop" = 1"#)
            #expect(try PostgresMigrateTests.migrate(url, schemas: folder).status == 0)
        }
    }

    @Test("a run killed after its leading steps: the next run takes them as done and applies the version once")
    func aRerunTakesPreparedStepsAsDone() async throws {
        let server = try await TestPostgresServer.forTest()
        let folder = try Self.folder()
        try await server.withDatabase { session in
            let url = session.url.description
            #expect(try PostgresMigrateTests.migrate(url, schemas: folder, ["--to", "1"]).status == 0)
            try await session.execute(#"INSERT INTO "shop" ("name") VALUES ('North')"#)
            try await session.execute(#"INSERT INTO "customer" ("email", "shop", "name") VALUES ('a@x', 1, 'A')"#)
            // What a run killed right before the version's transaction leaves behind.
            try await session.execute(#"CREATE UNIQUE INDEX CONCURRENTLY "customer_email_key" ON "customer" ("email")"#)
            try await session.execute(
                #"ALTER TABLE "customer" ADD CONSTRAINT "customer_shop_fkey" FOREIGN KEY ("shop") REFERENCES "shop" ("id") ON DELETE NO ACTION NOT VALID"#
            )
            let result = try PostgresMigrateTests.migrate(url, schemas: folder)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(
                try await session.textRows(
                    sql: #"SELECT convalidated::text FROM pg_constraint WHERE conname = 'customer_shop_fkey'"#)
                    == [["true"]])
            #expect(try await PostgresMigrateTests.ledger(session).map { $0[1] } == ["1", "2"])
        }
    }

    @Test("a database that applied a version as Strata 0.5 rendered it is not taken for an edited one")
    func theChecksumsOfTheEarlierRenderingAreAccepted() async throws {
        let server = try await TestPostgresServer.forTest()
        let (history, folder) = try Models.temporary("Shop", versions: [Self.v1, Self.v2])
        let sources = MigrationSources.postgres(for: history)
        let earlier = try #require(sources[1].legacyChecksum, "v2's SQL changed with lock-safe rendering")
        #expect(earlier != sources[1].checksum)
        try await server.withDatabase { session in
            let url = session.url.description
            #expect(try PostgresMigrateTests.migrate(url, schemas: folder, ["--to", "1"]).status == 0)
            // v2 as an earlier strata applied it: every statement in one transaction, its checksum recorded.
            try await session.executeScript(
                """
                ALTER TABLE "customer" ADD CONSTRAINT "customer_email_key" UNIQUE ("email");
                ALTER TABLE "customer" ADD CONSTRAINT "customer_shop_fkey" FOREIGN KEY ("shop") REFERENCES "shop" ("id") ON DELETE NO ACTION;
                CREATE INDEX "customer_name_idx" ON "customer" ("name");
                INSERT INTO "strata_migrations" ("model", "version", "checksum", "applied_at") VALUES ('Shop', 2, '\(earlier)', 0);
                """, inTransaction: true)
            let result = try PostgresMigrateTests.migrate(url, schemas: folder)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.contains("is at version 2 of Shop: nothing to apply"), "\(result.stdout)")
            // Another checksum is still an edited version.
            try await session.execute(#"UPDATE "strata_migrations" SET "checksum" = 'abc' WHERE "version" = 2"#)
            let edited = try PostgresMigrateTests.migrate(url, schemas: folder)
            #expect(edited.status == 1, "\(edited.stderr)")
        }
    }

    @Test("a version that fills rows then alters their table applies while the application keeps writing them")
    func aBackfillThenAlterDoesNotDeadlockWithWriters() async throws {
        let server = try await TestPostgresServer.forTest()
        let v1 = """
            model: Shop
            version: 1
            entities:
              Customer:
                fields:
                  id: { type: Int64, autoincrement: true }
                  email: String?
                  visits: Int64
            """
        // email becomes required: NULLs filled in batches beforehand, then the default and NOT NULL (ALTERs).
        let v2 = """
            model: Shop
            version: 2
            entities:
              Customer:
                fields:
                  id: { type: Int64, autoincrement: true }
                  email: { type: String, default: "unknown@example.com" }
                  visits: Int64
            """
        let (_, folder) = try Models.temporary("Shop", versions: [v1, v2])
        let plan = try CLI.strata(["plan", "Shop", "--from", "1", "--dialect", "postgres", "--schemas", folder])
        #expect(plan.stdout.contains("Filled in batches of rows, each committed on its own"), "\(plan.stdout)")
        #expect(!plan.stdout.contains("LOCK TABLE"), "\(plan.stdout)")
        try await server.withDatabase { session in
            let url = session.url.description
            #expect(try PostgresMigrateTests.migrate(url, schemas: folder, ["--to", "1"]).status == 0)
            try await session.execute(
                #"INSERT INTO "customer" ("email", "visits") SELECT CASE WHEN n % 2 = 0 THEN NULL ELSE 'c' || n END, 0 FROM generate_series(1, 20000) AS n"#
            )
            // The application updates rows the migration fills, one by one, all along.
            let writer = try await PostgresSession.connect(to: session.url)
            let writing = Task {
                var id = 0
                while !Task.isCancelled {
                    id = id % 20000 + 2
                    try? await writer.execute(#"UPDATE "customer" SET "visits" = "visits" + 1 WHERE "id" = \#(id)"#)
                }
            }
            let result = try PostgresMigrateTests.migrate(url, schemas: folder, ["--lock-wait-limit", "20s"])
            writing.cancel()
            _ = await writing.value
            try await writer.close()
            #expect(result.status == 0, "\(result.stderr)")
            #expect(try await PostgresMigrateTests.ledger(session).map { $0[1] } == ["1", "2"])
            #expect(
                try await session.textRows(sql: #"SELECT count(*)::text FROM "customer" WHERE "email" = 'unknown@example.com'"#)
                    == [["10000"]])
        }
    }
}
