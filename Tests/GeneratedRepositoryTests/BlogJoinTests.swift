import Foundation
import StrataPostgres
import StrataSQLite
import StrataTestSupport
import Testing

/// Joins along references on the Blog fixture model (a table and columns named after SQL
/// keywords, an optional reference, a reference of a table to itself), and per-record counts and
/// existence over `hasMany`, on SQLite and with the same expectations on PostgreSQL.
@Suite("Joins: Blog on SQLite and PostgreSQL")
struct BlogJoinTests {
    /// ada; bob (mentored by ada); cy (no posts). alpha (ada, published, edited by bob), beta (ada),
    /// gamma (bob, published, edited by ada).
    struct Content {
        var ada: Writer, bob: Writer, cy: Writer
        var alpha: Post, beta: Post, gamma: Post
    }

    static func writers() -> [Writer] { [Writer(name: "ada"), Writer(name: "bob"), Writer(name: "cy")] }

    static func content(_ writers: [Writer], mentor: (Writer) throws -> Writer) rethrows -> (Content, [Post]) {
        let ada = writers[0], cy = writers[2]
        let bob = try mentor(writers[1])
        let ids = (ada.id ?? 0, bob.id ?? 0)
        let alpha = Post(writer: ids.0, editor: ids.1, order: "alpha", published: true, likes: 5)
        let beta = Post(writer: ids.0, order: "beta", likes: 1)
        let gamma = Post(writer: ids.1, editor: ids.0, order: "gamma", published: true, likes: 9)
        return (Content(ada: ada, bob: bob, cy: cy, alpha: alpha, beta: beta, gamma: gamma), [alpha, beta, gamma])
    }

