/// One way of running the benchmark's operations: three on the `sample` table, then two on the
/// record kinds of other models (a JSON value, eager loading), which a contender may leave out.
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
    /// Reads every account with its JSON value; returns how many, or nil when not measured.
    func fetchAccounts() async throws -> Int?
    /// Reads every post (two array fields); returns how many, or nil when it leaves them out.
    func fetchPosts() async throws -> Int?
    /// Reads every author with its articles; returns how many articles, or nil when not measured.
    func fetchAuthorsWithArticles() async throws -> Int?
}

extension Contender {
    func fetchAccounts() async throws -> Int? { nil }
    func fetchPosts() async throws -> Int? { nil }
    func fetchAuthorsWithArticles() async throws -> Int? { nil }
}
