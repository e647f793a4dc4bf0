import Foundation
import GRDB
import StrataCore
import StrataIntrospection
import StrataStorage
import StrataTestSupport
import Testing

/// The constraints the DDL declares do their job on real databases: checks reject values outside
/// an enum, foreign keys reject dangling references and apply each ON DELETE action, unique
/// constraints reject duplicates, the database assigns autoincrement keys, and defaults (hostile
/// text included) are stored as the values the model says, in the runtime's encoding.
@Suite struct ConstraintBehaviorTests {
    static func showcase() throws -> Schema {
        try #require(try SQLTestModels.fixture("SQLShowcase").latest)
    }

    /// A SQLite database with the showcase schema and foreign keys enforced.
    static func sqlite() throws -> DatabaseQueue {
        var configuration = Configuration()
        configuration.foreignKeysEnabled = true
        let queue = try DatabaseQueue(configuration: configuration)
        try queue.write { db in try db.execute(sql: SQLSchemaRenderer.schemaFile(for: try showcase(), dialect: .sqlite))
        }
        return queue
    }

    /// Runs `sql` and returns the error it raises, or nil when it succeeds.
    static func failure(_ sql: String, in queue: DatabaseQueue) -> DatabaseError? {
        do {
            try queue.write { db in try db.execute(sql: sql) }
            return nil
        } catch let error as DatabaseError {
            return error
        } catch {
            Issue.record("unexpected error \(error)")
            return nil
        }
    }

    static func failure(_ sql: String, in session: PostgresSession) async -> PostgresSessionError? {
        do {
            try await session.execute(sql)
            return nil
        } catch let error as PostgresSessionError {
            return error
        } catch {
            Issue.record("unexpected error \(error)")
            return nil
        }
    }

    // MARK: SQLite

    @Test func sqliteChecksRejectValuesOutsideEnumsAndBooleans() throws {
        let queue = try Self.sqlite()
        try queue.write { db in
            try db.execute(sql: #"INSERT INTO "user" ("handle") VALUES ('ann')"#)
            try db.execute(sql: #"INSERT INTO "group" ("id") VALUES (X'00112233445566778899AABBCCDDEEFF')"#)
            // Every case's raw value is accepted.
            try db.execute(
                sql:
                    #"INSERT INTO "order" ("number", "buyer", "group", "color") VALUES (1, 1, X'00112233445566778899AABBCCDDEEFF', 'it''s')"#
            )
        }
        let error = try #require(
            Self.failure(
                #"INSERT INTO "order" ("number", "buyer", "group", "color") VALUES (2, 1, X'00112233445566778899AABBCCDDEEFF', 'purple')"#,
                in: queue))
        #expect(error.resultCode == .SQLITE_CONSTRAINT)
        #expect(error.message?.contains("order_color_check") == true)
        let priority = try #require(
            Self.failure(
                #"INSERT INTO "order" ("number", "buyer", "group", "priority") VALUES (3, 1, X'00112233445566778899AABBCCDDEEFF', 7)"#,
                in: queue))
        #expect(priority.message?.contains("order_priority_check") == true)
        let bool = try #require(Self.failure(#"INSERT INTO "everything" ("data", "bool") VALUES (X'', 2)"#, in: queue))
        #expect(bool.message?.contains("everything_bool_check") == true)
        // NULL passes the check of an optional column.
        try queue.write { db in
            try db.execute(
                sql:
                    #"INSERT INTO "everything" ("data", "optional_bool", "optional_priority") VALUES (X'', NULL, NULL)"#
            )
        }
    }

