import Foundation
import GRDB
import StrataCore
import StrataPostgres
import StrataRuntime
import StrataSQLite
import StrataTestSupport
import StrataVerification
import Testing

/// Rolling deploys: code at v1 restarting against a database that v2's code migrated. The ledger
/// records, per version, the oldest code that runs against it; v1 opens the database when v2 only
/// added things, and is refused naming v2's reason when v2 renamed something. On SQLite through
/// GRDB and on the test suite's PostgreSQL server.
@Suite(.serialized) struct RollingDeployTests {
    /// (`PostTag`: a table whose columns are all its key, which has no update statement.)
    static let v1 = """
        model: Blog
        version: 1
        entities:
          Post:
            fields:
              id: { type: Int64, autoincrement: true }
              title: String
          PostTag:
            primaryKey: [post, tag]
            fields:
              post: Post
              tag: String
        """

    /// v2 only adds: an optional field, a required one with a default, an entity.
    static let additive = """
        model: Blog
        version: 2
        entities:
          Post:
            fields:
              id: { type: Int64, autoincrement: true }
              title: String
              subtitle: String?
              pinned: { type: Bool, default: false }
          Tag:
            fields:
              id: { type: Int64, autoincrement: true }
              label: String
          PostTag:
            primaryKey: [post, tag]
            fields:
              post: Post
              tag: String
        """

    /// v2 renames Post.title.
    static let renaming = """
        model: Blog
        version: 2
        entities:
          Post:
            fields:
              id: { type: Int64, autoincrement: true }
              headline: { type: String, renamedFrom: title }
          PostTag:
            primaryKey: [post, tag]
            fields:
              post: Post
              tag: String
        """

    static let renameReason = "renames Post.title to headline (column title -> headline)"

    /// The SQLite migrators of the code at v1 and at v2 (v2 being `second`), from the generator's
    /// migration files as generated code embeds them.
    static func sqliteMigrators(_ second: String) throws -> (v1: SQLiteMigrator, v2: SQLiteMigrator, folders: [String]) {
        let (old, oldFolder) = try Models.temporary("Blog", versions: [v1])
        let (new, newFolder) = try Models.temporary("Blog", versions: [v1, second])
        return (Models.migrator(old), Models.migrator(new), [oldFolder, newFolder])
    }

    static func postgresMigrators(_ second: String) throws -> (v1: PostgresMigrator, v2: PostgresMigrator) {
        let (old, _) = try Models.temporary("Blog", versions: [v1])
        let (new, _) = try Models.temporary("Blog", versions: [v1, second])
        func migrator(_ history: SchemaHistory) -> PostgresMigrator {
            PostgresMigrator(
                model: "Blog", migrations: MigrationSources.postgres(for: history).map(StrataMigration.init))
        }
        return (migrator(old), migrator(new))
    }

    // MARK: SQLite

