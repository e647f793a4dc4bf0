import Foundation
import GRDBSQLite
import StrataSQLite

/// The query benchmark: a join, a grouped count and records with their children (eager loading)
/// through the generated `BenchJoinDatabase` against the same SQL written by hand on the SQLite C
/// API, on one database file in one run.
public enum QueryBenchmark {
    /// The operations measured.
    public enum Operation: String, CaseIterable, Sendable {
        case join = "articles with their author (join)"
        case groupedCount = "published articles per author (grouped count)"
        case eagerLoading = "authors with their articles (eager loading)"
    }

    /// The fastest times of one operation, in seconds, and how many rows it read.
    public struct Result: Sendable {
        public var operation: Operation
        public var generated: Double
        public var raw: Double
        public var rows: Int
    }

    /// Builds a database of `articles` articles by `articles / 100` authors and runs each operation
    /// `repetitions` times per implementation (after a warm-up, taking turns).
    public static func run(articles: Int = 100_000, repetitions: Int = 5) throws -> [Result] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("strata-query-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("bench.sqlite").path
        let db = try BenchJoinDatabase(path: path)
        let authors = try db.authors.insert(contentsOf: (0..<max(1, articles / 100)).map {
            Author(name: "author \($0)", email: "a\($0)@example.com")
        })
        try db.articles.insert(contentsOf: (0..<articles).map { k in
            Article(
                author: authors[k % authors.count].id ?? 0, title: "article \(k)", published: k % 3 != 0,
                words: Int32(k % 5_000))
        })
        let raw = try RawQueries(path: path)
        var times: [Operation: (generated: [Double], raw: [Double])] = [:]
        var rows: [Operation: Int] = [:]
        for operation in Operation.allCases {
            for repetition in 0...repetitions {
                var counts = (0, 0)
                let (g, r) = try TimedTurns.run(
                    repetition: repetition,
                    generated: {
                        switch operation {
                        case .join: counts.0 = try db.articles.fetchAll(joining: Author.self, on: \.author).count
                        case .groupedCount:
                            counts.0 = try db.articles.count(groupedBy: { $0.author }, where: { $0.published == true }).count
                        case .eagerLoading:
                            counts.0 = try db.authors.fetchAll(including: .all(Article.self, via: \.author))
                                .reduce(0) { $0 + $1.children.count }
                        }
                    },
                    handWritten: {
                        switch operation {
                        case .join: counts.1 = try raw.articlesWithAuthor().count
                        case .groupedCount: counts.1 = try raw.publishedPerAuthor().count
                        case .eagerLoading: counts.1 = try raw.authorsWithArticles().reduce(0) { $0 + $1.1.count }
                        }
                    })
                guard counts.0 == counts.1 else {
                    throw RawQueries.Failure(description: "\(operation.rawValue): generated read \(counts.0) rows, raw \(counts.1)")
                }
                rows[operation] = counts.0
                if repetition > 0 {
                    times[operation, default: ([], [])].generated.append(g)
                    times[operation, default: ([], [])].raw.append(r)
                }
            }
        }
        return Operation.allCases.map { operation in
            Result(
                operation: operation, generated: times[operation]?.generated.min() ?? 0,
                raw: times[operation]?.raw.min() ?? 0, rows: rows[operation] ?? 0)
        }
    }
}

/// The same queries by hand on the SQLite C API: prepare, step, read columns into structs.
final class RawQueries {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    private var connection: OpaquePointer?

    init(path: String) throws {
        guard sqlite3_open_v2(path, &connection, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, nil) == SQLITE_OK
        else { throw Failure(description: "cannot open \(path)") }
    }

    deinit {
        sqlite3_close_v2(connection)
    }

    func articlesWithAuthor() throws -> [(Article, Author)] {
        try rows("""
            SELECT "r"."id", "r"."author", "r"."title", "r"."published", "r"."words", "p"."id", "p"."name", "p"."email" \
            FROM "article" AS "r" JOIN "author" AS "p" ON "r"."author" = "p"."id"
            """
        ) { statement in
            (
                Article(
                    id: sqlite3_column_int64(statement, 0), author: sqlite3_column_int64(statement, 1),
                    title: Self.text(statement, 2), published: sqlite3_column_int64(statement, 3) != 0,
                    words: Int32(truncatingIfNeeded: sqlite3_column_int64(statement, 4))),
                Author(id: sqlite3_column_int64(statement, 5), name: Self.text(statement, 6), email: Self.text(statement, 7))
            )
        }
    }

    func publishedPerAuthor() throws -> [(Int64, Int)] {
        try rows(#"SELECT "author", COUNT(*) FROM "article" WHERE "published" = 1 GROUP BY "author" ORDER BY "author""#) {
            statement in (sqlite3_column_int64(statement, 0), Int(sqlite3_column_int64(statement, 1)))
        }
    }

    /// The authors, then their articles (a thousand authors' keys bound per statement), grouped.
    func authorsWithArticles() throws -> [(Author, [Article])] {
        let authors = try rows(#"SELECT "id", "name", "email" FROM "author""#) { statement in
            Author(id: sqlite3_column_int64(statement, 0), name: Self.text(statement, 1), email: Self.text(statement, 2))
        }
        let keys = authors.compactMap(\.id)
        var byAuthor: [Int64: [Article]] = [:]
        for start in stride(from: 0, to: keys.count, by: 1000) {
            let chunk = Array(keys[start..<min(start + 1000, keys.count)])
            let sql = #"SELECT "id", "author", "title", "published", "words" FROM "article" WHERE "author" IN ("#
                + Array(repeating: "?", count: chunk.count).joined(separator: ", ") + ")"
            let articles = try rows(sql, binding: chunk) { statement in
                Article(
                    id: sqlite3_column_int64(statement, 0), author: sqlite3_column_int64(statement, 1),
                    title: Self.text(statement, 2), published: sqlite3_column_int64(statement, 3) != 0,
                    words: Int32(truncatingIfNeeded: sqlite3_column_int64(statement, 4)))
            }
            for article in articles { byAuthor[article.author, default: []].append(article) }
        }
        return authors.map { ($0, byAuthor[$0.id ?? 0] ?? []) }
    }

    /// The rows of `sql`, each read by `read`; `keys`, or `text`, bound to its parameters from the first.
    func rows<Row>(_ sql: String, binding keys: [Int64] = [], text: String? = nil, _ read: (OpaquePointer) -> Row) throws
        -> [Row]
    {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(connection, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
            throw Failure(description: connection.flatMap { String(cString: sqlite3_errmsg($0)) } ?? "SQLite error")
        }
        defer { sqlite3_finalize(statement) }
        for (index, key) in keys.enumerated() { sqlite3_bind_int64(statement, Int32(index + 1), key) }
        if let text, sqlite3_bind_text(statement, 1, text, -1, unsafeBitCast(-1, to: sqlite3_destructor_type.self)) != SQLITE_OK {
            throw Failure(description: "bind failed")
        }
        var rows: [Row] = []
        while true {
            let code = sqlite3_step(statement)
            if code == SQLITE_DONE { return rows }
            guard code == SQLITE_ROW else { throw Failure(description: "step failed: \(code)") }
            rows.append(read(statement))
        }
    }

    static func text(_ statement: OpaquePointer, _ index: Int32) -> String {
        guard let bytes = sqlite3_column_text(statement, index) else { return "" }
        let count = Int(sqlite3_column_bytes(statement, index))
        return String(decoding: UnsafeRawBufferPointer(start: bytes, count: count), as: UTF8.self)
    }
}
