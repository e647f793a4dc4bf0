import Foundation
import GRDB
import PostgresNIO
import StrataCore
import StrataIntrospection
import StrataPostgres
import StrataSQLite
import StrataStorage
import StrataTestSupport
import Testing

/// Rows an existing database wrote, read through the generated repositories of the model
/// `strata import database` made of it: Chinook's tables (`NVARCHAR(160)`, `NUMERIC(10,2)`,
/// text dates in `DATETIME`; on PostgreSQL `SERIAL` keys, `varchar`, `numeric(10,2)`,
/// `timestamp`), adopted with a baseline, every value equal to what the database itself prints.
@Suite("Generated repositories: an adopted Chinook-shaped database", .serialized)
struct MusicTests {
    static let schemas = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Schemas")

    /// The model's v1, as `strata lint` loads it.
    static func schema(_ model: String) throws -> Schema {
        let plan = Workspace.plan(schemas: schemas.path, output: "", render: false)
        return try #require(plan.histories.first { $0.model == model }?.latest)
    }

    static let sqliteTables = """
        CREATE TABLE [Artist]
        (
            [ArtistId] INTEGER  NOT NULL,
            [Name] NVARCHAR(120),
            CONSTRAINT [PK_Artist] PRIMARY KEY  ([ArtistId])
        );
        CREATE TABLE [Album]
        (
            [AlbumId] INTEGER  NOT NULL,
            [Title] NVARCHAR(160)  NOT NULL,
            [ArtistId] INTEGER  NOT NULL,
            CONSTRAINT [PK_Album] PRIMARY KEY  ([AlbumId]),
            FOREIGN KEY ([ArtistId]) REFERENCES [Artist] ([ArtistId]) ON DELETE NO ACTION ON UPDATE NO ACTION
        );
        CREATE TABLE [Invoice]
        (
            [InvoiceId] INTEGER  NOT NULL,
            [InvoiceDate] DATETIME  NOT NULL,
            [DueDate] DATE,
            [BillingCity] NVARCHAR(40),
            [Total] NUMERIC(10,2)  NOT NULL,
            CONSTRAINT [PK_Invoice] PRIMARY KEY  ([InvoiceId])
        );
        CREATE INDEX [IFK_AlbumArtistId] ON [Album] ([ArtistId]);
        INSERT INTO [Artist] ([ArtistId], [Name]) VALUES (1, 'AC/DC'), (2, NULL), (3, 'Antônio Carlos Jobim');
        INSERT INTO [Album] ([AlbumId], [Title], [ArtistId]) VALUES (1, 'For Those About To Rock We Salute You', 1), (2, 'Warner 25 Anos', 3);
        INSERT INTO [Invoice] ([InvoiceId], [InvoiceDate], [DueDate], [BillingCity], [Total]) VALUES
            (1, '2009-01-01 00:00:00', '2009-01-31', 'Stuttgart', 1.98), (2, '2009-01-02 00:00:00', NULL, NULL, 3.96),
            (3, '2013-12-22 00:00:00', '2012-02-29', 'São Paulo', 13.86), (4, '2010-03-11 00:00:00', '0001-01-01', 'Oslo', 0.99),
            (5, '2011-06-01 12:30:45.250', '2011-07-01', 'Paris', 25);
        """

    /// A new SQLite file of `sqliteTables`, adopted at v1 after the baseline check.
    static func adoptedSQLite(_ name: String) throws -> DatabaseQueue {
        let queue = try DatabaseQueue(path: TestScratch.path(name, suffix: ".sqlite").path)
        try queue.write { try $0.execute(sql: Self.sqliteTables) }
        let schema = try Self.schema("Music")
        _ = try MusicDatabase.migrator.baseline(queue, at: 1) { db in
            try BaselineSchemaCheck(schema: schema, dialect: .sqlite).require(db)
        }
        return queue
    }

