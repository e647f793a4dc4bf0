import Foundation
import PostgresNIO
import StrataPostgres

// strata-postgres-bench --url postgres://user[:password]@host:port/database [--rows N] [--repetitions R]
// Prints one JSON object: {"rows": N, "results": [{"operation", "generated", "handWritten", "fluent", "rows"}]},
// each time the fastest of R runs (after a warm-up), in seconds; "fluent" is left out of the operations
// Fluent does not run (the JSON value and eager loading ones). Those read N accounts, and N articles
// of N / 100 authors.

let arguments = CommandLine.arguments
func option(_ name: String) -> String? {
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
    return arguments[index + 1]
}
guard let text = option("--url"), let url = URLComponents(string: text), let host = url.host else {
    FileHandle.standardError.write(Data("usage: strata-postgres-bench --url postgres://user@host:port/database [--rows N] [--repetitions R]\n".utf8))
    exit(64)
}
let rowCount = option("--rows").flatMap(Int.init) ?? 100_000
let repetitions = option("--repetitions").flatMap(Int.init) ?? 3
let user = url.user ?? "postgres"
let databaseName = String(url.path.dropFirst())
let port = url.port ?? 5432

func makeClient(database: String) -> PostgresClient {
    PostgresClient(configuration: .init(host: host, port: port, username: user, password: url.password, database: database, tls: .disable))
}
let client = makeClient(database: databaseName)
// A database holds one model: BenchJSON and BenchJoin get a database each on the same server.
let jsonDatabaseName = databaseName + "_bench_json", joinDatabaseName = databaseName + "_bench_join"
let jsonClient = makeClient(database: jsonDatabaseName), joinClient = makeClient(database: joinDatabaseName)

enum Operation: String, CaseIterable {
    case insert = "insert all (one transaction)", fetchAll = "fetch all", fetchFiltered = "filtered + sorted fetch"
    case fetchJSON = "fetch all records with a JSON value"
    case fetchArrays = "fetch all records with two array fields"
    case eagerLoading = "authors with their articles (eager loading)"

    /// Runs the operation's read on `contender`: how many rows it read, nil when the contender
    /// leaves the operation out.
    func read(_ contender: any Contender) async throws -> Int? {
        switch self {
        case .insert: nil
        case .fetchAll: try await contender.fetchAll()
        case .fetchFiltered: try await contender.fetchFiltered()
        case .fetchJSON: try await contender.fetchAccounts()
        case .fetchArrays: try await contender.fetchPosts()
        case .eagerLoading: try await contender.fetchAuthorsWithArticles()
        }
    }
}

func seconds(isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> Void) async rethrows -> Double {
    let start = ContinuousClock.now
    try await body()
    let elapsed = ContinuousClock.now - start
    return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
}

let fluent = FluentContender(host: host, port: port, user: user, password: url.password, database: databaseName)
do {
    try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask { await client.run() }
        group.addTask { await jsonClient.run() }
        group.addTask { await joinClient.run() }
        defer { group.cancelAll() }
        try await client.query(#"DROP TABLE IF EXISTS "sample", "strata_migrations""#)
        for name in [jsonDatabaseName, joinDatabaseName] {
            try await client.query(PostgresQuery(unsafeSQL: #"DROP DATABASE IF EXISTS "\#(name)""#))
            try await client.query(PostgresQuery(unsafeSQL: #"CREATE DATABASE "\#(name)""#))
        }
        let database = try await BenchPostgresDatabase(client: client)
        let json = try await BenchJSONPostgresDatabase(client: jsonClient)
        let join = try await BenchJoinPostgresDatabase(client: joinClient)
        // The read-only tables of the JSON value and eager loading operations, written once.
        _ = try await json.accounts.insert(contentsOf: RecordKindRows.accounts(count: rowCount))
        _ = try await json.posts.insert(contentsOf: RecordKindRows.posts(count: rowCount))
        let authors = try await join.authors.insert(contentsOf: RecordKindRows.authors(articles: rowCount))
        _ = try await join.articles.insert(contentsOf: RecordKindRows.articles(count: rowCount, by: authors))
        try await jsonClient.query(#"ANALYZE "account", "post""#)
        try await joinClient.query(#"ANALYZE "author", "article""#)
        let contenders: [any Contender] = [
            GeneratedContender(database: database, json: json, join: join), HandWrittenContender(client: client, json: jsonClient, join: joinClient), fluent,
        ]
        let rows = BenchRows.make(count: rowCount)
        var times = Array(repeating: [Operation: Double](), count: contenders.count)
        var returned: [Operation: Int] = [.insert: rows.count]
        // The contenders take turns going first.
        func order(_ repetition: Int) -> [Int] {
            repetition.isMultiple(of: 2) ? Array(contenders.indices) : contenders.indices.reversed()
        }
        for repetition in 0...repetitions {
            for index in order(repetition) {
                let contender = contenders[index]
                // Each insert starts from an empty table after a checkpoint: the previous
                // contender's writes are not flushed during it.
                try await client.query(#"TRUNCATE "sample""#)
                try await client.query("CHECKPOINT")
                let elapsed = try await seconds { try await contender.insertAll(rows) }
                if repetition > 0 { times[index][.insert] = min(times[index][.insert] ?? .infinity, elapsed) }
            }
        }
        for operation in Operation.allCases where operation != .insert {
            for repetition in 0...repetitions {
                for index in order(repetition) {
                    let contender = contenders[index]
                    var read: Int?
                    let elapsed = try await seconds { read = try await operation.read(contender) }
                    guard let count = read else { continue }
                    if repetition > 0 { times[index][operation] = min(times[index][operation] ?? .infinity, elapsed) }
                    if returned[operation] == nil { returned[operation] = count } else if count != returned[operation] {
                        throw BenchError("\(contender.name) read \(count) rows for \(operation.rawValue), another contender \(returned[operation] ?? 0)")
                    }
                }
            }
        }
        let results = Operation.allCases.map { operation in
            """
            {"operation": "\(operation.rawValue)", "generated": \(times[0][operation] ?? 0), "handWritten": \(times[1][operation] ?? 0), \
            \(times[2][operation].map { #""fluent": \#($0), "# } ?? "")"rows": \(returned[operation] ?? 0)}
            """
        }
        print(#"{"rows": \#(rowCount), "results": [\#(results.joined(separator: ", "))]}"#)
    }
} catch {
    await fluent.shutdown()
    FileHandle.standardError.write(Data("strata-postgres-bench: \(String(reflecting: error))\n".utf8))
    exit(1)
}
await fluent.shutdown()
