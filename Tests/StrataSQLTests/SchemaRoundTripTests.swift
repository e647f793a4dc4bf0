import Foundation
import GRDB
import StrataCore
import StrataIntrospection
import StrataTestSupport
import Testing

/// Every SQL file of every test model is executed on SQLite and on a real PostgreSQL server,
/// and the schema read back from the database must be exactly the one the model describes:
/// columns, types, nullability, defaults, keys, indexes, foreign keys and checks, with names.
@Suite struct SchemaRoundTripTests {
    /// A SQL script of a model and the version it must produce.
    struct Script {
        var name: String
        var sql: String
        var schema: Schema
    }

    /// The generated files (schema.sql = the latest version, migrations/v1.sql = v1) and every
    /// version of the model created from empty.
    static func scripts(_ history: SchemaHistory, dialect: SQLDialect) -> [Script] {
        var scripts: [Script] = []
        let folder = OutputLayout.sqlFolder(model: history.model, dialect: dialect.folderName)
        for file in Generator.files(for: history) where file.path.hasPrefix(folder + "/") {
            if file.path.hasSuffix("/" + OutputLayout.schemaSQL), let latest = history.latest {
                scripts.append(Script(name: file.path, sql: file.contents, schema: latest))
            } else if file.path.hasSuffix("/" + OutputLayout.migrationSQL(version: 1)), let first = history.version(1) {
                scripts.append(Script(name: file.path, sql: file.contents, schema: first))
            }
        }
        for schema in history.versions {
            scripts.append(
                Script(
                    name: "\(history.model) v\(schema.version) from empty",
                    sql: SQLSchemaRenderer.schemaFile(for: schema, dialect: dialect), schema: schema))
        }
        return scripts
    }

    @Test(arguments: SQLTestModels.all)
    func sqliteSchemaMatchesModel(_ source: SQLTestModels.Source) throws {
        let history = try SQLTestModels.history(source)
        let scripts = Self.scripts(history, dialect: .sqlite)
        #expect(scripts.count >= 3)
        for script in scripts {
            let queue = try DatabaseQueue()
            try queue.write { db in try db.execute(sql: script.sql) }
            let actual = try queue.read { db in try SQLiteIntrospector.schema(of: db) }
            let expected = ExpectedSchema.of(script.schema, dialect: .sqlite)
            let report = SchemaComparison().report(expected: expected, actual: actual)
            #expect(report.isEmpty, "\(script.name) on SQLite differs from the model:\n\(report)")
            #expect(actual.tables.map(\.name).sorted() == script.schema.entities.map(\.table).sorted())
            let problems = try queue.read { db in try String.fetchAll(db, sql: "PRAGMA integrity_check") }
            #expect(problems == ["ok"])
        }
    }

    @Test(arguments: SQLTestModels.all)
    func postgresSchemaMatchesModel(_ source: SQLTestModels.Source) async throws {
        let server = try await TestPostgresServer.forTest()
        let history = try SQLTestModels.history(source)
        for script in Self.scripts(history, dialect: .postgres) {
            try await server.withDatabase { session in
                try await session.executeScript(script.sql, inTransaction: true)
                let actual = try await PostgresIntrospector.schema(of: session)
                let expected = ExpectedSchema.of(script.schema, dialect: .postgres)
                let report = SchemaComparison().report(expected: expected, actual: actual)
                #expect(report.isEmpty, "\(script.name) on PostgreSQL differs from the model:\n\(report)")
                #expect(actual.tables.map(\.name).sorted() == script.schema.entities.map(\.table).sorted())
            }
        }
    }

    @Test func comparisonReportsEachKindOfDifferenceOnSQLite() throws {
        let schema = try #require(try SQLTestModels.fixture("SQLShowcase").latest)
        let queue = try DatabaseQueue()
        try queue.write { db in
            try db.execute(sql: SQLSchemaRenderer.schemaFile(for: schema, dialect: .sqlite))
            try db.execute(sql: #"DROP INDEX "everything_int_string_idx""#)
            try db.execute(sql: #"ALTER TABLE "user" ADD COLUMN "extra" TEXT DEFAULT 'x'"#)
            try db.execute(sql: #"CREATE TABLE "stray" ("id" INTEGER)"#)
        }
        let actual = try queue.read { db in try SQLiteIntrospector.schema(of: db) }
        let differences = SchemaComparison().differences(
            expected: ExpectedSchema.of(schema, dialect: .sqlite), actual: actual)
        #expect(
            differences.map(\.description) == [
                #"table "stray": not expected"#,
                #"table "everything": missing index "everything_int_string_idx""#,
                #"table "user": column "extra" not expected"#,
            ])
    }

    @Test func comparisonReportsChangedDefaultsTypesAndKeysOnPostgres() async throws {
        let server = try await TestPostgresServer.forTest()
        let schema = try #require(try SQLTestModels.fixture("SQLShowcase").latest)
        try await server.withDatabase { session in
            try await session.executeScript(SQLSchemaRenderer.schemaFile(for: schema, dialect: .postgres))
            try await session.executeScript(
                """
                ALTER TABLE "group" ALTER COLUMN "name" SET DEFAULT 'changed';
                ALTER TABLE "order" ALTER COLUMN "priority" TYPE INTEGER;
                ALTER TABLE "order" DROP CONSTRAINT "order_color_check";
                ALTER TABLE "order" ADD CONSTRAINT "order_color_check" CHECK ("color" IN ('red'));
                ALTER TABLE "group" DROP CONSTRAINT "group_owner_fkey";
                ALTER TABLE "group" ADD CONSTRAINT "group_owner_fkey" FOREIGN KEY ("owner") REFERENCES "user" ("id") ON DELETE CASCADE;
                ALTER TABLE "user" ALTER COLUMN "handle" DROP NOT NULL;
                """)
            let actual = try await PostgresIntrospector.schema(of: session)
            let differences = SchemaComparison().differences(
                expected: ExpectedSchema.of(schema, dialect: .postgres), actual: actual)
            #expect(
                differences.map(\.description) == [
                    #"table "group", column "name": default is 'changed', expected '''); DROP TABLE x; --'"#,
                    #"table "group", foreign key ("owner"): is ON DELETE CASCADE, expected ON DELETE SET NULL"#,
                    #"table "order", column "priority": type is integer, expected smallint"#,
                    #"table "order": missing check "color" IN ('''); DROP TABLE "order"; --', 'C:\temp\', 'it''s', 'red')"#,
                    #"table "order": check "color" IN ('red') not expected"#,
                    #"table "user", column "handle": allows NULL, expected NOT NULL"#,
                ])
        }
    }
}
