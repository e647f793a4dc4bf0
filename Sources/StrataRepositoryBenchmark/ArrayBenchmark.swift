import Foundation
import GRDBSQLite
import StrataSQLite

/// The array benchmark: every record of a table with two array fields (`tags: [String]`,
/// `scores: [Int]`, JSON arrays on SQLite) read through the generated `BenchJSONDatabase`
/// (`db.posts.fetchAll()`) against the same query by hand on the SQLite C API, which decodes each
/// array's JSON text with Foundation's `JSONDecoder`, as a hand-written record would.
public enum ArrayBenchmark {
    /// The fastest times, in seconds, and how many records each read.
    public struct Result: Sendable {
        public var generated: Double
        public var raw: Double
        public var rows: Int
    }

    /// Builds a database of `posts` posts and reads them all `repetitions` times per
    /// implementation (after a warm-up, taking turns).
    public static func run(posts: Int = 100_000, repetitions: Int = 5) throws -> Result {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("strata-array-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("bench.sqlite").path
        let db = try BenchJSONDatabase(path: path)
        try db.posts.insert(contentsOf: (0..<posts).map { k in
            Post(title: "post \(k)", tags: (0..<(k % 5)).map { "tag \($0 * 7 + k % 13)" }, scores: (0..<(k % 4)).map { $0 * k })
        })
        let raw = try RawQueries(path: path)
        var generatedTimes: [Double] = []
        var rawTimes: [Double] = []
        var rows = 0
        for repetition in 0...repetitions {
            var read: ([Post], [RawPost]) = ([], [])
            let (g, r) = try TimedTurns.run(
                repetition: repetition, generated: { read.0 = try db.posts.fetchAll() },
                handWritten: { read.1 = try raw.posts() })
            let same = read.0.count == read.1.count && zip(read.0, read.1).allSatisfy { generated, raw in
                generated.id == raw.id && generated.tags == raw.tags && generated.scores == raw.scores
            }
            guard same else {
                throw RawQueries.Failure(description: "arrays: generated read \(read.0.count) posts, raw \(read.1.count), or other values")
            }
            rows = read.0.count
            if repetition > 0 {
                generatedTimes.append(g)
                rawTimes.append(r)
            }
        }
        return Result(generated: generatedTimes.min() ?? 0, raw: rawTimes.min() ?? 0, rows: rows)
    }
}

/// A post as hand-written code reads it: its arrays decoded by `JSONDecoder`.
struct RawPost {
    var id: Int64
    var title: String
    var tags: [String]
    var scores: [Int]
}

extension RawQueries {
    /// Every post, its arrays decoded by one `JSONDecoder`.
    func posts() throws -> [RawPost] {
        let decoder = JSONDecoder()
        var failure: (any Error)?
        func array<Element: Decodable>(_ statement: OpaquePointer, _ index: Int32, _ type: [Element].Type) -> [Element] {
            let data = Data(bytes: sqlite3_column_text(statement, index), count: Int(sqlite3_column_bytes(statement, index)))
            do {
                return try decoder.decode(type, from: data)
            } catch {
                failure = error
                return []
            }
        }
        let posts = try rows("SELECT id, title, tags, scores FROM post") { statement in
            RawPost(
                id: sqlite3_column_int64(statement, 0), title: Self.text(statement, 1),
                tags: array(statement, 2, [String].self), scores: array(statement, 3, [Int].self))
        }
        if let failure { throw failure }
        return posts
    }
}
