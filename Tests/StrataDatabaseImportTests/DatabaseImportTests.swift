import Foundation
import GRDB
import StrataCore
import StrataDatabaseImport
import StrataIntrospection
import StrataTestSupport
import Testing

/// `strata import database`: an existing database's tables become `v1.yaml`, and the round trip
/// holds: the DDL Strata generates from the imported model creates the same schema, as `strata
/// verify`'s introspection reads it, on SQLite and on a real PostgreSQL server.
@Suite struct DatabaseImportTests {
    /// Writes the outcome into `folder/Schemas` and returns the model's latest version, as `strata lint` checks it.
    static func written(_ outcome: DatabaseImporter.Outcome, in folder: URL) throws -> (Schema, String) {
        #expect(!outcome.hasErrors, "\(outcome.diagnostics)")
        let schemas = folder.appendingPathComponent("Schemas").path
        let (written, warnings) = try DatabaseImporter.write(outcome, schemas: schemas)
        #expect(written == [schemas + "/\(outcome.model)/v1.yaml"])
        #expect(warnings.isEmpty, "\(warnings)")
        let plan = Workspace.plan(schemas: schemas, output: "", render: false)
        #expect(plan.diagnostics.isEmpty, "\(plan.diagnostics)")
        let latest = try #require(plan.histories.first?.latest)
        return (latest, try String(contentsOfFile: written[0], encoding: .utf8))
    }

    static func messages(_ outcome: DatabaseImporter.Outcome) -> [String] {
        outcome.diagnostics.map { "\($0.severity.rawValue): \($0.message)" }
    }

    // MARK: - SQLite

    static let sqliteShop = """
        CREATE TABLE customer (
            id INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
            email TEXT NOT NULL UNIQUE,
            name TEXT,
            vip INTEGER NOT NULL DEFAULT 0 CHECK (vip IN (0, 1)),
            score REAL DEFAULT 1.5,
            "Display Name" TEXT NOT NULL DEFAULT 'it''s',
            photo BLOB
        );
        CREATE TABLE "order" (
            id INTEGER NOT NULL PRIMARY KEY,
            customer_id INTEGER REFERENCES customer (id) ON DELETE SET NULL,
            note TEXT NOT NULL DEFAULT '',
            total REAL NOT NULL DEFAULT -2,
            status TEXT NOT NULL DEFAULT 'placed' CHECK (status IN ('placed', 'draft', 'shipped'))
        );
        CREATE TABLE order_line (
            order_id INTEGER NOT NULL REFERENCES "order" (id) ON DELETE CASCADE,
            position INTEGER NOT NULL,
            quantity INTEGER NOT NULL DEFAULT 1,
            PRIMARY KEY (order_id, position)
        );
        CREATE TABLE Tag (
            code TEXT NOT NULL PRIMARY KEY,
            owner INTEGER NOT NULL REFERENCES customer (id) ON DELETE RESTRICT
        );
        CREATE INDEX order_note ON "order" (note, total);
        CREATE UNIQUE INDEX customer_name_key ON customer (name);
        CREATE INDEX order_line_quantity_idx ON order_line (quantity);
        CREATE TABLE strata_migrations (model TEXT NOT NULL, version INTEGER NOT NULL, PRIMARY KEY (model, version));
        """

