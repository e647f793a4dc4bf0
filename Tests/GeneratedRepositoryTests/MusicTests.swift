import Foundation
import GRDB
import PostgresNIO
import StrataCore
import StrataDatabase
import StrataPostgres
import StrataSQLite
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
            [BillingCity] NVARCHAR(40),
            [Total] NUMERIC(10,2)  NOT NULL,
            CONSTRAINT [PK_Invoice] PRIMARY KEY  ([InvoiceId])
        );
        CREATE INDEX [IFK_AlbumArtistId] ON [Album] ([ArtistId]);
        INSERT INTO [Artist] ([ArtistId], [Name]) VALUES (1, 'AC/DC'), (2, NULL), (3, 'Antônio Carlos Jobim');
        INSERT INTO [Album] ([AlbumId], [Title], [ArtistId]) VALUES (1, 'For Those About To Rock We Salute You', 1), (2, 'Warner 25 Anos', 3);
        INSERT INTO [Invoice] ([InvoiceId], [InvoiceDate], [BillingCity], [Total]) VALUES
            (1, '2009-01-01 00:00:00', 'Stuttgart', 1.98), (2, '2009-01-02 00:00:00', NULL, 3.96),
            (3, '2013-12-22 00:00:00', 'São Paulo', 13.86), (4, '2010-03-11 00:00:00', 'Oslo', 0.99),
            (5, '2011-06-01 00:00:00', 'Paris', 25);
        """

    @Test("SQLite: every row reads back as sqlite3 prints it, decimals exact; then new rows go in")
    func sqlite() throws {
        let path = TestScratch.path("music", suffix: ".sqlite").path
        let queue = try DatabaseQueue(path: path)
        try queue.write { try $0.execute(sql: Self.sqliteTables) }
        let schema = try Self.schema("Music")
        _ = try MusicDatabase.migrator.baseline(queue, at: 1) { db in
            try BaselineSchemaCheck(schema: schema, dialect: .sqlite).require(db)
        }
        let printed = try queue.read { db in
            try String.fetchAll(
                db, sql: "SELECT InvoiceId || '|' || InvoiceDate || '|' || ifnull(BillingCity, '') || '|' || Total FROM Invoice ORDER BY InvoiceId")
        }
        let music = try MusicDatabase(writer: queue)
        let invoices = try music.invoices.fetchAll(orderBy: { [$0.invoiceId.ascending] })
        #expect(
            invoices.map { "\($0.invoiceId ?? 0)|\($0.invoiceDate)|\($0.billingCity ?? "")|\($0.total)" } == printed)
        #expect(invoices.map(\.total) == ["1.98", "3.96", "13.86", "0.99", "25"].map { Decimal(string: $0)! })
        #expect(try music.artists.fetchAll(orderBy: { [$0.artistId.ascending] }).map(\.name) == ["AC/DC", nil, "Antônio Carlos Jobim"])
        #expect(try music.albums.find(id: 2)?.artist == 3)
        // A decimal total and a text date written through the repository read back as written;
        // the rowid key is assigned by SQLite.
        let added = try music.invoices.insert(
            Invoice(invoiceDate: "2014-01-01 00:00:00", billingCity: nil, total: Decimal(string: "1234.56")!))
        #expect(added.invoiceId == 6)
        #expect(try music.invoices.find(id: 6)?.total == Decimal(string: "1234.56")!)
        #expect(try queue.read { try String.fetchOne($0, sql: "SELECT Total || '|' || typeof(Total) FROM Invoice WHERE InvoiceId = 6") } == "1234.56|real")
    }

    @Test("PostgreSQL: serial keys, numeric(10,2) and timestamp read back exactly; a new row takes the sequence's next key")
    func postgres() async throws {
        let server = try await TestPostgresServer.forTest()
        try await server.withDatabase { session in
            try await session.executeScript(
                """
                CREATE TABLE artist (artist_id SERIAL NOT NULL, name VARCHAR(120), CONSTRAINT artist_pkey PRIMARY KEY (artist_id));
                CREATE TABLE album (album_id SERIAL NOT NULL, title VARCHAR(160) NOT NULL, artist_id INT NOT NULL, CONSTRAINT album_pkey PRIMARY KEY (album_id));
                CREATE TABLE invoice (invoice_id SERIAL NOT NULL, invoice_date TIMESTAMP NOT NULL, billing_city VARCHAR(40), total NUMERIC(10,2) NOT NULL, CONSTRAINT invoice_pkey PRIMARY KEY (invoice_id));
                ALTER TABLE album ADD CONSTRAINT album_artist_id_fkey FOREIGN KEY (artist_id) REFERENCES artist (artist_id) ON DELETE NO ACTION ON UPDATE NO ACTION;
                CREATE INDEX album_artist_id_idx ON album (artist_id);
                INSERT INTO artist (name) VALUES ('AC/DC'), (NULL);
                INSERT INTO album (title, artist_id) VALUES ('For Those About To Rock We Salute You', 1);
                INSERT INTO invoice (invoice_date, billing_city, total) VALUES
                    ('2009-01-01 00:00:00', 'Stuttgart', 1.98), ('2013-12-22 00:00:00', NULL, 13.86), ('2010-03-11 00:00:00', 'Oslo', 0.99);
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
        }
    }
}
