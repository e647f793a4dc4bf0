import Foundation
import GRDBSQLite
import StrataSQLite

/// The JSON benchmark: every record of a table with a JSON value (`Preferences`, six members
/// and an array) read through the generated `BenchJSONDatabase` (`db.accounts.fetchAll()`)
/// against the same query by hand on the SQLite C API, which decodes the JSON text with
/// Foundation's `JSONDecoder` into a `Codable` struct, as a hand-written record would.
public enum JSONBenchmark {
    /// The fastest times, in seconds, and how many records each read.
    public struct Result: Sendable {
        public var generated: Double
        public var raw: Double
        public var rows: Int
    }

    /// Builds a database of `accounts` accounts and reads them all `repetitions` times per
    /// implementation (after a warm-up, taking turns).
    public static func run(accounts: Int = 100_000, repetitions: Int = 5) throws -> Result {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("strata-json-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("bench.sqlite").path
        let db = try BenchJSONDatabase(path: path)
        try db.accounts.insert(contentsOf: (0..<accounts).map { k in
            Account(
                name: "account \(k)",
                preferences: Preferences(
                    theme: k % 2 == 0 ? "dark" : "light", fontSize: 10 + k % 8, zoom: 1 + Double(k % 5) / 4,
                    notify: k % 3 == 0, recent: (0..<(k % 4)).map { "file \(k)-\($0).txt" },
                    signature: k % 5 == 0 ? nil : "— sent from \"account \(k)\""))
        })
        let raw = try RawQueries(path: path)
        var generatedTimes: [Double] = []
        var rawTimes: [Double] = []
        var rows = 0
        for repetition in 0...repetitions {
            var read: ([Account], [RawAccount]) = ([], [])
            let (g, r) = try TimedTurns.run(
                repetition: repetition, generated: { read.0 = try db.accounts.fetchAll() },
                handWritten: { read.1 = try raw.accounts() })
            let same = read.0.count == read.1.count && zip(read.0, read.1).allSatisfy { generated, raw in
                generated.id == raw.id && generated.name == raw.name && generated.preferences.recent == raw.preferences.recent
                    && generated.preferences.zoom == raw.preferences.zoom && generated.preferences.signature == raw.preferences.signature
            }
            guard same else {
                throw RawQueries.Failure(description: "JSON: generated read \(read.0.count) accounts, raw \(read.1.count), or other values")
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

/// An account as hand-written code reads it: its preferences decoded by `JSONDecoder`.
struct RawAccount {
    struct Preferences: Codable {
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

extension RawQueries {
    /// Every account, its JSON decoded by one `JSONDecoder`.
    func accounts() throws -> [RawAccount] {
        let decoder = JSONDecoder()
        var failure: (any Error)?
        let accounts = try rows("SELECT id, name, preferences FROM account") { statement -> RawAccount? in
            let count = Int(sqlite3_column_bytes(statement, 2))
            let data = Data(bytes: sqlite3_column_text(statement, 2), count: count)
            do {
                let preferences = try decoder.decode(RawAccount.Preferences.self, from: data)
                return RawAccount(id: sqlite3_column_int64(statement, 0), name: Self.text(statement, 1), preferences: preferences)
            } catch {
                failure = error
                return nil
            }
        }
        if let failure { throw failure }
        return accounts.compactMap { $0 }
    }
}
