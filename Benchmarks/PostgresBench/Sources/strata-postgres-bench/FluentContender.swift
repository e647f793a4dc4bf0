import FluentKit
import FluentPostgresDriver
import Foundation
import NIOCore
import NIOPosix

/// The `sample` table as a Fluent model, written the way Fluent's documentation shows.
final class FluentSample: Model, @unchecked Sendable {
    static let schema = "sample"

    @ID(custom: "id", generatedBy: .user) var id: UUID?
    @Field(key: "name") var name: String
    @OptionalField(key: "note") var note: String?
    @Field(key: "quantity") var quantity: Int
    @Field(key: "score") var score: Double
    @Field(key: "is_active") var isActive: Bool
    @Field(key: "category") var category: Int16
    @Field(key: "created_at") var createdAt: Date
    @Field(key: "payload") var payload: Data
    @Field(key: "rank") var rank: Int32

    init() {}

    init(_ sample: Sample) {
        id = sample.id
        name = sample.name
        note = sample.note
        quantity = sample.quantity
        score = sample.score
        isActive = sample.isActive
        category = sample.category.rawValue
        createdAt = sample.createdAt
        payload = sample.payload
        rank = sample.rank
    }
}

/// (c) FluentKit with FluentPostgresDriver, outside Vapor.
final class FluentContender: Contender, @unchecked Sendable {
    let databases: Databases
    var name: String { "FluentKit + FluentPostgresDriver" }

    init(host: String, port: Int, user: String, password: String?, database: String) {
        databases = Databases(threadPool: NIOThreadPool.singleton, on: MultiThreadedEventLoopGroup.singleton)
        databases.use(
            .postgres(
                configuration: .init(
                    hostname: host, port: port, username: user, password: password, database: database, tls: .disable)),
            as: .psql)
    }

    private var database: any Database {
        get throws {
            guard let database = databases.database(logger: Logger(label: "fluent"), on: databases.eventLoopGroup.any())
            else { throw BenchError("Fluent has no PostgreSQL database configured") }
            return database
        }
    }

    func insertAll(_ rows: [Sample]) async throws {
        // Fluent's batch create, a thousand rows at a time like the others (one statement for all
        // would pass PostgreSQL's 65,535 parameters).
        try await database.transaction { transaction in
            for start in stride(from: 0, to: rows.count, by: HandWrittenContender.batch) {
                let batch = rows[start..<min(start + HandWrittenContender.batch, rows.count)]
                try await batch.map(FluentSample.init).create(on: transaction)
            }
        }
    }

    func fetchAll() async throws -> Int {
        try await FluentSample.query(on: database).all().count
    }

    func fetchFiltered() async throws -> Int {
        try await FluentSample.query(on: database)
            .filter(\.$isActive == true)
            .filter(\.$quantity >= 500)
            .sort(\.$score, .descending)
            .sort(\.$name, .ascending)
            .all()
            .count
    }

    func shutdown() async {
        await databases.shutdownAsync()
    }
}

struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