    @Test("SQLite: posts with their writer and optional editor, writers with their mentor, counts and existence")
    func sqlite() throws {
        let db = try BlogDatabase.inMemory()
        let writers = try db.writers.insert(contentsOf: Self.writers())
        let (c, posts) = try Self.content(writers) { bob in
            let key = try #require(bob.id)
            return try #require(try db.writers.update(id: key, set: { [$0.mentor.set(writers[0].id)] }))
        }
        try db.posts.insert(contentsOf: posts)

        let byTitle = try db.posts.fetchAll(joining: Writer.self, on: \.writer, orderBy: { post, _ in [post.order.ascending] })
        #expect(byTitle == [
            StrataJoined(record: c.alpha, partner: c.ada), StrataJoined(record: c.beta, partner: c.ada),
            StrataJoined(record: c.gamma, partner: c.bob),
        ])
        let bobs = try db.posts.fetchAll(joining: Writer.self, on: \.writer, where: { _, writer in writer.name == "bob" })
        #expect(bobs.map(\.record) == [c.gamma])
        let sorted = try db.posts.fetchAll(
            joining: Writer.self, on: \.writer, where: { post, _ in post.likes > 0 },
            orderBy: { post, writer in [writer.name.descending, post.order.ascending] }, limit: 2, offset: 1)
        #expect(sorted.map(\.record.order) == ["alpha", "beta"])

        let edited = try db.posts.fetchAll(joining: Writer.self, on: \.editor, orderBy: { post, _ in [post.order.ascending] })
        #expect(edited.map(\.record) == [c.alpha, c.beta, c.gamma])
        #expect(edited.map(\.partner) == [c.bob, nil, c.ada])
        let uneditedOrByAda = try db.posts.fetchAll(
            joining: Writer.self, on: \.editor, where: { _, editor in editor.id.isNull || editor.name == "ada" },
            orderBy: { post, _ in [post.order.ascending] })
        #expect(uneditedOrByAda.map(\.record.order) == ["beta", "gamma"])

        let mentored = try db.writers.fetchAll(joining: Writer.self, on: \.mentor, orderBy: { writer, _ in [writer.name.ascending] })
        #expect(mentored.map(\.partner?.name) == [nil, "ada", nil])

        let counts = try db.writers.fetchAll(counting: Post.self, via: \.writer, orderBy: { [$0.name.ascending] })
        #expect(counts.map(\.record.name) == ["ada", "bob", "cy"])
        #expect(counts.map(\.count) == [2, 1, 0])
        let published = try db.writers.fetchAll(
            counting: Post.self, via: \.writer, where: { $0.published == true }, filter: { $0.name != "cy" },
            orderBy: { [$0.name.ascending] })
        #expect(published.map(\.count) == [1, 1])
        let mentees = try db.writers.fetchAll(counting: Writer.self, via: \.mentor, orderBy: { [$0.name.ascending] })
        #expect(mentees.map(\.count) == [1, 0, 0])

        let havingPublished = try db.writers.fetchAll(
            where: { _ in .exists(Post.self, via: \.writer, where: { $0.published == true && $0.likes > 6 }) })
        #expect(havingPublished.map(\.name) == ["bob"])
        let editors = try db.writers.fetchAll(where: { _ in .exists(Post.self, via: \.editor) }, orderBy: { [$0.name.ascending] })
        #expect(editors.map(\.name) == ["ada", "bob"])
        #expect(try db.writers.count(where: { _ in !.exists(Post.self, via: \.writer) }) == 1)
    }

    @Test("SQLite: an observed join follows changes to either table")
    func observed() async throws {
        let db = try BlogDatabase.inMemory()
        let ada = try db.writers.insert(Writer(name: "ada"))
        try db.posts.insert(Post(writer: try #require(ada.id), order: "alpha"))
        var joined = db.posts.observeAll(joining: Writer.self, on: \.writer).makeAsyncIterator()
        #expect(try await joined.next()?.map(\.partner.name) == ["ada"])
        try db.writers.updateChanges(ada) { $0.name = "ada lovelace" }
        #expect(try await joined.next()?.map(\.partner.name) == ["ada lovelace"])
        var counts = db.writers.observeAll(counting: Post.self, via: \.writer).makeAsyncIterator()
        #expect(try await counts.next()?.map(\.count) == [1])
        try db.posts.deleteAll()
        #expect(try await joined.next()?.isEmpty == true)
        #expect(try await counts.next()?.map(\.count) == [0])
    }

    @Test("PostgreSQL: the same joins, counts and existence, the same results")
    func postgres() async throws {
        let server = try await TestPostgresServer.forTest()
        try await server.withDatabase { session in
            try await BlogPostgresDatabase.migrator.migrate(session.connection)
            let db = BlogPostgresAccess(session.connection)
            let writers = try await db.writers.insert(contentsOf: Self.writers())
            let key = try #require(writers[1].id)
            let bob = try #require(try await db.writers.update(id: key, set: { [$0.mentor.set(writers[0].id)] }))
            let (c, posts) = Self.content(writers) { _ in bob }
            try await db.posts.insert(contentsOf: posts)

            let byTitle = try await db.posts.fetchAll(joining: Writer.self, on: \.writer, orderBy: { post, _ in [post.order.ascending] })
            #expect(byTitle == [
                StrataJoined(record: c.alpha, partner: c.ada), StrataJoined(record: c.beta, partner: c.ada),
                StrataJoined(record: c.gamma, partner: c.bob),
            ])
            let bobs = try await db.posts.fetchAll(joining: Writer.self, on: \.writer, where: { _, writer in writer.name == "bob" })
            #expect(bobs.map(\.record) == [c.gamma])
            let sorted = try await db.posts.fetchAll(
                joining: Writer.self, on: \.writer, where: { post, _ in post.likes > 0 },
                orderBy: { post, writer in [writer.name.descending, post.order.ascending] }, limit: 2, offset: 1)
            #expect(sorted.map(\.record.order) == ["alpha", "beta"])
            let edited = try await db.posts.fetchAll(joining: Writer.self, on: \.editor, orderBy: { post, _ in [post.order.ascending] })
            #expect(edited.map(\.partner) == [c.bob, nil, c.ada])
            let mentored = try await db.writers.fetchAll(joining: Writer.self, on: \.mentor, orderBy: { writer, _ in [writer.name.ascending] })
            #expect(mentored.map(\.partner?.name) == [nil, "ada", nil])
            let counts = try await db.writers.fetchAll(counting: Post.self, via: \.writer, orderBy: { [$0.name.ascending] })
            #expect(counts.map(\.count) == [2, 1, 0])
            let published = try await db.writers.fetchAll(
                counting: Post.self, via: \.writer, where: { $0.published == true }, filter: { $0.name != "cy" },
                orderBy: { [$0.name.ascending] })
            #expect(published.map(\.count) == [1, 1])
            let havingPublished = try await db.writers.fetchAll(
                where: { _ in .exists(Post.self, via: \.writer, where: { $0.published == true && $0.likes > 6 }) })
            #expect(havingPublished.map(\.name) == ["bob"])
            let editors = try await db.writers.fetchAll(where: { _ in .exists(Post.self, via: \.editor) }, orderBy: { [$0.name.ascending] })
            #expect(editors.map(\.name) == ["ada", "bob"])
        }
    }
}
