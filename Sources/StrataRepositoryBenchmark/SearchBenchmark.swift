import Foundation
import GRDBSQLite
import StrataSQLite

/// The full-text search benchmark: a ranked search of two words through the generated
/// `BenchSearchDatabase` (`db.documents.search(_:)`) against the same FTS5 query written by hand
/// on the SQLite C API, on one database file of `documents` documents in one run.
public enum SearchBenchmark {
    /// The fastest times, in seconds, and how many documents the query found.
    public struct Result: Sendable {
        public var generated: Double
        public var raw: Double
        public var rows: Int
    }

    /// The words searched.
    public static let query = "riverward mirrorless"

    /// Builds a database of `documents` documents of words drawn from a vocabulary of 200 (a
    /// title of 5, a body of 30) and runs the search `repetitions` times per implementation (after
    /// a warm-up, taking turns).
    public static func run(documents: Int = 100_000, repetitions: Int = 5) throws -> Result {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("strata-search-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("bench.sqlite").path
        let db = try BenchSearchDatabase(path: path)
        var words = Words()
        try db.documents.insert(contentsOf: (0..<documents).map { _ in
            Document(title: words.text(5), body: words.text(30))
        })
        let raw = try RawQueries(path: path)
        var generatedTimes: [Double] = []
        var rawTimes: [Double] = []
        var rows = 0
        for repetition in 0...repetitions {
            var found: ([Int64?], [Int64?]) = ([], [])
            let (g, r) = try TimedTurns.run(
                repetition: repetition, generated: { found.0 = try db.documents.search(query).map(\.id) },
                handWritten: { found.1 = try raw.search(query).map(\.id) })
            guard found.0 == found.1 else {
                throw RawQueries.Failure(description: "search: generated found \(found.0.count) documents, raw \(found.1.count), or in another order")
            }
            rows = found.0.count
            if repetition > 0 {
                generatedTimes.append(g)
                rawTimes.append(r)
            }
        }
        return Result(generated: generatedTimes.min() ?? 0, raw: rawTimes.min() ?? 0, rows: rows)
    }

    /// Words drawn from a fixed vocabulary by a fixed linear congruential sequence: the same text every run.
    struct Words {
        static let vocabulary: [String] = {
            let stems = [
                "river", "garden", "stone", "light", "market", "winter", "silver", "forest", "harbor", "engine",
                "paper", "window", "mountain", "signal", "orange", "castle", "thunder", "valley", "mirror", "anchor",
            ]
            let endings = ["", "s", "ing", "ed", "er", "ly", "ness", "ful", "less", "ward"]
            return stems.flatMap { stem in endings.map { stem + $0 } }
        }()
        var state: UInt64 = 0x2545_F491_4F6C_DD1D

        mutating func text(_ count: Int) -> String {
            var words: [String] = []
            words.reserveCapacity(count)
            for _ in 0..<count {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                words.append(Self.vocabulary[Int((state >> 33) % UInt64(Self.vocabulary.count))])
            }
            return words.joined(separator: " ")
        }
    }
}

/// The same search by hand on the SQLite C API: the FTS5 query, then the documents read into structs.
extension RawQueries {
    /// Every word of `text` required, each a quoted FTS5 string, best match first.
    func search(_ text: String) throws -> [Document] {
        let query = text.split(separator: " ").map { "\"\($0)\"" }.joined(separator: " ")
        let sql = """
            SELECT d.id, d.title, d.body FROM document_search JOIN document AS d ON d.id = document_search.rowid \
            WHERE document_search MATCH ?1 ORDER BY bm25(document_search), d.id
            """
        return try rows(sql, text: query) { statement in
            Document(id: sqlite3_column_int64(statement, 0), title: Self.text(statement, 1), body: Self.text(statement, 2))
        }
    }
}
