/// One way of storing and querying the benchmark rows: the generated repository, raw SQLite, or
/// a GRDB Codable record. Each starts from an empty in-memory database made from the same schema SQL.
protocol BenchImplementation {
    /// The rows in the form the implementation inserts (converted before timing starts).
    associatedtype Input
    /// Converts the benchmark rows.
    static func prepare(_ rows: [Sample]) -> Input
    /// Creates the empty table in a fresh in-memory database.
    init() throws
    /// Inserts every row in one transaction.
    func insertAll(_ rows: Input) throws
    /// Fetches every row as a Swift value; returns how many.
    func fetchAll() throws -> Int
    /// Fetches the active rows with quantity >= 500, by score descending then name; returns how many.
    func fetchFiltered() throws -> Int
}

extension BenchImplementation where Input == [Sample] {
    static func prepare(_ rows: [Sample]) -> [Sample] { rows }
}

/// The benchmark table's schema, from the generated SQLite migrations (the same SQL everywhere).
enum BenchSchema {
    static var sql: String { BenchMigrations.all.map(\.sql).joined(separator: "\n") }
}