    @Test func sqliteCodeAtV1RunsAgainstADatabaseV2OnlyAddedTo() throws {
        let (v1, v2, _) = try Self.sqliteMigrators(Self.additive)
        let queue = try DatabaseQueue()
        try v2.migrate(queue)
        let ledger = try queue.read { db in try MigrationLedger.entries(db) }
        #expect(ledger.map(\.compatibleFrom) == [1, 1])
        #expect(ledger.map(\.incompatibility) == [nil, nil])

        #expect(try v1.currentVersion(in: queue) == 2)
        #expect(try v1.pending(in: queue).isEmpty)
        #expect(try v1.migrate(queue).isEmpty)
        // Code of v1 writes and reads with its own columns; v2 reads v1's rows with its defaults.
        try queue.write { db in try db.execute(sql: #"INSERT INTO "post" ("title") VALUES ('from v1')"#) }
        #expect(try queue.read { db in try String.fetchAll(db, sql: #"SELECT "title" FROM "post""#) } == ["from v1"])
        let row = try queue.read { db in try Row.fetchOne(db, sql: #"SELECT "subtitle", "pinned" FROM "post""#) }
        #expect(row?["subtitle"] == nil as String? && row?["pinned"] == 0)
        // Nothing was undone: v2's code finds its database as it left it.
        #expect(try v2.pending(in: queue).isEmpty)
        #expect(try queue.read { db in try MigrationLedger.entries(db) }.count == 2)
    }

    @Test func sqliteCodeAtV1IsRefusedByADatabaseWhoseV2RenamedAField() throws {
        let (v1, v2, _) = try Self.sqliteMigrators(Self.renaming)
        let queue = try DatabaseQueue()
        try v2.migrate(queue)
        let ledger = try queue.read { db in try MigrationLedger.entries(db) }
        #expect(ledger.map(\.compatibleFrom) == [1, 2])
        #expect(ledger.last?.incompatibility == Self.renameReason)
        let refusal = StrataMigrationError.databaseIsNewer(
            model: "Blog", databaseVersion: 2, latestKnownVersion: 1, firstIncompatibleVersion: 2,
            reason: Self.renameReason)
        #expect(throws: refusal) { try v1.migrate(queue) }
        #expect(
            refusal.description.contains(
                "v2 is not compatible with the code of v1: it renames Post.title to headline (column title -> headline)"))
        #expect(try queue.read { db in try MigrationLedger.entries(db) } == ledger)
    }

    @Test func sqliteLedgerFromBeforeTheColumnsOpensAndGetsThemOnTheNextMigrate() throws {
        let (v1, v2, _) = try Self.sqliteMigrators(Self.additive)
        let queue = try DatabaseQueue()
        try v1.migrate(queue)
        // The ledger as Strata wrote it before it recorded compatibility.
        try queue.write { db in
            try db.execute(sql: #"ALTER TABLE "strata_migrations" DROP COLUMN "compatible_from""#)
            try db.execute(sql: #"ALTER TABLE "strata_migrations" DROP COLUMN "incompatibility""#)
        }
        #expect(try v1.currentVersion(in: queue) == 1)
        #expect(try v2.migrate(queue).map(\.version) == [2])
        let columns = try queue.read { db in try db.columns(in: "strata_migrations").map(\.name) }
        #expect(columns.suffix(2) == ["compatible_from", "incompatibility"])
        let ledger = try queue.read { db in try MigrationLedger.entries(db) }
        #expect(ledger.map(\.compatibleFrom) == [nil, 1])
        // v2 is recorded compatible with v1: code at v1 opens it.
        #expect(try v1.currentVersion(in: queue) == 2)

        // A version recorded before the columns existed (NULL) is incompatible with older code.
        try queue.write { db in try db.execute(sql: #"UPDATE "strata_migrations" SET "compatible_from" = NULL"#) }
        #expect(
            throws: StrataMigrationError.databaseIsNewer(
                model: "Blog", databaseVersion: 2, latestKnownVersion: 1, firstIncompatibleVersion: 2, reason: nil)
        ) { try v1.currentVersion(in: queue) }
    }

    @Test func sqliteLedgerWithAnUnreadableCompatibilityIsRefused() throws {
        let (_, v2, _) = try Self.sqliteMigrators(Self.additive)
        let queue = try DatabaseQueue()
        try v2.migrate(queue)
        try queue.write { db in try db.execute(sql: #"UPDATE "strata_migrations" SET "compatible_from" = 'one'"#) }
        let error = #expect(throws: StrataMigrationError.self) { try v2.currentVersion(in: queue) }
        #expect(error == .unreadableLedger(row: 1, column: "compatible_from", found: "the text 'one'"))
    }

    @Test func strataMigrateSaysADatabaseAheadIsCompatibleOrNamesWhyNot() throws {
        for (second, compatible) in [(Self.additive, true), (Self.renaming, false)] {
            let (_, _, folders) = try Self.sqliteMigrators(second)
            let database = URL(fileURLWithPath: folders[1]).appendingPathComponent("blog.sqlite").path
            let applied = try CLI.strata(["migrate", "--database", database, "--schemas", folders[1]])
            #expect(applied.status == 0, "\(applied.stderr)")
            let bytes = try Data(contentsOf: URL(fileURLWithPath: database))
            let older = try CLI.strata(["migrate", "--database", database, "--schemas", folders[0]])
            if compatible {
                #expect(older.status == 0, "\(older.stderr)")
                #expect(
                    older.stdout.contains(
                        "is at version 2 of Blog, ahead of these schemas (v1); v2 is compatible with the code of v1: nothing to apply."
                    ), "\(older.stdout)")
                let json = try CLI.strata(["migrate", "--database", database, "--schemas", folders[0], "--format", "json"])
                let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
                #expect(object["aheadOfSchemas"] as? Bool == true && object["from"] as? Int == 2)
                // drift has no v2 to compare it with.
                let drift = try CLI.strata(["drift", "--database", database, "--schemas", folders[0]])
                #expect(drift.status == 2, "\(drift.stdout)\(drift.stderr)")
                #expect(drift.stderr.contains("ahead of these schemas (v1)"), "\(drift.stderr)")
            } else {
                #expect(older.status == 1, "\(older.stdout)")
                #expect(older.stderr.contains("it \(Self.renameReason)"), "\(older.stderr)")
            }
            #expect(try Data(contentsOf: URL(fileURLWithPath: database)) == bytes, "the database is untouched")
        }
    }

    // MARK: PostgreSQL

    /// v2 renames Post.title as a rolling version; v3 adds an optional field.
    static let rollingRename = renaming + "\nmigration:\n  rolling: true\n"
    static let afterRolling = renaming.replacingOccurrences(of: "version: 2", with: "version: 3")
        .replacingOccurrences(of: "headline: { type: String, renamedFrom: title }", with: "headline: String\n      summary: String?")

    @Test func postgresRollingVersionKeepsV1UntilItsContractWhichTheNextVersionRunsFirst() async throws {
        let server = try await TestPostgresServer.forTest()
        let (old, _) = try Models.temporary("Blog", versions: [Self.v1])
        let (new, _) = try Models.temporary("Blog", versions: [Self.v1, Self.rollingRename, Self.afterRolling])
        func migrator(_ history: SchemaHistory) -> PostgresMigrator {
            PostgresMigrator(model: "Blog", migrations: MigrationSources.postgres(for: history).map(StrataMigration.init))
        }
        let (v1, v3) = (migrator(old), migrator(new))
        try await server.withDatabase { session in
            let connection = session.connection
            try await v1.migrate(connection)
            try await session.execute(#"INSERT INTO "post" ("title") VALUES ('before')"#)
            #expect(try await v3.migrate(connection, to: 2).map(\.version) == [2])
            let ledger = #"SELECT "compatible_from"::text, coalesce("incompatibility", '') FROM "strata_migrations" ORDER BY "version""#
            #expect(try await session.textRows(sql: ledger) == [["1", ""], ["1", ""]])
            // Code of v1 opens the expanded database and writes with its column; v2's reads it renamed.
            #expect(try await v1.currentVersion(connection) == 2)
            try await session.execute(#"INSERT INTO "post" ("title") VALUES ('from v1')"#)
            try await session.execute(#"INSERT INTO "post" ("headline") VALUES ('from v2')"#)
            try await session.execute(#"UPDATE "post" SET "headline" = 'before, by v2' WHERE "title" = 'before'"#)
            #expect(
                try await session.textRows(sql: #"SELECT "title", "headline" FROM "post" ORDER BY "id""#)
                    == [["before, by v2", "before, by v2"], ["from v1", "from v1"], ["from v2", "from v2"]])

            // The next version contracts v2 first: v1's column goes, and v1's code is refused.
            #expect(try await v3.migrate(connection).map(\.version) == [3])
            #expect(try await session.textRows(sql: ledger) == [["1", ""], ["2", Self.renameReason], ["2", ""]])
            #expect(try await session.textRows(sql: #"SELECT "headline" FROM "post" ORDER BY "id""#)
                == [["before, by v2"], ["from v1"], ["from v2"]])
            let columns = try await session.textRows(
                sql: "SELECT column_name FROM information_schema.columns WHERE table_name = 'post' ORDER BY column_name")
            #expect(columns == [["headline"], ["id"], ["summary"]])
            #expect(try await session.textRows(sql: "SELECT count(*)::text FROM pg_trigger WHERE NOT tgisinternal") == [["0"]])
            await #expect(throws: StrataMigrationError.self) { try await v1.currentVersion(connection) }
        }
    }

    @Test func strataMigrateSaysAVersionIsExpandedAndContractsItOnRequest() async throws {
        let server = try await TestPostgresServer.forTest()
        let (_, folder) = try Models.temporary("Blog", versions: [Self.v1, Self.rollingRename])
        try await server.withDatabase { session in
            let url = session.url.description
            let expanded = try CLI.strata(["migrate", "--postgres", url, "--schemas", folder])
            #expect(expanded.status == 0, "\(expanded.stderr)")
            #expect(expanded.stdout.contains("v2 of Blog is expanded (migration.rolling): code of v1 still runs against it. Once no instance runs that code, run strata migrate --contract."), "\(expanded.stdout)")
            let dryRun = try CLI.strata(["migrate", "--postgres", url, "--schemas", folder, "--contract", "--dry-run"])
            #expect(dryRun.stdout.contains(#"ALTER TABLE "post" DROP COLUMN "title";"#), "\(dryRun.stdout)")
            let json = try CLI.strata(["migrate", "--postgres", url, "--schemas", folder, "--contract", "--format", "json"])
            #expect(json.status == 0, "\(json.stderr)")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
            #expect(object["contracted"] as? [Int] == [2])
            #expect(object["expanded"] as? [Int] == [])
            #expect(json.stderr.contains("Blog: contracted v2 in"), "\(json.stderr)")
            let again = try CLI.strata(["migrate", "--postgres", url, "--schemas", folder, "--contract"])
            #expect(again.stdout.contains("is at version 2 of Blog: nothing to apply."), "\(again.stdout)")
            // strata plan shows the contract after the version's statements, and the verdict until it.
            let plan = try CLI.strata(["plan", "Blog", "--schemas", folder, "--dialect", "postgres"])
            #expect(plan.status == 0, "\(plan.stderr)")
            #expect(plan.stdout.contains("Compatible with code of version 1: yes, until the contract (then no (\(Self.renameReason)))"), "\(plan.stdout)")
            #expect(plan.stdout.contains("-- The contract (v2.contract.sql): strata migrate --contract, or the next version."), "\(plan.stdout)")
            #expect(plan.stdout.contains(#"ALTER TABLE "post" DROP COLUMN "title";"#), "\(plan.stdout)")
        }
    }

    @Test func postgresCodeAtV1RunsAgainstADatabaseV2OnlyAddedToAndIsRefusedByARename() async throws {
        let server = try await TestPostgresServer.forTest()
        for (second, compatible) in [(Self.additive, true), (Self.renaming, false)] {
            let (v1, v2) = try Self.postgresMigrators(second)
            try await server.withDatabase { session in
                let connection = session.connection
                try await v2.migrate(connection)
                let recorded = try await session.textRows(
                    sql: #"SELECT "compatible_from"::text, "incompatibility" FROM "strata_migrations" ORDER BY "version""#)
                if compatible {
                    #expect(recorded == [["1", nil], ["1", nil]])
                    #expect(try await v1.currentVersion(connection) == 2)
                    #expect(try await v1.pending(connection).isEmpty)
                    #expect(try await v1.migrate(connection).isEmpty)
                    try await session.execute(#"INSERT INTO "post" ("title") VALUES ('from v1')"#)
                    #expect(
                        try await session.textRows(sql: #"SELECT "title", "subtitle", "pinned"::text FROM "post""#)
                            == [["from v1", nil, "false"]])
                } else {
                    #expect(recorded == [["1", nil], ["2", Self.renameReason]])
                    let dump = try server.dump(database: session.url.database)
                    await #expect(
                        throws: StrataMigrationError.databaseIsNewer(
                            model: "Blog", databaseVersion: 2, latestKnownVersion: 1, firstIncompatibleVersion: 2,
                            reason: Self.renameReason)
                    ) { try await v1.migrate(connection) }
                    #expect(try server.dump(database: session.url.database) == dump)
                }
            }
        }
    }

    @Test func postgresLedgerFromBeforeTheColumnsOpensAndGetsThemOnTheNextMigrate() async throws {
        let server = try await TestPostgresServer.forTest()
        let (v1, v2) = try Self.postgresMigrators(Self.additive)
        try await server.withDatabase { session in
            let connection = session.connection
            try await v1.migrate(connection)
            // The ledger as Strata wrote it before it recorded compatibility.
            try await session.execute(#"ALTER TABLE "strata_migrations" DROP COLUMN "compatible_from""#)
            try await session.execute(#"ALTER TABLE "strata_migrations" DROP COLUMN "incompatibility""#)
            #expect(try await v1.currentVersion(connection) == 1)
            #expect(try await v2.migrate(connection).map(\.version) == [2])
            #expect(
                try await session.textRows(
                    sql: #"SELECT "version"::text, "compatible_from"::text FROM "strata_migrations" ORDER BY 1"#)
                    == [["1", nil], ["2", "1"]])
            #expect(try await v1.currentVersion(connection) == 2)
            try await session.execute(#"UPDATE "strata_migrations" SET "compatible_from" = NULL"#)
            await #expect(
                throws: StrataMigrationError.databaseIsNewer(
                    model: "Blog", databaseVersion: 2, latestKnownVersion: 1, firstIncompatibleVersion: 2, reason: nil)
            ) { try await v1.currentVersion(connection) }
        }
    }

    // MARK: verify --compat

    @Test func verifyCompatListsTheStatementsOfV1ThatARenameBreaksAndPassesAnAdditiveVersion() async throws {
        let server = try await TestPostgresServer.forTest()
        let url = server.url.description
        for (second, compatible) in [(Self.additive, true), (Self.renaming, false)] {
            let (_, _, folders) = try Self.sqliteMigrators(second)
            let text = try CLI.strata(["verify", "--compat", "--schemas", folders[1], "--postgres", url])
            let json = try CLI.strata(["verify", "--compat", "--schemas", folders[1], "--postgres", url, "--format", "json"])
            let object = try #require(
                try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any], "\(json.stdout)")
            let reports = try #require(object["compat"] as? [[String: Any]])
            #expect(reports.compactMap { $0["dialect"] as? String } == ["sqlite", "postgres"])
            #expect(reports.allSatisfy { $0["codeVersion"] as? Int == 1 && $0["databaseVersion"] as? Int == 2 })
            #expect(reports.allSatisfy { ($0["prepared"] as? Int ?? 0) >= 12 }, "\(reports)")
            if compatible {
                #expect(text.status == 0, "\(text.stdout)\(text.stderr)")
                #expect(text.stdout.contains("Blog on SQLite: code of v1 against a database at v2: "), "\(text.stdout)")
                #expect(text.stdout.contains("all run"), "\(text.stdout)")
                #expect(object["passed"] as? Bool == true)
            } else {
                #expect(text.status == 1, "\(text.stdout)\(text.stderr)")
                #expect(text.stdout.contains("fails: Post insert: table post has no column named title"), "\(text.stdout)")
                #expect(
                    text.stdout.contains(#"fails: Post find: ERROR: column "title" does not exist"#), "\(text.stdout)")
                #expect(text.stdout.contains("generator: Compatible with code of version 1: no (\(Self.renameReason))"))
                #expect(object["passed"] as? Bool == false)
                for report in reports {
                    let failures = try #require(report["failures"] as? [[String: Any]])
                    let kinds = Set(failures.compactMap { $0["kind"] as? String })
                    // Every statement naming the column fails, and only those.
                    #expect(kinds.isSuperset(of: ["insert", "upsert", "find", "update", "fetch", "aggregate by title"]), "\(kinds)")
                    #expect(!kinds.contains("count") && !kinds.contains("exists"), "\(kinds)")
                    #expect(failures.allSatisfy { ($0["sql"] as? String)?.contains("title") == true })
                }
            }
        }
    }

    @Test func everyVersionTheGeneratorCallsCompatibleRunsThePreviousCodesStatements() throws {
        // The fixture models and the app's, each version against the code of the one before.
        var checked = 0
        for (name, folder) in [
            ("Evolution", Models.fixtures), ("Showcase", Models.fixtures), ("Adopted", Models.fixtures),
            ("MyTODO", Models.schemas),
        ] {
            let history = try Models.load(name, in: folder)
            for version in 2...(history.latest?.version ?? 1) {
                var prefix = history
                prefix.versions = Array(history.versions.prefix(version))
                prefix.queries = []
                let report = try #require(try CompatibilityCheck.sqlite(prefix))
                if report.compatibility.isCompatible {
                    checked += 1
                    #expect(report.passed, "\(name) v\(version): \(report.lines.joined(separator: "\n"))")
                }
            }
        }
        #expect(checked >= 3)
    }
}
