import Foundation
import PostgresNIO

/// (b) The same statements written by hand on PostgresNIO, bound and decoded the fastest way it
/// offers: a prepared statement inserting a thousand rows at a time, binary tuple decoding for the
/// reads.
struct HandWrittenContender: Contender {
    let client: PostgresClient
    /// The clients of the databases of BenchJSON and of BenchJoin (a database holds one model).
    let json: PostgresClient
    let join: PostgresClient
    var name: String { "hand-written PostgresNIO" }
    private static let logger = Logger(label: "bench")

    /// Records per insert statement, as the generated repository does it.
    static let batch = 1000
    private static let columns = #"("id", "name", "note", "quantity", "score", "is_active", "category", "created_at", "payload", "rank")"#

    /// `INSERT INTO "sample" (…) VALUES ($1, …, $10), ($11, …), …` of `rows` rows.
    static func insertSQL(rows: Int) -> String {
        let values = (0..<rows).map { row in
            "(" + (1...10).map { "$\(row * 10 + $0)" }.joined(separator: ", ") + ")"
        }
        return #"INSERT INTO "sample" "# + columns + " VALUES " + values.joined(separator: ", ")
    }

    struct Insert: PostgresPreparedStatement {
        static let sql = HandWrittenContender.insertSQL(rows: HandWrittenContender.batch)
        typealias Row = Void
        let samples: ArraySlice<Sample>

        func makeBindings() throws -> PostgresBindings {
            try HandWrittenContender.bindings(samples)
        }

        func decodeRow(_ row: PostgresRow) throws {}
    }

    static func bindings(_ samples: ArraySlice<Sample>) throws -> PostgresBindings {
        var bindings = PostgresBindings(capacity: samples.count * 10)
        for sample in samples {
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
        }
        return bindings
    }

    private typealias Columns = (UUID, String, String?, Int, Double, Bool, Int16, Date, Data, Int32)
    private static let selection = """
        SELECT "id", "name", "note", "quantity", "score", "is_active", "category", "created_at", "payload", "rank" FROM "sample"
        """

    func insertAll(_ rows: [Sample]) async throws {
        try await client.withConnection { connection in
            try await connection.query("BEGIN", logger: Self.logger)
            var start = 0
            while rows.count - start >= Self.batch {
                _ = try await connection.execute(Insert(samples: rows[start..<start + Self.batch]), logger: Self.logger)
                start += Self.batch
            }
            if start < rows.count {
                let rest = rows[start...]
                let query = PostgresQuery(unsafeSQL: Self.insertSQL(rows: rest.count), binds: try Self.bindings(rest))
                _ = try await connection.query(query, logger: Self.logger)
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
