import Foundation
import PostgresNIO

/// (b) The same statements written by hand on PostgresNIO, bound and decoded the fastest way it
/// offers: a prepared statement for the insert, binary tuple decoding for the reads.
struct HandWrittenContender: Contender {
    let client: PostgresClient
    var name: String { "hand-written PostgresNIO" }
    private static let logger = Logger(label: "bench")

    struct Insert: PostgresPreparedStatement {
        static let sql = """
            INSERT INTO "sample" ("id", "name", "note", "quantity", "score", "is_active", "category", "created_at", "payload", "rank")
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
            """
        typealias Row = Void
        let sample: Sample

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 10)
            bindings.append(sample.id)
            bindings.append(sample.name)
            bindings.append(sample.note)
            bindings.append(sample.quantity)
            bindings.append(sample.score)
            bindings.append(sample.isActive)
            bindings.append(sample.category.rawValue)
            bindings.append(sample.createdAt)
            try bindings.append(sample.payload)
            bindings.append(sample.rank)
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws {}
    }

    private typealias Columns = (UUID, String, String?, Int, Double, Bool, Int16, Date, Data, Int32)
    private static let selection = """
        SELECT "id", "name", "note", "quantity", "score", "is_active", "category", "created_at", "payload", "rank" FROM "sample"
        """

    func insertAll(_ rows: [Sample]) async throws {
        try await client.withConnection { connection in
            try await connection.query("BEGIN", logger: Self.logger)
            for row in rows {
                _ = try await connection.execute(Insert(sample: row), logger: Self.logger)
            }
            try await connection.query("COMMIT", logger: Self.logger)
        }
    }

    func fetchAll() async throws -> Int {
        try await read(PostgresQuery(unsafeSQL: Self.selection)).count
    }

    func fetchFiltered() async throws -> Int {
        var query: PostgresQuery = #"\#(unescaped: Self.selection) WHERE "is_active" = \#(true) AND "quantity" >= \#(500) ORDER BY "score" DESC, "name" ASC"#
        query.sql = query.sql.trimmingCharacters(in: .whitespaces)
        return try await read(query).count
    }

    private func read(_ query: PostgresQuery) async throws -> [Sample] {
        var samples: [Sample] = []
        for try await columns in try await client.query(query).decode(Columns.self) {
            samples.append(
                Sample(
                    id: columns.0, name: columns.1, note: columns.2, quantity: columns.3, score: columns.4,
                    isActive: columns.5, category: Category(rawValue: columns.6) ?? .alpha, createdAt: columns.7,
                    payload: columns.8, rank: columns.9))
        }
        return samples
    }
}