    @Test("SQLite: every row reads back as sqlite3 prints it, decimals exact; then new rows go in")
    func sqlite() throws {
        let queue = try Self.adoptedSQLite("music")
        let printed = try queue.read { db in
            try String.fetchAll(
                db, sql: "SELECT InvoiceId || '|' || InvoiceDate || '|' || ifnull(DueDate, '') || '|' || ifnull(BillingCity, '') || '|' || Total FROM Invoice ORDER BY InvoiceId")
        }
        let music = try MusicDatabase(writer: queue)
        let invoices = try music.invoices.fetchAll(orderBy: { [$0.invoiceId.ascending] })
        let timestamp = { (date: Date) in SQLiteDateText.timestamp.text(of: date) ?? "?" }
        let day = { (date: Date?) in date.flatMap { SQLiteDateText.date.text(of: $0) } ?? "" }
        #expect(
            invoices.map { "\($0.invoiceId ?? 0)|\(timestamp($0.invoiceDate))|\(day($0.dueDate))|\($0.billingCity ?? "")|\($0.total)" }
                == printed)
        #expect(invoices.map(\.total) == ["1.98", "3.96", "13.86", "0.99", "25"].map { Decimal(string: $0)! })
        #expect(try music.artists.fetchAll(orderBy: { [$0.artistId.ascending] }).map(\.name) == ["AC/DC", nil, "Antônio Carlos Jobim"])
        #expect(try music.albums.find(id: 2)?.artist == 3)
        // A decimal total and a text date written through the repository read back as written;
        // the rowid key is assigned by SQLite.
        let newYear = try #require(SQLiteDateText.date(text: "2014-01-01 00:00:00"))
        let added = try music.invoices.insert(
            Invoice(invoiceDate: newYear, dueDate: newYear.addingTimeInterval(86_400 * 30 + 3_600), billingCity: nil, total: Decimal(string: "1234.56")!))
        #expect(added.invoiceId == 6)
        #expect(try music.invoices.find(id: 6)?.total == Decimal(string: "1234.56")!)
        #expect(try queue.read { try String.fetchOne($0, sql: "SELECT Total || '|' || typeof(Total) FROM Invoice WHERE InvoiceId = 6") } == "1234.56|real")
        // Dates go in as the text the database already holds: a timestamp, and a day (its time dropped).
        let stored = { (id: Int64) in
            try queue.read { try String.fetchOne($0, sql: "SELECT InvoiceDate || '|' || typeof(InvoiceDate) || '|' || ifnull(DueDate, 'NULL') FROM Invoice WHERE InvoiceId = ?", arguments: [id]) }
        }
        #expect(try stored(6) == "2014-01-01 00:00:00|text|2014-01-31")
        #expect(try music.invoices.find(id: 6)?.dueDate == SQLiteDateText.date(text: "2014-01-31"))
    }

    @Test("SQLite: Date fields stored as ISO 8601 text filter, sort, update and upsert as text; bad text is a located error")
    func sqliteTextDates() throws {
        let queue = try Self.adoptedSQLite("music-dates")
        let music = try MusicDatabase(writer: queue)
        var dates: [String: Date] = [:]
        for text in ["2010-01-01", "2011-06-01 12:30:45.25", "2009-01-02", "2011-06-01 12:30:45.250", "2012-02-29", "2011-07-01",
            "2009-01-01 08:15:00.5", "2024-02-29", "2013-12-23T01:02:03Z", "2013-01-01"]
        {
            guard let date = SQLiteDateText.date(text: text) else {
                Issue.record("not a date: \(text)")
                continue
            }
            dates[text] = date
        }
        let date = { (text: String) in dates[text] ?? .distantPast }
        let ids = { (invoices: [Invoice]) in invoices.map { $0.invoiceId ?? 0 } }
        #expect(try ids(music.invoices.fetchAll(where: { $0.invoiceDate < date("2010-01-01") }, orderBy: { [$0.invoiceId.ascending] })) == [1, 2])
        #expect(try ids(music.invoices.fetchAll(where: { $0.invoiceDate == date("2011-06-01 12:30:45.25") })) == [5])
        #expect(try ids(music.invoices.fetchAll(
            where: { $0.invoiceDate >= date("2009-01-02") && $0.invoiceDate <= date("2011-06-01 12:30:45.250") },
            orderBy: { [$0.invoiceDate.descending] })) == [5, 4, 2])
        #expect(try ids(music.invoices.fetchAll(where: { $0.dueDate < date("2010-01-01") }, orderBy: { [$0.dueDate.ascending] })) == [4, 1])
        #expect(try ids(music.invoices.fetchAll(where: { $0.dueDate.in([date("2012-02-29"), date("2011-07-01")]) }, orderBy: { [$0.invoiceId.ascending] })) == [3, 5])
        #expect(try ids(music.invoices.fetchAll(orderBy: { [$0.invoiceDate.ascending] })) == [1, 2, 4, 5, 3])
        // A named query binds and reads them as their text too.
        let due = try music.invoicesDueBefore(day: date("2012-02-29"))
        #expect(due.map(\.invoiceId) == [4, 1, 5])
        #expect(due.map(\.dueDate) == ["0001-01-01", "2009-01-31", "2011-07-01"].map(SQLiteDateText.date(text:)))
        #expect(due.last?.invoiceDate == date("2011-06-01 12:30:45.250"))
        // A query named as one of Shop's, whose code is in this module too (ShopQueries.LineRow):
        // each model's row type is nested in its own queries enum.
        let line: [MusicQueries.LineRow] = try music.line(invoice: 5)
        #expect(line.map(\.invoiceId) == [5])
        // Aggregates and group keys of text dates read as Dates.
        #expect(try music.invoices.aggregate { $0.invoiceDate.max } == SQLiteDateText.date(text: "2013-12-22"))
        #expect(try music.invoices.aggregate { $0.dueDate.min } == SQLiteDateText.date(text: "0001-01-01"))
        #expect(try music.invoices.aggregate({ $0.dueDate.max }, where: { $0.invoiceId == 2 }) == nil)
        let groups = try music.invoices.count(groupedBy: { $0.dueDate })
        #expect(groups.map(\.key) == [nil, "0001-01-01", "2009-01-31", "2011-07-01", "2012-02-29"].map { $0.flatMap(SQLiteDateText.date(text:)) })
        let text = { (id: Int64) in
            try queue.read { try String.fetchOne($0, sql: "SELECT InvoiceDate || '|' || ifnull(DueDate, 'NULL') FROM Invoice WHERE InvoiceId = ?", arguments: [id]) }
        }
        // Updates of chosen fields, by name and by column, and upserts bind the same text.
        let first = try #require(try music.invoices.find(id: 1))
        try music.invoices.updateChanges(first) {
            $0.invoiceDate = date("2009-01-01 08:15:00.5")
            $0.dueDate = nil
        }
        #expect(try text(1) == "2009-01-01 08:15:00.500|NULL")
        try music.invoices.update(invoiceId: 2, set: { [$0.dueDate.set(date("2024-02-29"))] })
        #expect(try text(2) == "2009-01-02 00:00:00|2024-02-29")
        var third = try #require(try music.invoices.find(id: 3))
        third.invoiceDate = date("2013-12-23T01:02:03Z")
        try music.invoices.upsert(third)
        #expect(try text(3) == "2013-12-23 01:02:03|2012-02-29")
        #expect(try music.invoices.updateAll(where: { $0.invoiceDate > date("2013-01-01") }, set: { [$0.dueDate.set(nil)] }) == 1)
        #expect(try text(3) == "2013-12-23 01:02:03|NULL")
        // Text that is no date is an error naming the table, the column and the value.
        try queue.write { try $0.execute(sql: "UPDATE Invoice SET InvoiceDate = '2009-02-30 00:00:00' WHERE InvoiceId = 4") }
        #expect {
            try music.invoices.find(id: 4)
        } throws: { error in
            "\(error)".contains("Invoice.InvoiceDate") && "\(error)".contains("'2009-02-30 00:00:00'")
        }
    }

    @Test("PostgreSQL: serial keys, numeric(10,2) and timestamp read back exactly; a new row takes the sequence's next key")
    func postgres() async throws {
        let server = try await TestPostgresServer.forTest()
        try await server.withDatabase { session in
            try await session.executeScript(
                """
                CREATE TABLE artist (artist_id SERIAL NOT NULL, name VARCHAR(120), CONSTRAINT artist_pkey PRIMARY KEY (artist_id));
                CREATE TABLE album (album_id SERIAL NOT NULL, title VARCHAR(160) NOT NULL, artist_id INT NOT NULL, CONSTRAINT album_pkey PRIMARY KEY (album_id));
                CREATE TABLE invoice (invoice_id SERIAL NOT NULL, invoice_date TIMESTAMP NOT NULL, due_date DATE, billing_city VARCHAR(40), total NUMERIC(10,2) NOT NULL, CONSTRAINT invoice_pkey PRIMARY KEY (invoice_id));
                ALTER TABLE album ADD CONSTRAINT album_artist_id_fkey FOREIGN KEY (artist_id) REFERENCES artist (artist_id) ON DELETE NO ACTION ON UPDATE NO ACTION;
                CREATE INDEX album_artist_id_idx ON album (artist_id);
                INSERT INTO artist (name) VALUES ('AC/DC'), (NULL);
                INSERT INTO album (title, artist_id) VALUES ('For Those About To Rock We Salute You', 1);
                INSERT INTO invoice (invoice_date, due_date, billing_city, total) VALUES
                    ('2009-01-01 00:00:00', '2009-01-31', 'Stuttgart', 1.98), ('2013-12-22 00:00:00', NULL, NULL, 13.86), ('2010-03-11 00:00:00', '2012-02-29', 'Oslo', 0.99);
                """)
            let schema = try Self.schema("MusicServer")
            _ = try await MusicServerPostgresDatabase.migrator.baseline(session.connection, at: 1) {
                try await BaselineSchemaCheck(schema: schema, dialect: .postgres).require(session)
            }
            let printed = try await session.textRows(
                sql: "SELECT invoice_id::text, to_char(invoice_date, 'YYYY-MM-DD HH24:MI:SS'), total::text FROM invoice ORDER BY invoice_id")
            let access = MusicServerPostgresAccess(session.connection)
            let invoices = try await access.serverInvoices.fetchAll(orderBy: { [$0.invoiceId.ascending] })
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "UTC")
            formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
            #expect(
                invoices.map { ["\($0.invoiceId ?? 0)", formatter.string(from: $0.invoiceDate), "\($0.total)"] }
                    == printed.map { $0.map { $0 ?? "" } })
            #expect(invoices.map(\.total) == ["1.98", "13.86", "0.99"].map { Decimal(string: $0)! })
            let artist = try await access.serverArtists.insert(ServerArtist(name: "Accept"))
            #expect(artist.artistId == 3)
            // A 'format: date' field is PostgreSQL's DATE: the day, read as its midnight UTC.
            #expect(invoices.map(\.dueDate) == ["2009-01-31", nil, "2012-02-29"].map { $0.flatMap(SQLiteDateText.date(text:)) })
            let due = try #require(SQLiteDateText.date(text: "2014-01-31 13:14:15"))
            let added = try await access.serverInvoices.insert(
                ServerInvoice(invoiceDate: due, dueDate: due, billingCity: nil, total: 1))
            #expect(added.dueDate == SQLiteDateText.date(text: "2014-01-31"))
            #expect(try await access.serverInvoices.find(id: try #require(added.invoiceId))?.dueDate == added.dueDate)
            #expect(try await access.serverInvoices.fetchAll(where: { $0.dueDate > SQLiteDateText.date(text: "2010-01-01") ?? .distantFuture }).count == 2)
        }
    }
}
