import StrataPostgres

/// (a) The generated repository: `BenchPostgresDatabase`, `db.samples`; `BenchJSONPostgresDatabase`,
/// `db.accounts`; `BenchJoinPostgresDatabase`, `db.authors` with their articles.
struct GeneratedContender: Contender {
    let database: BenchPostgresDatabase
    let json: BenchJSONPostgresDatabase
    let join: BenchJoinPostgresDatabase
    var name: String { "generated repository" }

    func insertAll(_ rows: [Sample]) async throws {
        try await database.write { tx in _ = try await tx.samples.insert(contentsOf: rows) }
    }

    func fetchAll() async throws -> Int {
        try await database.samples.fetchAll().count
    }

    func fetchFiltered() async throws -> Int {
        try await database.samples.fetchAll(
            where: { $0.isActive == true && $0.quantity >= 500 },
            orderBy: { [$0.score.descending, $0.name.ascending] }
        ).count
    }

    func fetchAccounts() async throws -> Int? {
        try await json.accounts.fetchAll().count
    }

    func fetchPosts() async throws -> Int? {
        try await json.posts.fetchAll().count
    }

    func fetchAuthorsWithArticles() async throws -> Int? {
        try await join.authors.fetchAll(including: .all(Article.self, via: \.author)).reduce(0) { $0 + $1.children.count }
    }
}
