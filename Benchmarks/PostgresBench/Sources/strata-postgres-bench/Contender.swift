/// One way of running the benchmark's three operations on the `sample` table.
protocol Contender: Sendable {
    /// A short name for the report.
    var name: String { get }
    /// Inserts every row in one transaction.
    func insertAll(_ rows: [Sample]) async throws
    /// Reads every row; returns how many.
    func fetchAll() async throws -> Int
    /// Reads the active rows with a quantity of at least 500, by score descending then name;
    /// returns how many.
    func fetchFiltered() async throws -> Int
}