    @Test func aSQLiteDatabaseRoundTripsThroughTheImportedModel() throws {
        let folder = try TestDatabases.folder()
        let path = try TestDatabases.sqliteDatabase(Self.sqliteShop, in: folder)
        let original = try DatabaseImporter.readSQLite(path: path)
        let outcome = DatabaseImporter.map(original, dialect: .sqlite, model: "Shop", source: path)
        #expect(outcome.diagnostics.isEmpty, "\(outcome.diagnostics)")
        let (schema, yaml) = try Self.written(outcome, in: folder)
        #expect(
            yaml == """
                # Imported by 'strata import database' from \(path) (SQLite).
                model: Shop
                version: 1

                enums:
                  OrderStatus:
                    type: String
                    cases: [draft, placed, shipped]

                entities:
                  Tag:
                    table: Tag
                    fields:
                      code: { type: String, primaryKey: true }
                      owner: { type: Customer, onDelete: restrict }

                  Customer:
                    fields:
                      id: { type: Int64, autoincrement: true }
                      email: { type: String, unique: true }
                      name: String?
                      vip: { type: Bool, default: false }
                      score: { type: Double?, default: 1.5 }
                      displayName: { type: String, default: "it's", column: "Display Name" }
                      photo: Data?
                    indexes:
                      - { fields: [name], unique: true }

                  Order:
                    fields:
                      id: { type: Int64, autoincrement: rowid }
                      customer: { type: Customer?, onDelete: setNull, column: customer_id }
                      note: { type: String, default: "" }
                      total: { type: Double, default: -2 }
                      status: { type: OrderStatus, default: placed }
                    indexes:
                      - { fields: [note, total], name: order_note }

                  OrderLine:
                    primaryKey: [order, position]
                    fields:
                      order: { type: Order, onDelete: cascade, column: order_id }
                      position: Int64
                      quantity: { type: Int64, default: 1 }
                    indexes:
                      - [quantity]

                """)
        // The generated DDL, on a fresh database, reads back as the original (Strata's own table aside).
        let queue = try DatabaseQueue()
        try queue.write { try $0.execute(sql: SQLSchemaRenderer.schemaFile(for: schema, dialect: .sqlite)) }
        let regenerated = try queue.read { try SQLiteIntrospector.schema(of: $0) }
        // SQLite records no names for constraints written without CONSTRAINT; Strata names them all.
        let report = SchemaComparison(comparesConstraintNames: false).report(
            expected: original.removingTables(DatabaseSchema.strataTables), actual: regenerated)
        #expect(report.isEmpty, "\(report)")
    }

    @Test func sqliteTextDatesImportAsDateFieldsWithTheirFormatAndAreAdoptedUntouched() throws {
        let folder = try TestDatabases.folder()
        let path = try TestDatabases.sqliteDatabase(
            """
            CREATE TABLE event (
                id INTEGER PRIMARY KEY, at DATETIME NOT NULL, day DATE, note TEXT, odd DATETIME, free TEXT,
                empty_day DATE, stamp TIMESTAMP
            );
            INSERT INTO event (at, day, note, odd, free, stamp) VALUES
                ('2009-01-01 00:00:00', '2012-02-29', 'hello', '2009-01-01 00:00:00', '2010-05-05', NULL),
                ('2009-01-02 10:20:30.125', NULL, '2009-01-01', 'yesterday', '0001-01-01', NULL);
            CREATE TABLE holiday (day DATE NOT NULL PRIMARY KEY, name TEXT, moved DATETIME);
            INSERT INTO holiday VALUES ('2009-01-02', 'Moved', 20090101);
            INSERT INTO holiday VALUES ('2009-01-01', 'New Year', NULL);
            """, in: folder)
        let outcome = DatabaseImporter.map(
            try DatabaseImporter.readSQLite(path: path), dialect: .sqlite, model: "Events", source: path)
        #expect(
            Self.messages(outcome) == [
                "warning: column 'event.odd' is DATETIME, but holds 'yesterday', which is no date as 'format: timestamp' ('YYYY-MM-DD HH:MM:SS[.SSS]') or 'format: date' ('YYYY-MM-DD') writes it; imported as String",
                "warning: column 'event.odd' is DATETIME, which SQLite gives NUMERIC affinity: text that reads as a number is stored as one ('1.50' reads back as '1.5'); imported as String with its declared type kept",
                "warning: column 'holiday.day' is DATE, which SQLite gives NUMERIC affinity: text that reads as a number is stored as one ('1.50' reads back as '1.5'); imported as String with its declared type kept",
                "warning: column 'holiday.moved' is DATETIME, but holds '20090101', which is no date as 'format: timestamp' ('YYYY-MM-DD HH:MM:SS[.SSS]') or 'format: date' ('YYYY-MM-DD') writes it; imported as String",
                "warning: column 'holiday.moved' is DATETIME, which SQLite gives NUMERIC affinity: text that reads as a number is stored as one ('1.50' reads back as '1.5'); imported as String with its declared type kept",
            ])
        let (_, yaml) = try Self.written(outcome, in: folder)
        // A key keeps its text: references store a Date key as Strata does.
        #expect(yaml.contains("      day: { type: String, sqlType: { sqlite: \"DATE\" }, primaryKey: true }\n"), "\(yaml)")
        #expect(yaml.contains("      at: { type: Date, format: timestamp, sqlType: { sqlite: \"DATETIME\" } }\n"), "\(yaml)")
        #expect(yaml.contains("      day: { type: Date?, format: date, sqlType: { sqlite: \"DATE\" } }\n"))
        #expect(yaml.contains("      note: String?\n"))
        #expect(yaml.contains("      odd: { type: String?, sqlType: { sqlite: \"DATETIME\" } }\n"))
        // Any text column of dates alone is a Date; an empty one is one when its type says so.
        #expect(yaml.contains("      free: { type: Date?, format: date }\n"))
        #expect(yaml.contains("      emptyDay: { type: Date?, format: date, sqlType: { sqlite: \"DATE\" } }\n"))
        #expect(yaml.contains("      stamp: { type: Date?, format: timestamp, sqlType: { sqlite: \"TIMESTAMP\" } }\n"))
        let before = try DatabaseQueue(path: path).read { try String.fetchAll($0, sql: "SELECT quote(at) || quote(day) || quote(free) FROM event ORDER BY id") }
        let baseline = try CLI.strata(["migrate", "--database", path, "--model", "Events", "--baseline", "1"], schemasIn: folder)
        #expect(baseline.status == 0, "\(baseline.stderr)")
        #expect(try DatabaseQueue(path: path).read { try String.fetchAll($0, sql: "SELECT quote(at) || quote(day) || quote(free) FROM event ORDER BY id") } == before)
    }

    @Test func whatSQLiteHasAndStrataCannotSayIsAWarningNamingTableAndColumn() throws {
        let folder = try TestDatabases.folder()
        let path = try TestDatabases.sqliteDatabase(
            """
            CREATE TABLE item (
                id INTEGER PRIMARY KEY,
                name VARCHAR(20) NOT NULL,
                price DECIMAL(10,2),
                done BOOLEAN NOT NULL DEFAULT 0,
                stamp TEXT DEFAULT CURRENT_TIMESTAMP,
                kind TEXT CHECK (kind IN ('a', 'b')),
                size INTEGER CHECK (size > 0),
                anything
            );
            CREATE TABLE pair (a INTEGER NOT NULL, b INTEGER NOT NULL, PRIMARY KEY (a, b), UNIQUE (b, a));
            CREATE TABLE link (
                id INTEGER NOT NULL PRIMARY KEY,
                a INTEGER, b INTEGER,
                FOREIGN KEY (a, b) REFERENCES pair (a, b)
            );
            CREATE INDEX item_lower ON item (lower(name));
            CREATE TABLE log (line TEXT);
            """, in: folder)
        let outcome = DatabaseImporter.map(
            try DatabaseImporter.readSQLite(path: path), dialect: .sqlite, model: "Legacy", source: path)
        #expect(
            Self.messages(outcome) == [
                "warning: table 'log' has no primary key, which every Strata entity needs; not imported",
                "warning: column 'item.anything' has no declared type; imported as Data (its column becomes BLOB)",
                "warning: the index 'item_lower' of table 'item' is on an expression or a column that is not imported; not imported",
                "warning: the foreign key (a, b) of table 'link' referencing 'pair' (a, b) is not imported: a Strata reference is one column naming the primary key of an imported table",
                "warning: the unique constraint (b, a) of table 'pair' is imported as a unique index: Strata declares unique constraints on single fields",
            ])
        let (_, yaml) = try Self.written(outcome, in: folder)
        // Declared types, default expressions and checks are kept as the table has them.
        #expect(yaml.contains("      name: { type: String, sqlType: { sqlite: \"VARCHAR(20)\" } }\n"))
        #expect(yaml.contains("      price: { type: Decimal?, sqlType: { sqlite: \"DECIMAL(10,2)\" } }\n"))
        #expect(yaml.contains("      done: { type: Bool, default: false, sqlType: { sqlite: \"BOOLEAN\" } }\n"))
        #expect(yaml.contains("      stamp: { type: String?, default: { sqlite: \"CURRENT_TIMESTAMP\" } }\n"))
        #expect(yaml.contains("      size: { type: Int64?, check: { sqlite: \"SIZE > 0\" } }\n"))
        #expect(yaml.contains("  ItemKind:\n    type: String\n    cases: [a, b]\n"))
        #expect(yaml.contains("      kind: ItemKind?\n"))
        #expect(yaml.contains("      - { fields: [b, a], unique: true, name: sqlite_autoindex_pair_1 }") == false)
        #expect(yaml.contains("      - { fields: [b, a], unique: true }\n"))
        #expect(!yaml.contains("Log"))
    }

    /// Every type Strata declares reads back as a type stored in the same column type: the
    /// importer inverts the dialect's column types, the widest type winning where several share one.
    @Test(arguments: SQLDialect.allCases)
    func everyColumnTypeStrataDeclaresImportsExactly(_ dialect: SQLDialect) {
        let columns = ScalarType.allCases.map { type in
            DatabaseSchema.Column(
                name: "c_\(type.name.lowercased())",
                type: SQLCanonicalForm.typeName(dialect.columnType(type), dialect: dialect), isNullable: false,
                defaultValue: nil, isAutoincrement: false)
        }
        let table = DatabaseSchema.Table(
            name: "t",
            columns: [
                DatabaseSchema.Column(
                    name: "id", type: columns[0].type, isNullable: false, defaultValue: nil, isAutoincrement: false)
            ] + columns,
            primaryKey: DatabaseSchema.Key(name: nil, columns: ["id"]))
        let outcome = DatabaseImporter.map(DatabaseSchema(tables: [table]), dialect: dialect, model: "M", source: "db")
        #expect(outcome.diagnostics.isEmpty, "\(outcome.diagnostics)")
        let fields = outcome.schema.entities.first?.fields.dropFirst() ?? []
        #expect(fields.count == ScalarType.allCases.count)
        for (type, field) in zip(ScalarType.allCases, fields) {
            let imported = ScalarType(rawValue: field.type)
            #expect(imported.map(dialect.columnType) == dialect.columnType(type), "\(type) -> \(field.type)")
        }
        let widest =
            dialect == .sqlite
            ? [
                "String", "Int64", "Int64", "Int64", "Int64", "Double", "Double", "Int64", "Data", "Double", "Data",
                "String", "String", "String",
            ]
            : [
                "String", "Int64", "Int64", "Int32", "Int16", "Double", "Float", "Bool", "UUID", "Date", "Data",
                "Decimal", "String", "JSON",
            ]
        #expect(fields.map(\.type) == widest)
    }

    /// Names that are not Swift-friendly become valid, unreserved, unique names; the SQL names are kept.
    @Test func namesBecomeValidUniqueSchemaNamesAndTheSQLNamesAreKept() throws {
        let folder = try TestDatabases.folder()
        let path = try TestDatabases.sqliteDatabase(
            """
            CREATE TABLE "Date" (id INTEGER NOT NULL PRIMARY KEY, "init" TEXT, "2fa" INTEGER, "a b" TEXT, a_b TEXT, "ID_Code" TEXT);
            CREATE TABLE date_table (id INTEGER NOT NULL PRIMARY KEY, owner_id INTEGER REFERENCES "Date" (id), owner TEXT);
            """, in: folder)
        let outcome = DatabaseImporter.map(
            try DatabaseImporter.readSQLite(path: path), dialect: .sqlite, model: "Names", source: path)
        let (_, yaml) = try Self.written(outcome, in: folder)
        #expect(
            yaml.hasSuffix(
                """
                entities:
                  DateTable:
                    table: Date
                    fields:
                      id: { type: Int64, autoincrement: rowid }
                      initField: { type: String?, column: init }
                      _2fa: { type: Int64?, column: "2fa" }
                      aB: { type: String?, column: "a b" }
                      aB2: { type: String?, column: a_b }
                      idCode: { type: String?, column: ID_Code }

                  DateTable2:
                    table: date_table
                    fields:
                      id: { type: Int64, autoincrement: rowid }
                      owner: { type: DateTable?, column: owner_id }
                      owner2: { type: String?, column: owner }

                """))
    }

    // MARK: - Refusals

    @Test func anExistingModelFolderIsNeverOverwritten() throws {
        let folder = try TestDatabases.folder()
        let path = try TestDatabases.sqliteDatabase(Self.sqliteShop, in: folder)
        let outcome = DatabaseImporter.map(
            try DatabaseImporter.readSQLite(path: path), dialect: .sqlite, model: "Shop", source: path)
        let (_, before) = try Self.written(outcome, in: folder)
        let schemas = folder.appendingPathComponent("Schemas").path
        do {
            _ = try DatabaseImporter.write(outcome, schemas: schemas)
            Issue.record("the second import wrote into the existing model folder")
        } catch {
            guard case .problems(let problems) = error else { throw error }
            #expect(
                problems.map(\.message).first?.hasSuffix(
                    "already exists: the import writes a new model; remove it, or choose another --model or --schemas")
                    == true)
        }
        #expect(try String(contentsOfFile: schemas + "/Shop/v1.yaml", encoding: .utf8) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: schemas) == ["Shop"])
    }

    @Test func anEmptyDatabaseAndABadModelNameAreErrors() throws {
        let folder = try TestDatabases.folder()
        let empty = DatabaseImporter.map(DatabaseSchema(tables: []), dialect: .sqlite, model: "M", source: "e.sqlite")
        #expect(Self.messages(empty) == ["error: the database has no tables to import"])
        let path = try TestDatabases.sqliteDatabase("CREATE TABLE t (id INTEGER PRIMARY KEY)", in: folder)
        let badName = DatabaseImporter.map(
            try DatabaseImporter.readSQLite(path: path), dialect: .sqlite, model: "my model", source: path)
        #expect(badName.hasErrors)
        #expect(throws: ImportedModelWriter.Failure.self) {
            try DatabaseImporter.write(badName, schemas: folder.appendingPathComponent("Schemas").path)
        }
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("Schemas").path))
    }

    // MARK: - The command line

    @Test func theCommandWritesTheModelAndReportsWarningsAndRefusals() throws {
        let folder = try TestDatabases.folder()
        _ = try TestDatabases.sqliteDatabase(
            Self.sqliteShop
                + "\nCREATE TABLE extra (id INTEGER PRIMARY KEY, name VARCHAR(9));\nCREATE INDEX extra_lower ON extra (lower(name));",
            in: folder)
        func strata(_ arguments: [String], environment: [String: String] = [:]) throws -> CLI.Result {
            let running = try CLI.start(
                arguments + ["--schemas", folder.appendingPathComponent("Schemas").path], environment: environment)
            return CLI.finish(running)
        }
        let sqlite = folder.appendingPathComponent("app.sqlite").path
        let result = try strata(["import", "database", "--sqlite", sqlite, "--model", "Shop"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasSuffix("/Schemas/Shop/v1.yaml\n"), "\(result.stdout)")
        #expect(
            result.stderr
                == "\(sqlite):1:1: warning: the index 'extra_lower' of table 'extra' is on an expression or a column that is not imported; not imported\n"
        )
        // Again: the model exists, nothing is written.
        let again = try strata(["import", "database", "--sqlite", sqlite, "--model", "Shop"])
        #expect(again.status == 1)
        #expect(again.stderr.contains("/Schemas/Shop: error: ") == false)
        #expect(again.stderr.contains("error: '\(folder.path)/Schemas/Shop' already exists"), "\(again.stderr)")
        // A database that is not there.
        let missing = try strata(["import", "database", "--sqlite", "nope.sqlite", "--model", "Other"])
        #expect(missing.status == 2)
        #expect(missing.stderr == "nope.sqlite:1:1: error: no such database file\n1 error\n")
        // A file that is not a database.
        let text = folder.appendingPathComponent("notes.txt").path
        try String(repeating: "not a database ", count: 100).write(toFile: text, atomically: true, encoding: .utf8)
        #expect(try strata(["import", "database", "--sqlite", text, "--model", "Other"]).status == 2)
        // Usage: no --model, both databases, neither.
        #expect(try strata(["import", "database", "--sqlite", sqlite]).status == 64)
        #expect(
            try strata(["import", "database", "--sqlite", sqlite, "--postgres", "postgres://u@h/d", "--model", "M"])
                .status == 64)
        #expect(
            try strata(["import", "database", "--model", "M"], environment: ["STRATA_POSTGRES_URL": ""]).status == 64)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("Schemas").path) == [
                "Shop"
            ])
        let help = try CLI.strata(["help", "import", "database"])
        #expect(help.stdout.contains("--sqlite <path>"))
        #expect(help.stdout.contains("STRATA_POSTGRES_URL"))
        #expect(help.stdout.contains("strata import database --sqlite app.sqlite --model Shop"))
    }

    // MARK: - PostgreSQL

    static let postgresShop = """
        CREATE TABLE customer (
            id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
            email TEXT NOT NULL UNIQUE,
            name TEXT,
            vip BOOLEAN NOT NULL DEFAULT FALSE,
            score DOUBLE PRECISION DEFAULT 1.5,
            ratio REAL,
            small SMALLINT NOT NULL DEFAULT 3,
            middle INTEGER,
            ref UUID NOT NULL DEFAULT '3f2504e0-4f89-11d3-9a0c-0305e82c3301',
            since TIMESTAMPTZ NOT NULL DEFAULT '2024-01-31 12:00:00+00',
            balance NUMERIC NOT NULL DEFAULT 12.5,
            photo BYTEA,
            "Display Name" TEXT NOT NULL DEFAULT 'it''s'
        );
        CREATE TABLE "order" (
            id UUID PRIMARY KEY,
            customer_id BIGINT REFERENCES customer (id) ON DELETE SET NULL,
            note TEXT NOT NULL DEFAULT '',
            status TEXT NOT NULL DEFAULT 'placed' CHECK (status IN ('placed', 'draft', 'shipped'))
        );
        CREATE TABLE order_line (
            order_id UUID NOT NULL REFERENCES "order" (id) ON DELETE CASCADE,
            position INTEGER NOT NULL,
            quantity INTEGER NOT NULL DEFAULT 1,
            PRIMARY KEY (order_id, position)
        );
        CREATE INDEX order_note ON "order" (note);
        CREATE UNIQUE INDEX customer_name_key ON customer (name);
        CREATE TABLE strata_migrations (model TEXT NOT NULL, version INTEGER NOT NULL, PRIMARY KEY (model, version));
        """

    @Test func aPostgreSQLDatabaseRoundTripsThroughTheImportedModel() async throws {
        let server = try await TestPostgresServer.forTest()
        let folder = try TestDatabases.folder()
        let original = try await server.withDatabase { session in
            try await session.executeScript(Self.postgresShop)
            return try await PostgresIntrospector.schema(of: session)
        }
        let outcome = DatabaseImporter.map(original, dialect: .postgres, model: "Shop", source: "shop")
        #expect(outcome.diagnostics.isEmpty, "\(outcome.diagnostics)")
        let (schema, yaml) = try Self.written(outcome, in: folder)
        #expect(yaml.contains("      id: { type: Int64, autoincrement: true }\n"))
        #expect(yaml.contains("      since: { type: Date, default: \"2024-01-31T12:00:00Z\" }\n"))
        #expect(yaml.contains("      ref: { type: UUID, default: \"3F2504E0-4F89-11D3-9A0C-0305E82C3301\" }\n"))
        #expect(yaml.contains("      balance: { type: Decimal, default: \"12.5\" }\n"))
        #expect(yaml.contains("      customer: { type: Customer?, onDelete: setNull, column: customer_id }\n"))
        #expect(yaml.contains("      status: { type: OrderStatus, default: placed }\n"))
        #expect(yaml.contains("  OrderStatus:\n    type: String\n    cases: [draft, placed, shipped]\n"))
        let regenerated = try await server.withDatabase { session in
            try await session.executeScript(SQLSchemaRenderer.schemaFile(for: schema, dialect: .postgres))
            return try await PostgresIntrospector.schema(of: session)
        }
        // PostgreSQL names constraints as Strata does: names are compared too.
        let report = SchemaComparison().report(
            expected: original.removingTables(DatabaseSchema.strataTables), actual: regenerated)
        #expect(report.isEmpty, "\(report)")
    }

    @Test func whatPostgreSQLHasAndStrataCannotSayIsAWarningNamingTableAndColumn() async throws {
        let server = try await TestPostgresServer.forTest()
        let original = try await server.withDatabase { session in
            try await session.executeScript(
                """
                CREATE TABLE item (
                    id SERIAL PRIMARY KEY,
                    name VARCHAR(20) NOT NULL,
                    price NUMERIC(10,2),
                    data JSONB,
                    tags TEXT[] NOT NULL,
                    seen TIMESTAMPTZ DEFAULT now(),
                    size INTEGER CHECK (size > 0),
                    code TEXT CONSTRAINT code_is_unique UNIQUE
                );
                CREATE TABLE note (
                    id BIGINT PRIMARY KEY,
                    item INTEGER NOT NULL DEFAULT 1 REFERENCES item (id) ON DELETE SET DEFAULT
                );
                CREATE TABLE log (line TEXT);
                """)
            return try await PostgresIntrospector.schema(of: session)
        }
        let outcome = DatabaseImporter.map(original, dialect: .postgres, model: "Legacy", source: "db")
        #expect(
            Self.messages(outcome) == [
                "warning: table 'log' has no primary key, which every Strata entity needs; not imported",
                "warning: the unique constraint of 'item.code' is named 'code_is_unique'; the regenerated one is named 'item_code_key'",
                "warning: the default of 'note.item', 1, is not a literal Strata can write for Item; not imported",
                "warning: the foreign key of 'note.item' is ON DELETE SET DEFAULT, which Strata cannot declare; imported as noAction",
            ])
        let (_, yaml) = try Self.written(outcome, in: try TestDatabases.folder())
        #expect(yaml.contains("      id: { type: Int32, sqlType: { postgres: \"serial\" }, autoincrement: true }\n"))
        #expect(yaml.contains("      name: { type: String, sqlType: { postgres: \"character varying(20)\" } }\n"))
        #expect(yaml.contains("      price: { type: Decimal?, sqlType: { postgres: \"numeric(10,2)\" } }\n"))
        #expect(yaml.contains("      data: JSON?\n"), "a JSONB column imports as JSON")
        #expect(yaml.contains("      seen: { type: Date?, default: { postgres: \"NOW ()\" } }\n"))
        #expect(yaml.contains("      size: { type: Int32?, check: { postgres: \"SIZE > 0\" } }\n"))
        #expect(yaml.contains("      tags: \"[String]\"\n"), "a text[] column is an array field")
    }

    @Test func postgreSQLArrayColumnsImportAsArrayFieldsAndRoundTrip() async throws {
        let server = try await TestPostgresServer.forTest()
        let original = try await server.withDatabase { session in
            try await session.executeScript(
                """
                CREATE TABLE post (
                    id UUID PRIMARY KEY,
                    tags TEXT[] NOT NULL DEFAULT '{}',
                    scores INTEGER[],
                    totals BIGINT[] NOT NULL,
                    ratios DOUBLE PRECISION[] NOT NULL,
                    flags BOOLEAN[],
                    refs UUID[] NOT NULL,
                    stamps TIMESTAMPTZ[],
                    prices NUMERIC[] NOT NULL DEFAULT '{}',
                    blobs BYTEA[] NOT NULL,
                    amounts NUMERIC(10,2)[],
                    documents JSONB[]
                );
                """)
            return try await PostgresIntrospector.schema(of: session)
        }
        let outcome = DatabaseImporter.map(original, dialect: .postgres, model: "Posts", source: "db")
        #expect(
            Self.messages(outcome) == [
                "warning: column 'post.amounts' is numeric(10,2)[], which no Strata type stores; not imported",
                "warning: column 'post.documents' is jsonb[], which no Strata type stores; not imported",
            ], "an array field's column type is Strata's own: numeric(10,2)[] would lose its precision and scale")
        let (schema, yaml) = try Self.written(outcome, in: try TestDatabases.folder())
        #expect(yaml.contains("      tags: { type: \"[String]\", default: [] }\n"), "\(yaml)")
        #expect(yaml.contains("      scores: \"[Int32]?\"\n"))
        #expect(yaml.contains("      totals: \"[Int64]\"\n"))
        #expect(yaml.contains("      refs: \"[UUID]\"\n"))
        #expect(yaml.contains("      stamps: \"[Date]?\"\n"), "a timestamptz[] column is a [Date]")
        #expect(yaml.contains("      prices: { type: \"[Decimal]\", default: [] }\n"))
        #expect(yaml.contains("      blobs: \"[Data]\"\n"))
        let regenerated = try await server.withDatabase { session in
            try await session.executeScript(SQLSchemaRenderer.schemaFile(for: schema, dialect: .postgres))
            return try await PostgresIntrospector.schema(of: session)
        }
        // The columns no Strata type stores are left out of the model, so of the regenerated table.
        let kept = original.removingTables(DatabaseSchema.strataTables).tables.map { table in
            var table = table
            table.columns.removeAll { $0.name == "documents" || $0.name == "amounts" }
            return table
        }
        let report = SchemaComparison().report(expected: DatabaseSchema(tables: kept), actual: regenerated)
        #expect(report.isEmpty, "\(report)")
    }

    /// A PostgreSQL full-text search vector, generated, kept by `tsvector_update_trigger` or by a
    /// hand-written trigger function, is not a field; its GIN index is not imported; a warning
    /// names the columns it is built from and the `search:` declaration; the rest of the table imports.
    @Test func postgreSQLSearchVectorsAreNamedWithTheirSearchDeclarationAndLeftOut() async throws {
        let server = try await TestPostgresServer.forTest()
        let script = """
            CREATE TABLE doc (
                id BIGINT PRIMARY KEY,
                title TEXT NOT NULL,
                body_text TEXT,
                tsv tsvector GENERATED ALWAYS AS
                    (to_tsvector('english', coalesce(title, '') || ' ' || coalesce(body_text, ''))) STORED
            );
            CREATE INDEX doc_tsv_idx ON doc USING GIN (tsv);
            CREATE INDEX doc_title ON doc (title);
            CREATE TABLE post (id BIGINT PRIMARY KEY, title TEXT NOT NULL, body TEXT, views INTEGER, tsv tsvector);
            CREATE INDEX post_tsv_idx ON post USING GIN (tsv);
            CREATE TRIGGER post_tsv BEFORE INSERT OR UPDATE ON post
                FOR EACH ROW EXECUTE FUNCTION tsvector_update_trigger(tsv, 'pg_catalog.english', title, body);
            CREATE TABLE memo (id BIGINT PRIMARY KEY, note TEXT NOT NULL, words tsvector);
            CREATE INDEX memo_words_idx ON memo USING GIN (words);
            CREATE FUNCTION memo_words() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN NEW.words := to_tsvector('simple', NEW.note); RETURN NEW; END $$;
            CREATE TRIGGER memo_words BEFORE INSERT OR UPDATE ON memo FOR EACH ROW EXECUTE FUNCTION memo_words();
            INSERT INTO post (id, title, body) VALUES (1, 'Hello', 'searching words');
            """
        let original = try await server.withDatabase { session in
            try await session.executeScript(script)
            return try await PostgresIntrospector.schema(of: session)
        }
        #expect(original.table(named: "doc")?.column(named: "tsv")?.searchSources == ["title", "body_text"])
        #expect(original.table(named: "post")?.column(named: "tsv")?.searchSources == ["title", "body"])
        #expect(original.table(named: "memo")?.column(named: "words")?.searchSources == [])
        #expect(original.table(named: "post")?.column(named: "title")?.searchSources == nil)
        #expect(original.table(named: "doc")?.column(named: "tsv")?.searchConfiguration == "english")
        #expect(original.table(named: "post")?.column(named: "tsv")?.searchConfiguration == "english")
        #expect(original.table(named: "memo")?.column(named: "words")?.searchConfiguration == nil)
        let outcome = DatabaseImporter.map(original, dialect: .postgres, model: "Docs", source: "db")
        #expect(
            Self.messages(outcome) == [
                "warning: column 'tsv' of table 'doc' is a full-text search vector (tsvector) over title, body_text; not imported, and left as it is: Strata declares its own with 'search: { fields: [title, bodyText], language: english }' on the entity (a tsvector column kept by a trigger, with a GIN index), which a later version can add",
                "warning: column 'words' of table 'memo' is a full-text search vector (tsvector) over columns Strata cannot tell (it is kept neither by a generation expression nor by tsvector_update_trigger); not imported, and left as it is: Strata declares its own with 'search: [...]' on the entity, naming the fields it searches (a tsvector column kept by a trigger, with a GIN index), which a later version can add",
                "warning: column 'tsv' of table 'post' is a full-text search vector (tsvector) over title, body; not imported, and left as it is: Strata declares its own with 'search: { fields: [title, body], language: english }' on the entity (a tsvector column kept by a trigger, with a GIN index), which a later version can add",
            ])
        #expect(
            outcome.schema.entities.map { $0.fields.map(\.name) } == [
                ["id", "title", "bodyText"], ["id", "note"], ["id", "title", "body", "views"],
            ])
        #expect(outcome.schema.entities.map { $0.indexes.map(\.fields) } == [[["title"]], [], []])
        // The rest of each table is imported as before: Strata's tables are the database's without the vectors.
        let folder = try TestDatabases.folder()
        let (schema, _) = try Self.written(outcome, in: folder)
        let regenerated = try await server.withDatabase { session in
            try await session.executeScript(SQLSchemaRenderer.schemaFile(for: schema, dialect: .postgres))
            return try await PostgresIntrospector.schema(of: session)
        }
        let kept = original.tables.map { table in
            var table = table
            table.columns.removeAll { $0.searchSources != nil }
            table.indexes.removeAll { $0.name.hasSuffix("_idx") }
            return table
        }
        let report = SchemaComparison().report(expected: DatabaseSchema(tables: kept), actual: regenerated)
        #expect(report.isEmpty, "\(report)")
        // The database is adopted as it is: 'migrate --baseline' leaves the vectors and their
        // indexes alone, as it does an FTS5 table, and the trigger still keeps the vector.
        #expect(BaselineSchemaCheck(schema: schema, dialect: .postgres).differences(original).isEmpty)
        try await server.withDatabase { session in
            try await session.executeScript(script)
            let arguments = ["migrate", "--postgres", session.url.description, "--model", "Docs", "--baseline", "1"]
            let baseline = try CLI.strata(arguments, schemasIn: folder)
            #expect(baseline.status == 0, "\(baseline.stderr)")
            try await session.executeScript("INSERT INTO post (id, title, body) VALUES (2, 'Adopted', 'searched')")
            #expect(
                try await session.textRows(sql: "SELECT id::text FROM post WHERE tsv @@ to_tsquery('english', 'search')")
                    == [["1"], ["2"]])
        }
        // What verify compares is unchanged: a search vector the model does not declare is a difference there.
        #expect(
            SchemaComparison().differences(expected: ExpectedSchema.of(schema, dialect: .postgres), actual: original)
                .map(\.description).contains(#"table "post": column "tsv" not expected"#))
    }

    /// The baseline leaves out only the search vectors the model does not declare: Strata's own
    /// `<table>_search` column of a model with `search:` is still compared.
    @Test func theBaselineStillComparesTheSearchColumnTheModelDeclares() async throws {
        let server = try await TestPostgresServer.forTest()
        let yaml = """
            model: Notes
            version: 1
            entities:
              Note:
                fields:
                  id: { type: Int64, autoincrement: true }
                  title: String
                search: { fields: [title], language: english }
            """
        let schema = try #require(try Models.temporary("Notes", versions: [yaml]).history.latest)
        let check = BaselineSchemaCheck(schema: schema, dialect: .postgres)
        try await server.withDatabase { session in
            try await session.executeScript(SQLSchemaRenderer.schemaFile(for: schema, dialect: .postgres))
            try await session.executeScript(
                """
                ALTER TABLE note ADD COLUMN tsv tsvector GENERATED ALWAYS AS (to_tsvector('simple', title)) STORED;
                CREATE INDEX note_tsv_idx ON note USING GIN (tsv);
                """)
            let live = try await PostgresIntrospector.schema(of: session)
            #expect(live.table(named: "note")?.column(named: "note_search")?.searchSources == [])
            #expect(check.differences(live).isEmpty, "\(check.differences(live))")
            try await session.executeScript("ALTER TABLE note DROP COLUMN note_search CASCADE")
            let dropped = try await PostgresIntrospector.schema(of: session)
            #expect(
                check.differences(dropped).map(\.description).contains(#"table "note": missing column "note_search""#),
                "\(check.differences(dropped))")
        }
    }

    /// The same warnings from a schema read elsewhere: a vector over a column that is not a
    /// String field names only the String ones in `search:`; its text search configuration is
    /// the declaration's language when `search:` accepts it, the shorthand's (`simple`) when it is
    /// `simple` or unknown, and named as not accepted otherwise.
    @Test(arguments: [
        (nil, "'search: [name]' on the entity (a tsvector column kept by a trigger, with a GIN index), which a later version can add"),
        ("simple", "'search: [name]' on the entity (a tsvector column kept by a trigger, with a GIN index), which a later version can add"),
        ("french", "'search: { fields: [name], language: french }' on the entity (a tsvector column kept by a trigger, with a GIN index), which a later version can add"),
        ("public.my_words", "'search: [name]' on the entity (a tsvector column kept by a trigger, with a GIN index), which a later version can add; its text search configuration 'public.my_words' is not a language Strata's 'search:' accepts"),
    ] as [(String?, String)])
    func aSearchVectorNamesOnlyItsStringFieldsInTheSearchDeclaration(configuration: String?, declaration: String) {
        func column(_ name: String, _ type: String, sources: [String]? = nil) -> DatabaseSchema.Column {
            DatabaseSchema.Column(
                name: name, type: type, isNullable: name != "id", defaultValue: nil, isAutoincrement: false,
                searchSources: sources, searchConfiguration: sources == nil ? nil : configuration)
        }
        let table = DatabaseSchema.Table(
            name: "item",
            columns: [
                column("id", "bigint"), column("name", "text"), column("views", "integer"),
                column("search", "tsvector", sources: ["name", "views"]),
            ],
            primaryKey: DatabaseSchema.Key(name: "item_pkey", columns: ["id"]),
            indexes: [DatabaseSchema.Index(name: "item_search", columns: ["search"], isUnique: false)])
        let outcome = DatabaseImporter.map(
            DatabaseSchema(tables: [table]), dialect: .postgres, model: "M", source: "db")
        #expect(
            Self.messages(outcome) == [
                "warning: column 'search' of table 'item' is a full-text search vector (tsvector) over name, views; not imported, and left as it is: Strata declares its own with "
                    + declaration
            ])
        #expect(outcome.schema.entities.first?.fields.map(\.name) == ["id", "name", "views"])
        #expect(outcome.schema.entities.first?.indexes.isEmpty == true)
    }

    @Test func theCommandReadsPostgreSQLFromTheEnvironment() async throws {
        let server = try await TestPostgresServer.forTest()
        let folder = try TestDatabases.folder()
        let schemas = folder.appendingPathComponent("Schemas").path
        let result = try await server.withDatabase { session in
            try await session.executeScript(Self.postgresShop)
            let running = try CLI.start(
                ["import", "database", "--model", "Shop", "--schemas", schemas],
                environment: ["STRATA_POSTGRES_URL": session.url.description])
            return CLI.finish(running)
        }
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "wrote \(schemas)/Shop/v1.yaml\n")
        let yaml = try String(contentsOfFile: schemas + "/Shop/v1.yaml", encoding: .utf8)
        #expect(yaml.hasPrefix("# Imported by 'strata import database' from postgres://postgres@127.0.0.1:"))
        // A server that is not there: could not run.
        let unreachable = CLI.finish(
            try CLI.start(
                ["import", "database", "--postgres", "postgres://nobody@127.0.0.1:1/postgres", "--model", "X"]))
        #expect(unreachable.status == 2, "\(unreachable.stderr)")
        #expect(unreachable.stderr.hasPrefix("postgres://nobody@127.0.0.1:1/postgres:1:1: error: cannot connect"))
    }
}
