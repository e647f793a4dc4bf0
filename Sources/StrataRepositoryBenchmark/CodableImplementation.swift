import Foundation
import StrataRuntime

/// (c) What a user writes by hand with GRDB: a Codable record, mapped to the same table.
struct CodableMeasurement: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "measurement"
    static let databaseDateEncodingStrategy = DatabaseDateEncodingStrategy.timeIntervalSince1970
    static let databaseDateDecodingStrategy = DatabaseDateDecodingStrategy.timeIntervalSince1970

    var id: UUID
    var name: String
    var note: String?
    var quantity: Int
    var score: Double
    var isActive: Bool
    var category: Category
    var createdAt: Date
    var payload: Data
    var rank: Int32

    enum CodingKeys: String, CodingKey {
        case id, name, note, quantity, score
        case isActive = "is_active"
        case category
        case createdAt = "created_at"
        case payload, rank
    }

    init(_ row: Measurement) {
        id = row.id
        name = row.name
        note = row.note
        quantity = row.quantity
        score = row.score
        isActive = row.isActive
        category = row.category
        createdAt = row.createdAt
        payload = row.payload
        rank = row.rank
    }
}

/// (c) GRDB with Codable records.
struct CodableImplementation: BenchImplementation {
    let queue: DatabaseQueue

    init() throws {
        queue = try DatabaseQueue()
        try queue.write { db in try db.execute(sql: BenchSchema.sql) }
    }

    static func prepare(_ rows: [Measurement]) -> [CodableMeasurement] {
        rows.map(CodableMeasurement.init)
    }

    func insertAll(_ records: [CodableMeasurement]) throws {
        try queue.write { db in
            for record in records { try record.insert(db) }
        }
    }

    func fetchAll() throws -> Int {
        try queue.read { db in try CodableMeasurement.fetchAll(db).count }
    }

    func fetchFiltered() throws -> Int {
        try queue.read { db in
            try CodableMeasurement
                .filter(Column("is_active") == true && Column("quantity") >= 500)
                .order(Column("score").desc, Column("name"))
                .fetchAll(db)
                .count
        }
    }
}
