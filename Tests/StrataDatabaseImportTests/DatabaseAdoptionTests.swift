import Foundation
import GRDB
import StrataCore
import StrataDatabaseImport
import StrataIntrospection
import StrataTestSupport
import Testing

/// Databases written the way real projects write them (Chinook, Northwind: declared types such as
/// `NVARCHAR(160)` and `NUMERIC(10,2)`, text dates in `DATETIME` columns, checks, expression
/// defaults, rowid keys without NOT NULL, serial keys, partial indexes, views and triggers) are
/// imported with nothing left out, adopted by `migrate --baseline 1` untouched, and migrated to a
/// version that adds a field with every row, view and trigger kept. Fixtures of our own, shaped
/// like those databases; the databases themselves are the corpus's (`Scripts/corpus.sh`).
@Suite(.serialized) struct DatabaseAdoptionTests {
    static let sqliteStore = """
        CREATE TABLE [Artist]
        (
            [ArtistId] INTEGER  NOT NULL,
            [Name] NVARCHAR(120),
            CONSTRAINT [PK_Artist] PRIMARY KEY  ([ArtistId])
        );
        CREATE TABLE [Invoice]
        (
            [InvoiceId] INTEGER PRIMARY KEY AUTOINCREMENT,
            [ArtistId] INTEGER NOT NULL,
            [InvoiceDate] DATETIME NOT NULL,
            [Total] NUMERIC(10,2) NOT NULL DEFAULT 0,
            [Quantity] INTEGER NOT NULL DEFAULT 1,
            [Added] DATETIME DEFAULT CURRENT_TIMESTAMP,
            CHECK ([Quantity]>(0)),
            CHECK ([Added] IS NULL OR [Added] >= [InvoiceDate]),
            FOREIGN KEY ([ArtistId]) REFERENCES [Artist] ([ArtistId]) ON DELETE NO ACTION ON UPDATE NO ACTION
        );
        CREATE TABLE `Customers` (`CustomerID` TEXT, `Name` TEXT, PRIMARY KEY (`CustomerID`));
        CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
        CREATE INDEX [IFK_InvoiceArtistId] ON [Invoice] ([ArtistId]);
        CREATE INDEX big_invoices ON [Invoice] ([Total]) WHERE [Total] > 100;
        CREATE VIEW [ArtistTotals] AS SELECT a.Name, sum(i.Total) AS Total FROM Artist a JOIN Invoice i USING (ArtistId) GROUP BY a.Name;
        CREATE TRIGGER invoice_touch AFTER UPDATE ON [Invoice] BEGIN UPDATE [Invoice] SET [Added] = CURRENT_TIMESTAMP WHERE [InvoiceId] = NEW.[InvoiceId]; END;
        INSERT INTO [Artist] VALUES (1, 'AC/DC'), (2, NULL);
        INSERT INTO [Invoice] ([ArtistId], [InvoiceDate], [Total], [Quantity]) VALUES (1, '2009-01-01 00:00:00', 1.98, 2), (2, '2013-12-22 00:00:00', 1.99, 1);
        INSERT INTO [Customers] VALUES ('ALFKI', 'Alfreds');
        INSERT INTO item (name) VALUES ('one');
        """

    /// Every row of every table and every view and trigger, as text.
    static func contents(_ path: String) throws -> [String] {
        try DatabaseQueue(path: path).read { db in
            var lines = try String.fetchAll(
                db, sql: "SELECT type || ' ' || name || ': ' || sql FROM sqlite_master WHERE type IN ('view', 'trigger') ORDER BY name")
            for table in ["Artist", "Invoice", "Customers", "item"] {
                let columns = try String.fetchAll(db, sql: "SELECT name FROM pragma_table_info(?) WHERE name != 'note'", arguments: [table])
                let list = columns.map { "quote(\"\($0)\")" }.joined(separator: " || ',' || ")
                lines += try String.fetchAll(db, sql: "SELECT '\(table): ' || \(list) FROM \"\(table)\" ORDER BY 1")
            }
            return lines
        }
    }

