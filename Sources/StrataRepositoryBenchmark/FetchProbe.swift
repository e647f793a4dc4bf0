import GRDB
import StrataSQLite

/// Fetching every row of a benchmark database file with one implementation, for drivers that
/// measure what a fetch costs in memory (each fetch in a child process of its own).
public enum FetchProbe {
    /// The implementations.
    public enum Implementation: String, CaseIterable, Sendable {
        /// The generated repository (`BenchDatabase(path:)`, `samples.fetchAll()`).
        case generated
        /// Hand-written code on the SQLite C API.
        case raw
        /// A GRDB Codable record.
        case codable
    }

    /// Writes a new database file at `path` holding `rows` benchmark rows (through the generated repository).
    public static func makeDatabase(at path: String, rows: Int) throws {
        let database = try BenchDatabase(path: path)
        try database.samples.insert(contentsOf: BenchRows.make(count: rows))
        if let pool = database.writer as? DatabasePool { try pool.close() }
    }

    /// Opens the file at `path` and fetches every row into Swift values, `times` times (for a
    /// profile of the fetch rather than of opening); returns how many rows the last fetch read.
    public static func fetchAll(from path: String, with implementation: Implementation, times: Int = 1) throws -> Int {
        let fetch: () throws -> Int
        switch implementation {
        case .generated:
            let database = try BenchDatabase(path: path)
            fetch = { try database.samples.fetchAll().count }
        case .raw:
            let database = try RawSQLiteImplementation(opening: path)
            fetch = { try database.fetchAll() }
        case .codable:
            let pool = try DatabasePool(path: path)
            fetch = { try pool.read { db in try CodableSample.fetchAll(db).count } }
        }
        var count = 0
        for _ in 0..<max(1, times) { count = try fetch() }
        return count
    }
}
