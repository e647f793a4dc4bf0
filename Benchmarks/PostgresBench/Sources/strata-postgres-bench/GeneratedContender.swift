import StrataPostgres

/// (a) The generated repository: `BenchPostgresDatabase`, `db.samples`.
struct GeneratedContender: Contender {
    let database: BenchPostgresDatabase
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
}
