import Foundation
import GRDB
import StrataPostgres
import StrataSQLite
import StrataTestSupport
import Testing

/// A many-to-many through a join entity declared once (`hasMany: { tags: { entity: Topic,
/// through: BookTopic } }`) on both databases: the accessor on each side, filtered and sorted, and
/// eager loading (`fetchAll(including: .tags)`) in two kinds of statement.
@Suite("Generated repositories: many-to-many (Shelf)")
struct ShelfManyToManyTests {
    private static let titles = ["Dune", "Emma", "Ulysses", "Walden"]
    private static let names = ["classic", "novel", "nature", "space"]
    /// Book index to topic indexes.
    private static let links: [Int: [Int]] = [0: [1, 3], 1: [0, 1], 2: [0, 1], 3: [2]]

    private static func linkRows(_ books: [Book], _ topics: [Topic]) -> [BookTopic] {
        links.sorted { $0.key < $1.key }.flatMap { book, indexes in
            indexes.map { BookTopic(book: books[book].id ?? 0, topic: topics[$0].id ?? 0) }
        }
    }

    @Test("SQLite: each side's accessor and eager loading")
    func sqlite() throws {
        let db = try ShelfDatabase.inMemory()
        let books = try db.books.insert(contentsOf: Self.titles.map { Book(title: $0) })
        let topics = try db.topics.insert(contentsOf: Self.names.map { Topic(name: $0) })
        try db.bookTopics.insert(contentsOf: Self.linkRows(books, topics))
        #expect(try db.books.tags(of: books[0], orderBy: { [$0.name.ascending] }).map(\.name) == ["novel", "space"])
        #expect(try db.topics.books(of: topics[1], where: { $0.title != "Emma" }).map(\.title).sorted() == ["Dune", "Ulysses"])
        var statements = 0
        let loaded = try db.writer.read { connection in
            connection.trace { _ in statements += 1 }
            defer { connection.trace(options: [], nil) }
            return try SQLiteAccess<Book>(connection).fetchAll(orderBy: { [$0.title.ascending] }, including: .tags)
        }
        #expect(statements == 2)
        let names: [[String]] = loaded.map { $0.children.map(\.name).sorted() }
        #expect(names == [["novel", "space"], ["classic", "novel"], ["classic", "novel"], ["nature"]])
        let sorted = try db.books.fetchAll(
            orderBy: { [$0.title.ascending] },
            including: .all(Topic.self, through: BookTopic.self, from: \.book, to: \.topic, where: { $0.name != "novel" }, orderBy: { [$0.name.descending] }))
        let filtered: [[String]] = sorted.map { $0.children.map(\.name) }
        #expect(filtered == [["space"], ["classic"], ["classic"], ["nature"]])
    }

    @Test("PostgreSQL: each side's accessor and eager loading")
    func postgres() async throws {
        let server = try await TestPostgresServer.forTest()
        try await server.withDatabase { session in
            try await ShelfPostgresDatabase.migrator.migrate(session.connection)
            let db = ShelfPostgresAccess(session.connection)
            let books = try await db.books.insert(contentsOf: Self.titles.map { Book(title: $0) })
            let topics = try await db.topics.insert(contentsOf: Self.names.map { Topic(name: $0) })
            try await db.bookTopics.insert(contentsOf: Self.linkRows(books, topics))
            #expect(try await db.books.tags(of: books[0], orderBy: { [$0.name.ascending] }).map(\.name) == ["novel", "space"])
            let loaded = try await db.topics.fetchAll(orderBy: { [$0.name.ascending] }, including: .books)
            let titles: [[String]] = loaded.map { $0.children.map(\.title).sorted() }
            #expect(titles == [["Emma", "Ulysses"], ["Walden"], ["Dune", "Emma", "Ulysses"], ["Dune"]])
        }
    }
}
