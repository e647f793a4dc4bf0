/// The data of the JSON and eager-loading operations (the same as the SQLite benchmarks'):
/// accounts with a JSON value, and authors each with a hundred articles.
enum RecordKindRows {
    /// `count` accounts, each with its preferences (six members and an array).
    static func accounts(count: Int) -> [Account] {
        (0..<count).map { k in
            Account(
                name: "account \(k)",
                preferences: Preferences(
                    theme: k % 2 == 0 ? "dark" : "light", fontSize: 10 + k % 8, zoom: 1 + Double(k % 5) / 4,
                    notify: k % 3 == 0, recent: (0..<(k % 4)).map { "file \(k)-\($0).txt" },
                    signature: k % 5 == 0 ? nil : "— sent from \"account \(k)\""))
        }
    }

    /// `count` posts, each with 0 to 4 tags and 0 to 3 scores.
    static func posts(count: Int) -> [Post] {
        (0..<count).map { k in
            Post(title: "post \(k)", tags: (0..<(k % 5)).map { "tag \($0 * 7 + k % 13)" }, scores: (0..<(k % 4)).map { $0 * k })
        }
    }

    /// `count / 100` authors.
    static func authors(articles count: Int) -> [Author] {
        (0..<max(1, count / 100)).map { Author(name: "author \($0)", email: "a\($0)@example.com") }
    }

    /// `count` articles, spread evenly over `authors` (inserted: their keys set).
    static func articles(count: Int, by authors: [Author]) -> [Article] {
        (0..<count).map { k in
            Article(
                author: authors[k % authors.count].id ?? 0, title: "article \(k)", published: k % 3 != 0,
                words: Int32(k % 5_000))
        }
    }
}
