import Foundation
import GRDB
import StrataSQLite

/// (c) What a user writes by hand with GRDB: a Codable record, mapped to the same table.
struct CodableSample: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "sample"
    static let databaseDateEncodingStrategy = DatabaseDateEncodingStrategy.timeIntervalSinceReferenceDate
    static let databaseDateDecodingStrategy = DatabaseDateDecodingStrategy.timeIntervalSinceReferenceDate

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

    init(_ row: Sample) {
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

    static func prepare(_ rows: [Sample]) -> [CodableSample] {
        rows.map(CodableSample.init)
    }

    func insertAll(_ records: [CodableSample]) throws {
        try queue.write { db in
            for record in records { try record.insert(db) }
        }
    }

    func fetchAll() throws -> Int {
        try queue.read { db in try CodableSample.fetchAll(db).count }
    }

    func fetchFiltered() throws -> Int {
        try queue.read { db in
            try CodableSample
                .filter(Column("is_active") == true && Column("quantity") >= 500)
                .order(Column("score").desc, Column("name"))
                .fetchAll(db)
                .count
        }
    }
}