    /// Writes v2: v1 with an optional `note` on every entity.
    static func addNote(in folder: URL, model: String) throws {
        let folder = folder.appendingPathComponent("Schemas/\(model)")
        let v1 = try String(contentsOf: folder.appendingPathComponent("v1.yaml"), encoding: .utf8)
        let v2 = v1.replacingOccurrences(of: "version: 1\n", with: "version: 2\n")
            .replacingOccurrences(of: "    fields:\n", with: "    fields:\n      note: String?\n")
        try v2.write(to: folder.appendingPathComponent("v2.yaml"), atomically: true, encoding: .utf8)
    }

    @Test func aSQLiteDatabaseAsRealProjectsWriteItIsAdoptedAndMigratedWithNothingLost() throws {
        let folder = try TestDatabases.folder()
        let path = try TestDatabases.sqliteDatabase(Self.sqliteStore, in: folder)
        let original = try DatabaseImporter.readSQLite(path: path)
        let outcome = DatabaseImporter.map(original, dialect: .sqlite, model: "Store", source: path)
        #expect(
            DatabaseImportTests.messages(outcome) == [
                "warning: the primary key of table 'Artist' is named 'PK_Artist'; the regenerated one is named 'Artist_pkey'",
                "warning: column 'Customers.CustomerID' is part of the primary key but allows NULL; imported as required",
            ])
        let (schema, yaml) = try DatabaseImportTests.written(outcome, in: folder)
        #expect(yaml.contains(#"name: { type: String?, sqlType: { sqlite: "NVARCHAR(120)" }, column: Name }"#), "\(yaml)")
        #expect(yaml.contains(#"total: { type: Decimal, default: "0", sqlType: { sqlite: "NUMERIC(10,2)" }, column: Total }"#))
        // Text dates (as Chinook's and CURRENT_TIMESTAMP's) are Dates stored as that text.
        #expect(yaml.contains(#"added: { type: Date?, default: { sqlite: "CURRENT_TIMESTAMP" }, format: timestamp, sqlType: { sqlite: "DATETIME" }, column: Added }"#))
        #expect(yaml.contains(#"invoiceDate: { type: Date, format: timestamp, sqlType: { sqlite: "DATETIME" }, column: InvoiceDate }"#))
        #expect(yaml.contains(#"check: { sqlite: "\"Quantity\" > 0" }"#))
        #expect(yaml.contains(#"    checks:\#n      Invoice_check: { sqlite: "\"Added\" IS NULL OR \"Added\" >= \"InvoiceDate\"" }\#n"#), "\(yaml)")
        #expect(yaml.contains(#"- { fields: [total], name: big_invoices, where: { sqlite: "\"Total\" > 100" } }"#))

        // Import then generate reproduces the tables, spelling included (but for the NOT NULL
        // Strata writes on a text key, which SQLite would otherwise let hold NULL).
        let queue = try DatabaseQueue()
        try queue.write { try $0.execute(sql: SQLSchemaRenderer.schemaFile(for: schema, dialect: .sqlite)) }
        let regenerated = try queue.read { try SQLiteIntrospector.schema(of: $0) }
        #expect(regenerated.table(named: "Customers")?.column(named: "CustomerID")?.isNullable == false)
        let report = SchemaComparison(comparesConstraintNames: false, storageDialect: .sqlite).report(
            expected: original, actual: regenerated)
        #expect(report.isEmpty, "\(report)")