    @Test func sqliteForeignKeysRejectDanglingReferencesAndApplyOnDelete() throws {
        let queue = try Self.sqlite()
        let dangling = try #require(
            Self.failure(#"INSERT INTO "group" ("id", "owner") VALUES (X'01', 999)"#, in: queue))
        #expect(dangling.resultCode == .SQLITE_CONSTRAINT)
        try Self.insertGraph(queue)
        // restrict (order.buyer) and noAction (order.group) keep referenced rows.
        #expect(Self.failure(#"DELETE FROM "user" WHERE "id" = 1"#, in: queue) != nil)
        #expect(Self.failure(#"DELETE FROM "group""#, in: queue) != nil)
        try queue.write { db in
            // cascade: deleting the order deletes its details.
            try db.execute(sql: #"DELETE FROM "order""#)
            #expect(try Int.fetchOne(db, sql: #"SELECT count(*) FROM "Order Details""#) == 0)
            // setNull: deleting the owner clears group.owner.
            try db.execute(sql: #"DELETE FROM "user" WHERE "id" = 1"#)
            #expect(try Int.fetchOne(db, sql: #"SELECT count(*) FROM "group" WHERE "owner" IS NULL"#) == 1)
        }
    }

    static func insertGraph(_ queue: DatabaseQueue) throws {
        try queue.write { db in
            try db.execute(sql: #"INSERT INTO "user" ("handle") VALUES ('ann')"#)
            try db.execute(sql: #"INSERT INTO "group" ("id", "owner") VALUES (X'01', 1)"#)
            try db.execute(sql: #"INSERT INTO "order" ("number", "buyer", "group") VALUES (7, 1, X'01')"#)
            try db.execute(sql: #"INSERT INTO "Order Details" ("order", "line") VALUES (7, 1), (7, 2)"#)
        }
    }

    @Test func sqliteUniqueAndAutoincrement() throws {
        let queue = try Self.sqlite()
        try queue.write { db in
            try db.execute(sql: #"INSERT INTO "user" ("handle") VALUES ('ann'), ('bob')"#)
            #expect(try Int.fetchAll(db, sql: #"SELECT "id" FROM "user" ORDER BY "id""#) == [1, 2])
            try db.execute(sql: #"DELETE FROM "user" WHERE "id" = 2"#)
            try db.execute(sql: #"INSERT INTO "user" ("handle") VALUES ('cid')"#)
            // AUTOINCREMENT never reuses a key.
            #expect(try Int.fetchAll(db, sql: #"SELECT "id" FROM "user" ORDER BY "id""#) == [1, 3])
        }
        let duplicate = try #require(Self.failure(#"INSERT INTO "user" ("handle") VALUES ('ann')"#, in: queue))
        #expect(duplicate.message?.contains("UNIQUE") == true)
    }

    @Test func sqliteStoresDefaultsInTheRuntimeEncoding() throws {
        let schema = try Self.showcase()
        let everything = try #require(schema.entity(named: "Everything"))
        let queue = try Self.sqlite()
        let row = try queue.write { db -> Row in
            try db.execute(sql: #"INSERT INTO "everything" ("data") VALUES (X'')"#)
            return try #require(try Row.fetchOne(db, sql: #"SELECT * FROM "everything""#))
        }
        func literal(_ field: String) throws -> String {
            guard case .string(let text) = try #require(everything.field(named: field)?.defaultValue) else {
                throw DefaultError.notText(field)
            }
            return text
        }
        // The values as the runtime reads them back, against the schema's literals read by Foundation.
        let idBytes = try #require(row["id"] as Data?)
        let id = idBytes.withUnsafeBytes { SQLiteStorage.uuid(bytes: $0.baseAddress, count: $0.count) }
        #expect(id == UUID(uuidString: try literal("id")))
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let date = try #require(formatter.date(from: try literal("date")))
        #expect(row["date"] as Double? == date.timeIntervalSinceReferenceDate)
        #expect(SQLiteStorage.date(seconds: try #require(row["date"] as Double?)) == date)
        let decimalText = try #require(row["decimal"] as String?)
        #expect(
            SQLiteStorage.decimal(text: decimalText)
                == Decimal(string: try literal("decimal"), locale: Locale(identifier: "en_US_POSIX")))
        #expect(
            decimalText == SQLiteStorage.text(of: try #require(SQLiteStorage.decimal(text: try literal("decimal")))))
        #expect(row["bool"] as Int64? == 1)
        #expect(row["optional_bool"] as Int64? == 0)
        #expect(row["optional_string"] as String? == nil)
        #expect(row["int64"] as Int64? == Int64.max)
        #expect(row["int32"] as Int64? == Int64(Int32.min))
        #expect(row["float"] as Double? == -0.125)
        #expect(row["optional_double"] as Double? == 1e-5)
        // Every column is stored with the SQLite storage class its encoding promises.
        let types = try queue.read { db in
            try Row.fetchOne(
                db,
                sql:
                    #"SELECT typeof("id"), typeof("date"), typeof("decimal"), typeof("bool"), typeof("double"), typeof("string") FROM "everything""#
            )
        }.map { row in (0..<row.count).map { row[$0] as String? } }
        #expect(types == ["blob", "real", "text", "integer", "real", "text"])
    }

    enum DefaultError: Error { case notText(String) }

    @Test func sqliteHostileDefaultIsStoredAsTextAndExecutesNothing() throws {
        let schema = try Self.showcase()
        let queue = try Self.sqlite()
        let tablesBefore = try queue.read { db in
            try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        }
        try queue.write { db in
            try db.execute(sql: #"INSERT INTO "user" ("handle") VALUES ('ann')"#)
            try db.execute(sql: #"INSERT INTO "group" ("id") VALUES (X'01')"#)
            try db.execute(sql: #"INSERT INTO "order" ("number", "buyer", "group") VALUES (1, 1, X'01')"#)
            try db.execute(sql: #"INSERT INTO "Order Details" ("order", "line") VALUES (1, 1)"#)
        }
        let stored = try queue.read { db in
            (
                try String.fetchOne(db, sql: #"SELECT "name" FROM "group""#),
                try String.fetchOne(db, sql: #"SELECT "color" FROM "order""#),
                try String.fetchOne(db, sql: #"SELECT "select" FROM "Order Details""#)
            )
        }
        #expect(stored.0 == Self.text(schema, "Group", "name"))
        #expect(stored.1 == Self.enumRawText(schema, "Color", "drop"))
        #expect(stored.2 == Self.text(schema, "OrderDetail", "note"))
        let tablesAfter = try queue.read { db in
            try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        }
        #expect(tablesAfter == tablesBefore)
    }

    static func text(_ schema: Schema, _ entity: String, _ field: String) -> String? {
        guard case .string(let text)? = schema.entity(named: entity)?.field(named: field)?.defaultValue else {
            return nil
        }
        return text
    }

    static func enumRawText(_ schema: Schema, _ decl: String, _ name: String) -> String? {
        guard case .string(let text)? = schema.enumDecl(named: decl)?.case(named: name)?.rawValue else { return nil }
        return text
    }

    // MARK: PostgreSQL

    /// Runs `body` on a fresh PostgreSQL database holding the showcase schema.
    static func withPostgres(_ body: (PostgresSession) async throws -> Void) async throws {
        let server = try await TestPostgresServer.forTest()
        let sql = SQLSchemaRenderer.schemaFile(for: try showcase(), dialect: .postgres)
        try await server.withDatabase { session in
            try await session.executeScript(sql)
            try await body(session)
        }
    }

    @Test func postgresChecksRejectValuesOutsideEnums() async throws {
        try await Self.withPostgres { session in
            try await session.executeScript(
                """
                INSERT INTO "user" ("handle") VALUES ('ann');
                INSERT INTO "group" ("id") VALUES ('00112233-4455-6677-8899-aabbccddeeff');
                INSERT INTO "order" ("number", "buyer", "group", "color") VALUES (1, 1, '00112233-4455-6677-8899-aabbccddeeff', 'C:\\temp\\');
                """)
            let color = await Self.failure(
                #"INSERT INTO "order" ("number", "buyer", "group", "color") VALUES (2, 1, '00112233-4455-6677-8899-aabbccddeeff', 'purple')"#,
                in: session)
            #expect(color?.sqlState == "23514")
            #expect(color?.message.contains("order_color_check") == true)
            let big = await Self.failure(
                #"INSERT INTO "order" ("number", "buyer", "group", "big") VALUES (3, 1, '00112233-4455-6677-8899-aabbccddeeff', 1)"#,
                in: session)
            #expect(big?.message.contains("order_big_check") == true)
        }
    }

    @Test func postgresForeignKeysRejectDanglingReferencesAndApplyOnDelete() async throws {
        try await Self.withPostgres { session in
            let dangling = await Self.failure(
                #"INSERT INTO "group" ("id", "owner") VALUES ('00000000-0000-0000-0000-000000000001', 999)"#,
                in: session)
            #expect(dangling?.sqlState == "23503")
            #expect(dangling?.message.contains("group_owner_fkey") == true)
            try await session.executeScript(
                """
                INSERT INTO "user" ("handle") VALUES ('ann');
                INSERT INTO "group" ("id", "owner") VALUES ('00000000-0000-0000-0000-000000000001', 1);
                INSERT INTO "order" ("number", "buyer", "group") VALUES (7, 1, '00000000-0000-0000-0000-000000000001');
                INSERT INTO "Order Details" ("order", "line") VALUES (7, 1), (7, 2);
                """)
            #expect(await Self.failure(#"DELETE FROM "user" WHERE "id" = 1"#, in: session)?.sqlState == "23503")
            #expect(await Self.failure(#"DELETE FROM "group""#, in: session)?.sqlState == "23503")
            try await session.execute(#"DELETE FROM "order""#)
            #expect(try await session.textRows(#"SELECT count(*)::text FROM "Order Details""#) == [["0"]])
            try await session.execute(#"DELETE FROM "user" WHERE "id" = 1"#)
            #expect(try await session.textRows(#"SELECT count(*)::text FROM "group" WHERE "owner" IS NULL"#) == [["1"]])
        }
    }

    @Test func postgresUniqueIdentityAndDefaults() async throws {
        let schema = try Self.showcase()
        let everything = try #require(schema.entity(named: "Everything"))
        try await Self.withPostgres { session in
            try await session.execute(#"INSERT INTO "user" ("handle") VALUES ('ann'), ('bob')"#)
            #expect(try await session.textRows(#"SELECT "id"::text FROM "user" ORDER BY "id""#) == [["1"], ["2"]])
            #expect(
                await Self.failure(#"INSERT INTO "user" ("handle") VALUES ('ann')"#, in: session)?.sqlState == "23505")

            try await session.execute(#"INSERT INTO "group" ("id") VALUES ('00000000-0000-0000-0000-000000000001')"#)
            try await session.execute(#"INSERT INTO "everything" ("data") VALUES ('\x'::bytea)"#)
            let rows = try await session.textRows(
                """
                SELECT g."name", e."id"::text, extract(epoch FROM e."date")::text, e."decimal"::text, e."bool"::text,
                       e."int64"::text, e."optional_string"
                FROM "group" g, "everything" e
                """)
            let row = try #require(rows.first)
            #expect(row[0] == Self.text(schema, "Group", "name"))
            guard case .string(let id)? = everything.field(named: "id")?.defaultValue,
                case .string(let dateText)? = everything.field(named: "date")?.defaultValue,
                case .string(let decimalText)? = everything.field(named: "decimal")?.defaultValue
            else {
                Issue.record("the showcase's defaults changed")
                return
            }
            #expect(row[1].flatMap(UUID.init(uuidString:)) == UUID(uuidString: id))
            let formatter = ISO8601DateFormatter()
            formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
            #expect(row[2].flatMap(Double.init) == formatter.date(from: dateText)?.timeIntervalSince1970)
            #expect(row[3].flatMap { Decimal(string: $0) } == Decimal(string: decimalText))
            #expect(row[4] == "true")
            #expect(row[5] == String(Int64.max))
            #expect(row[6] == nil)
            // Nothing in the hostile defaults ran: every table is still there.
            let tables = try await session.textRows("SELECT count(*)::text FROM pg_tables WHERE schemaname = 'public'")
            #expect(tables == [[String(schema.entities.count)]])
        }
    }
}
