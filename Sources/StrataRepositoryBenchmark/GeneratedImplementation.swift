import StrataSQLite

/// (a) The generated repository: `BenchDatabase`, `db.samples`.
struct GeneratedImplementation: BenchImplementation {
    let database: BenchDatabase

    init() throws {
        database = try BenchDatabase.inMemory()
    }

    func insertAll(_ rows: [Sample]) throws {
        try database.samples.insert(contentsOf: rows)
    }

    func fetchAll() throws -> Int {
        try database.samples.fetchAll().count
    }

    func fetchFiltered() throws -> Int {
        try database.samples.fetchAll(
            where: { $0.isActive == true && $0.quantity >= 500 },
            orderBy: { [$0.score.descending, $0.name.ascending] }
        ).count
    }
}