        // Adopted untouched, then a version that adds a field keeps every row, view and trigger.
        let before = try Self.contents(path)
        let baseline = try CLI.strata(
            ["migrate", "--database", path, "--model", "Store", "--baseline", "1"], schemasIn: folder)
        #expect(baseline.status == 0, "\(baseline.stderr)")
        #expect(try Self.contents(path) == before)
        try Self.addNote(in: folder, model: "Store")
        let migrated = try CLI.strata(["migrate", "--database", path, "--model", "Store"], schemasIn: folder)
        #expect(migrated.status == 0, "\(migrated.stderr)")
        #expect(try Self.contents(path) == before)
    }

    /// The stress run's defects, each on its own database.
    @Test func aRowidKeyWithoutNotNullIsAdopted() throws {
        let folder = try TestDatabases.folder()
        let path = try TestDatabases.sqliteDatabase(
            "CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT NOT NULL);", in: folder)
        #expect(try CLI.strata(["import", "database", "--sqlite", path, "--model", "M"], schemasIn: folder).status == 0)
        let baseline = try CLI.strata(["migrate", "--database", path, "--baseline", "1"], schemasIn: folder)
        #expect(baseline.status == 0, "\(baseline.stderr)")
    }

    @Test func generatedColumnsAndVirtualTablesAreNamedLeftOutAndSeenByTheBaseline() throws {
        let folder = try TestDatabases.folder()
        let path = try TestDatabases.sqliteDatabase(
            """
            CREATE TABLE item (id INTEGER PRIMARY KEY, price REAL NOT NULL, doubled REAL GENERATED ALWAYS AS (price * 2) STORED);
            CREATE VIRTUAL TABLE docs USING fts5(body);
            CREATE TABLE note (id INTEGER PRIMARY KEY, title TEXT NOT NULL, body TEXT NOT NULL, lang TEXT);
            CREATE VIRTUAL TABLE note_fts USING fts5(title, body, lang UNINDEXED, content = 'note', content_rowid = 'id');
            """, in: folder)
        let outcome = DatabaseImporter.map(
            try DatabaseImporter.readSQLite(path: path), dialect: .sqlite, model: "M", source: path)
        let messages = DatabaseImportTests.messages(outcome)
        // An FTS5 index over a table's rows is what Strata declares as that table's search.
        #expect(messages.contains("warning: table 'note_fts' is a full-text index (FTS5) of note (title, body); not imported, and left as it is: Strata declares its own with 'search: [title, body]' on the entity of note (a table note_search kept by triggers), which a later version can add"), "\(messages)")
        #expect(messages.contains("warning: table 'docs' is a virtual table (fts5), which Strata does not declare; not imported, and left as it is"))
        #expect(messages.contains("warning: table 'docs_content' is a shadow table of virtual table \"docs\", which Strata does not declare; not imported, and left as it is"))
        #expect(messages.contains("warning: column 'item.doubled' is a generated column (STORED), which Strata does not declare; not imported, and 'migrate --baseline' will name it as a difference"))
        #expect(outcome.schema.entities.map(\.name) == ["Item", "Note"])
        let (schema, _) = try DatabaseImportTests.written(outcome, in: folder)
        let differences = try DatabaseQueue(path: path).read { db in
            BaselineSchemaCheck(schema: schema, dialect: .sqlite).differences(try SQLiteIntrospector.schema(of: db))
        }
        #expect(differences.map(\.description) == [#"table "item": generated (STORED) column "doubled" not expected"#])
    }

    @Test func aPartialIndexKeepsItsConditionAndTheBaselineComparesIt() throws {
        let folder = try TestDatabases.folder()
        let path = try TestDatabases.sqliteDatabase(
            """
            CREATE TABLE item (id INTEGER PRIMARY KEY, price REAL NOT NULL);
            CREATE INDEX cheap ON item (price) WHERE price < 10;
            """, in: folder)
        let outcome = DatabaseImporter.map(
            try DatabaseImporter.readSQLite(path: path), dialect: .sqlite, model: "M", source: path)
        let (schema, yaml) = try DatabaseImportTests.written(outcome, in: folder)
        #expect(yaml.contains(#"- { fields: [price], name: cheap, where: { sqlite: "PRICE < 10" } }"#), "\(yaml)")
        let check = BaselineSchemaCheck(schema: schema, dialect: .sqlite)
        #expect(try DatabaseQueue(path: path).read { check.differences(try SQLiteIntrospector.schema(of: $0)) }.isEmpty)
        // The same index on every row is a difference.
        let full = try TestDatabases.sqliteDatabase(
            "CREATE TABLE item (id INTEGER PRIMARY KEY, price REAL NOT NULL); CREATE INDEX cheap ON item (price);",
            in: folder, name: "full.sqlite")
        let differences = try DatabaseQueue(path: full).read { check.differences(try SQLiteIntrospector.schema(of: $0)) }
        #expect(differences.map(\.description) == [#"table "item", index "cheap": is on every row, expected partial (WHERE PRICE < 10)"#])
    }

    /// A version that rebuilds a table (a field made optional) keeps the views and triggers that
    /// name it; one that the migrated tables no longer allow stops the version, naming it.
    @Test func aTableRebuildKeepsViewsAndTriggersOrStopsNamingTheOneItCannotKeep() throws {
        let folder = try TestDatabases.folder()
        let path = try TestDatabases.sqliteDatabase(
            """
            CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT NOT NULL, qty INTEGER NOT NULL);
            CREATE TABLE log (id INTEGER PRIMARY KEY, what TEXT);
            CREATE VIEW item_names AS SELECT name FROM item;
            CREATE VIEW item_quantities AS SELECT qty FROM item;
            CREATE TRIGGER item_log AFTER INSERT ON item BEGIN INSERT INTO log (what) VALUES (NEW.name); END;
            INSERT INTO item (name, qty) VALUES ('a', 1);
            """, in: folder)
        #expect(try CLI.strata(["import", "database", "--sqlite", path, "--model", "M"], schemasIn: folder).status == 0)
        #expect(try CLI.strata(["migrate", "--database", path, "--baseline", "1"], schemasIn: folder).status == 0)
        let model = folder.appendingPathComponent("Schemas/M")
        let v1 = try String(contentsOf: model.appendingPathComponent("v1.yaml"), encoding: .utf8)
        try v1.replacingOccurrences(of: "version: 1\n", with: "version: 2\n")
            .replacingOccurrences(of: "      qty: Int64\n", with: "      qty: Int64?\n")
            .write(to: model.appendingPathComponent("v2.yaml"), atomically: true, encoding: .utf8)
        let migrated = try CLI.strata(["migrate", "--database", path, "--to", "2"], schemasIn: folder)
        #expect(migrated.status == 0, "\(migrated.stderr)")
        #expect(migrated.stderr.contains("copying the rows of item into its rebuilt table"), "\(migrated.stderr)")
        let queue = try DatabaseQueue(path: path)
        try queue.write { try $0.execute(sql: "INSERT INTO item (name) VALUES ('b')") }
        let (objects, logged, names) = try queue.read { db in
            (
                try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type IN ('view', 'trigger') ORDER BY name"),
                try String.fetchAll(db, sql: "SELECT what FROM log ORDER BY id"),
                try String.fetchAll(db, sql: "SELECT name FROM item_names ORDER BY name")
            )
        }
        #expect(objects == ["item_log", "item_names", "item_quantities"])
        #expect(logged == ["a", "b"])
        #expect(names == ["a", "b"])

        // v3 drops the column a view reads: the view cannot be kept, so v3 stops and changes nothing.
        let v2 = try String(contentsOf: model.appendingPathComponent("v2.yaml"), encoding: .utf8)
        try v2.replacingOccurrences(of: "version: 2\n", with: "version: 3\n")
            .replacingOccurrences(of: "      qty: Int64?\n", with: "")
            .replacingOccurrences(of: "entities:\n", with: "migration:\n  allowDataLoss: [Item.qty]\n\nentities:\n")
            .write(to: model.appendingPathComponent("v3.yaml"), atomically: true, encoding: .utf8)
        let dump = "SELECT type || name || ifnull(sql, '') FROM sqlite_master UNION ALL SELECT name || ifnull(qty, '') FROM item ORDER BY 1"
        let before = try queue.read { try String.fetchAll($0, sql: dump) }
        let refused = try CLI.strata(["migrate", "--database", path], schemasIn: folder)
        #expect(refused.status == 4, "\(refused.stderr)")
        #expect(refused.stderr.contains(#"would lose the view "item_quantities""#), "\(refused.stderr)")
        #expect(try queue.read { try String.fetchAll($0, sql: dump) } == before)
    }

    // MARK: - PostgreSQL

    @Test func aPostgreSQLDatabaseWithSerialKeysDeclaredTypesAndChecksIsAdopted() async throws {
        let server = try await TestPostgresServer.forTest()
        let folder = try TestDatabases.folder()
        try await server.withDatabase { session in
            try await session.executeScript(
                """
                CREATE SCHEMA other;
                CREATE TABLE other.person (id INT PRIMARY KEY);
                CREATE TABLE artist (artist_id SERIAL NOT NULL, name VARCHAR(120), CONSTRAINT artist_pkey PRIMARY KEY (artist_id));
                CREATE TABLE invoice (
                    invoice_id INT NOT NULL PRIMARY KEY,
                    artist_id INT NOT NULL REFERENCES artist (artist_id),
                    person_id INT REFERENCES other.person (id),
                    invoice_date TIMESTAMP NOT NULL,
                    total NUMERIC(10,2) NOT NULL CHECK (total >= 0),
                    added TIMESTAMPTZ DEFAULT now(),
                    CONSTRAINT invoice_dates CHECK (added IS NULL OR added >= invoice_date)
                );
                CREATE INDEX big_invoices ON invoice (total) WHERE total > 100;
                CREATE TABLE measurement (id INT NOT NULL, taken DATE NOT NULL, PRIMARY KEY (id, taken)) PARTITION BY RANGE (taken);
                CREATE TABLE measurement_2024 PARTITION OF measurement FOR VALUES FROM ('2024-01-01') TO ('2025-01-01');
                INSERT INTO artist (name) VALUES ('AC/DC'), (NULL);
                INSERT INTO invoice VALUES (1, 1, NULL, '2009-01-01 00:00:00', 1.98, now());
                """)
            let original = try await PostgresIntrospector.schema(of: session)
            let outcome = DatabaseImporter.map(original, dialect: .postgres, model: "Store", source: "db")
            let messages = DatabaseImportTests.messages(outcome)
            #expect(messages.contains("warning: table 'measurement' is a partitioned table, which Strata does not declare; not imported, and left as it is"))
            #expect(messages.contains("warning: table 'measurement_2024' is a partition of \"measurement\", which Strata does not declare; not imported, and left as it is"))
            #expect(messages.contains { $0.contains("referencing 'other.person'") && $0.contains("is not imported") }, "\(messages)")
            let (_, yaml) = try DatabaseImportTests.written(outcome, in: folder)
            #expect(yaml.contains(#"artistId: { type: Int32, sqlType: { postgres: "serial" }, primaryKey: true, autoincrement: true }"#), "\(yaml)")
            #expect(yaml.contains(#"invoiceDate: { type: Date, sqlType: { postgres: "timestamp without time zone" } }"#))
            #expect(yaml.contains(#"added: { type: Date?, default: { postgres: "NOW ()" } }"#))
            #expect(yaml.contains("personId: Int32?"))
            #expect(yaml.contains("    checks:\n      invoice_dates: { postgres: "), "\(yaml)")
            #expect(!yaml.contains("Measurement"))

            // The foreign key to another schema's table is left out of the model, and the
            // baseline's comparison sees it: refused until it is gone.
            let arguments = ["migrate", "--postgres", session.url.description, "--model", "Store", "--baseline", "1"]
            let refused = try CLI.strata(arguments, schemasIn: folder)
            #expect(refused.status == 1)
            #expect(refused.stderr.contains(#"table "invoice": foreign key ("person_id") not expected"#), "\(refused.stderr)")
            try await session.executeScript("ALTER TABLE invoice DROP CONSTRAINT invoice_person_id_fkey")
            let baseline = try CLI.strata(arguments, schemasIn: folder)
            #expect(baseline.status == 0, "\(baseline.stderr)")
            try Self.addNote(in: folder, model: "Store")
            let migrated = try CLI.strata(
                ["migrate", "--postgres", session.url.description, "--model", "Store"], schemasIn: folder)
            #expect(migrated.status == 0, "\(migrated.stderr)")
            let rows = try await session.textRows(
                sql: "SELECT invoice_id::text, invoice_date::text, total::text, note FROM invoice")
            #expect(rows == [["1", "2009-01-01 00:00:00", "1.98", nil]])
            // A serial key still takes its values from its sequence.
            try await session.executeScript("INSERT INTO artist (name) VALUES ('Accept')")
            #expect(try await session.textRows(sql: "SELECT max(artist_id)::text FROM artist") == [["3"]])
        }
    }
}
