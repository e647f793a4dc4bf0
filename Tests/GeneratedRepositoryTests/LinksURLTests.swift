import Foundation
import GRDB
import StrataPostgres
import StrataSQLite
import StrataTestSupport
import Testing

/// `URL` fields of the Links fixture model on both databases: a URL as a primary key, as a
/// reference, optional and with a default; filters, sorts and joins on them; stored text that is
/// no URL is an error, never a crash.
@Suite("Generated repositories: URL fields (Links)")
struct LinksURLTests {
    private static let swift = URL(string: "https://swift.org/")!
    private static let apple = URL(string: "https://developer.apple.com/swift/")!

    private static func bookmarks(of site: URL) -> [Bookmark] {
        [
            Bookmark(site: site, page: site.appendingPathComponent("blog"), feed: URL(string: "https://swift.org/atom.xml")),
            Bookmark(site: site, page: URL(string: "https://swift.org/documentation/?q=a%20b#top")!),
        ]
    }

    @Test("SQLite: a URL key, references, defaults, filters, sorts and joins")
    func sqlite() throws {
        let db = try LinksDatabase.inMemory()
        let swift = try db.sites.insert(Site(address: Self.swift, title: "Swift"))
        #expect(swift.homepage == URL(string: "https://example.com/"), "the schema default")
        try db.sites.insert(Site(address: Self.apple, title: "Apple", homepage: Self.apple))
        let stored = try db.bookmarks.insert(contentsOf: Self.bookmarks(of: Self.swift))
        #expect(try db.sites.find(address: Self.swift) == swift)
        #expect(try db.bookmarks.fetchAll(where: { $0.site == Self.swift }, orderBy: { [$0.page.ascending] }) == stored.sorted { $0.page.absoluteString < $1.page.absoluteString })
        #expect(try db.bookmarks.count(where: { $0.feed == nil }) == 1)
        let joined = try db.bookmarks.fetchAll(joining: Site.self, on: \.site, orderBy: { bookmark, _ in [bookmark.id.ascending] })
        #expect(joined.map(\.partner.title) == ["Swift", "Swift"])
        #expect(try db.sites.fetchAll(orderBy: { [$0.address.descending] }).map(\.title) == ["Swift", "Apple"])
        let text = try db.writer.read { try String.fetchOne($0, sql: "SELECT page FROM bookmark WHERE id = 2") }
        #expect(text == "https://swift.org/documentation/?q=a%20b#top", "stored as its absoluteString")
        // Text another program wrote that is no URL.
        try db.writer.write { try $0.execute(sql: "UPDATE bookmark SET page = '' WHERE id = 1") }
        #expect(throws: StrataDecodingError.malformed(column: "page", type: "URL")) { try db.bookmarks.find(id: 1) }
    }

    @Test("PostgreSQL: a URL key, references, defaults, filters, sorts and joins")
    func postgres() async throws {
        let server = try await TestPostgresServer.forTest()
        try await server.withDatabase { session in
            try await LinksPostgresDatabase.migrator.migrate(session.connection)
            let db = LinksPostgresAccess(session.connection)
            let swift = try await db.sites.insert(Site(address: Self.swift, title: "Swift"))
            #expect(swift.homepage == URL(string: "https://example.com/"))
            try await db.sites.insert(Site(address: Self.apple, title: "Apple", homepage: Self.apple))
            let stored = try await db.bookmarks.insert(contentsOf: Self.bookmarks(of: Self.swift))
            #expect(try await db.sites.find(address: Self.swift) == swift)
            #expect(
                try await db.bookmarks.fetchAll(where: { $0.site == Self.swift }, orderBy: { [$0.id.ascending] }) == stored)
            #expect(try await db.bookmarks.count(where: { $0.feed == nil }) == 1)
            let joined = try await db.bookmarks.fetchAll(joining: Site.self, on: \.site)
            #expect(joined.map(\.partner.title) == ["Swift", "Swift"])
            #expect(try await db.sites.fetchAll(orderBy: { [$0.address.descending] }).map(\.title) == ["Swift", "Apple"])
            _ = try await session.connection.query("UPDATE bookmark SET page = '' WHERE id = 1", logger: .init(label: "test"))
                .get()
            await #expect(throws: StrataDecodingError.self) { try await db.bookmarks.find(id: 1) }
        }
    }
}
