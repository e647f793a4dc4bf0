import PostgresNIO

/// An account as hand-written PostgresNIO code reads it: its `JSONB` preferences decoded by
/// PostgresNIO's own `decode` (`Decodable` through the client's `JSONDecoder`).
struct HandWrittenAccount {
    struct Preferences: Codable, PostgresDecodable {
        var theme: String
        var fontSize: Int
        var zoom: Double
        var notify: Bool
        var recent: [String]
        var signature: String?
    }

    var id: Int64
    var name: String
    var preferences: Preferences
}

/// A post as hand-written PostgresNIO code reads it: its `TEXT[]` and `BIGINT[]` decoded by
/// PostgresNIO's own array decoding.
struct HandWrittenPost {
    var id: Int64
    var title: String
    var tags: [String]
    var scores: [Int]
}

/// An author and an article as hand-written PostgresNIO code reads them.
struct HandWrittenAuthor {
    var id: Int64
    var name: String
    var email: String
}

struct HandWrittenArticle {
    var id: Int64
    var author: Int64
    var title: String
    var published: Bool
    var words: Int32
}

extension HandWrittenContender {
    func fetchAccounts() async throws -> Int? {
        var accounts: [HandWrittenAccount] = []
        let rows = try await json.query(#"SELECT "id", "name", "preferences" FROM "account""#)
        for try await (id, name, preferences) in rows.decode((Int64, String, HandWrittenAccount.Preferences).self) {
            accounts.append(HandWrittenAccount(id: id, name: name, preferences: preferences))
        }
        return accounts.count
    }

    func fetchPosts() async throws -> Int? {
        var posts: [HandWrittenPost] = []
        let rows = try await json.query(#"SELECT "id", "title", "tags", "scores" FROM "post""#)
        for try await (id, title, tags, scores) in rows.decode((Int64, String, [String], [Int]).self) {
            posts.append(HandWrittenPost(id: id, title: title, tags: tags, scores: scores))
        }
        return posts.count
    }

    /// The authors, then the articles of all of them in one `= ANY($1)` statement, grouped by
    /// author in Swift.
    func fetchAuthorsWithArticles() async throws -> Int? {
        var authors: [HandWrittenAuthor] = []
        for try await (id, name, email) in try await join.query(#"SELECT "id", "name", "email" FROM "author""#)
            .decode((Int64, String, String).self)
        {
            authors.append(HandWrittenAuthor(id: id, name: name, email: email))
        }
        let keys = authors.map(\.id)
        var byAuthor: [Int64: [HandWrittenArticle]] = [:]
        let articles = try await join.query(
            #"SELECT "id", "author", "title", "published", "words" FROM "article" WHERE "author" = ANY(\#(keys))"#)
        for try await (id, author, title, published, words) in articles.decode((Int64, Int64, String, Bool, Int32).self) {
            byAuthor[author, default: []].append(
                HandWrittenArticle(id: id, author: author, title: title, published: published, words: words))
        }
        let loaded = authors.map { ($0, byAuthor[$0.id] ?? []) }
        return loaded.reduce(0) { $0 + $1.1.count }
    }
}
