import Foundation
import PostgresNIO
import StrataPostgres
import StrataTestSupport
import Testing

/// The Shop fixture's named queries (Schemas/Shop/queries/shop.sql) run on the test suite's own
/// PostgreSQL server through the generated `ShopPostgresAccess` functions, with the assertions of
/// their SQLite tests (ShopQueryTests): an inner join along a reference, a composite key as two
/// typed parameters, keyword names as columns and parameters, a declared parameter type, an outer
/// join with optional columns. The one
/// query written for SQLite alone (`customersWithOrders`: `max` of a UUID, a column outside its
/// `GROUP BY`) fails with the server's error, as `strata verify --postgres` reports.
@Suite("Generated named queries: Shop on PostgreSQL")
struct ShopPostgresQueryTests {
    /// The records the tests start from.
    struct Seed: Sendable {
        var ada: Customer
        var bob: Customer
        var order: Order
    }

    /// Runs `body` on the Shop model migrated into a new database of the test server, holding the
    /// records of ShopQueryTests.
    private func withShop(_ body: @Sendable (ShopPostgresAccess, Seed) async throws -> Void) async throws {
        let server = try await TestPostgresServer.forTest()
        try await server.withDatabase { session in
            try await ShopPostgresDatabase.migrator.migrate(session.connection)
            let shop = ShopPostgresAccess(session.connection)
            let ada = try await shop.customers.insert(
                Customer(name: "ada", email: "ada@x", nickname: "A", joined: Date(timeIntervalSinceReferenceDate: 100)))
            let bob = try await shop.customers.insert(
                Customer(name: "bob", email: "bob@x", joined: Date(timeIntervalSinceReferenceDate: 200)))
            let adaID = try #require(ada.id)
            let order = try await shop.orders.insert(
                Order(id: UUID(), customer: adaID, status: .placed, total: 12.5, note: "gift"))
            try await shop.orders.insert(Order(id: UUID(), customer: adaID, status: .draft, total: 1))
            try await shop.orderLines.insert(
                OrderLine(order: order.id, position: 1, size: .small, quantity: 3, payload: Data([1, 2])))
            try await shop.orderLines.insert(OrderLine(order: order.id, position: 2))
            try await body(shop, Seed(ada: ada, bob: bob, order: order))
        }
    }

    @Test func anInnerJoinAlongAReference() async throws {
        try await withShop { shop, seed in
            let rows = try await shop.ordersWithCustomer(status: .placed)
            #expect(
                rows == [.init(id: seed.order.id, status: .placed, total: 12.5, customerName: "ada", nickname: "A")])
            #expect(try await shop.ordersWithCustomer(status: .shipped).isEmpty)
        }
    }

    @Test func anOuterJoinWrittenForBothDatabases() async throws {
        try await withShop { shop, _ in
            let rows: [ShopQueries.OrderNotesRow] = try await shop.orderNotes()
            #expect(
                rows == [
                    .init(name: "ada", total: 1, note: nil), .init(name: "ada", total: 12.5, note: "gift"),
                    .init(name: "bob", total: nil, note: nil),
                ])
        }
    }

    @Test func aQueryWrittenForSQLiteAloneFailsWithTheServersError() async throws {
        try await withShop { shop, _ in
            await #expect(throws: PSQLError.self) { try await shop.customersWithOrders() }
        }
    }

    @Test func aCompositeKeyAsTwoTypedParameters() async throws {
        try await withShop { shop, seed in
            let first: [ShopQueries.LineRow] = try await shop.line(order: seed.order.id, position: 1)
            #expect(first == [.init(quantity: 3, size: .small, payload: Data([1, 2]))])
            let second: [ShopQueries.LineRow] = try await shop.line(order: seed.order.id, position: 2)
            #expect(second == [.init(quantity: 1, size: .large, payload: nil)])
            #expect(try await shop.line(order: UUID(), position: 1).isEmpty)
        }
    }

    @Test func keywordNamesAsColumnsAndParameters() async throws {
        try await withShop { shop, _ in
            try await shop.keywords.insert(Keywords(default: 1, class: "a", protocol: "p"))
            try await shop.keywords.insert(Keywords(default: 2, class: "a", self_check: false))
            try await shop.keywords.insert(Keywords(default: 3, class: "b"))
            let rows = try await shop.keywordsOfClass(class: "a", default: 0)
            #expect(
                rows == [
                    .init(default: 1, protocol: "p", self_check: true),
                    .init(default: 2, protocol: nil, self_check: false),
                ])
            #expect(try await shop.keywordsOfClass(class: "a", default: 2).map(\.default) == [2])
        }
    }

    @Test func aDeclaredParameterTypeAndRecordsOfAnEntity() async throws {
        try await withShop { shop, seed in
            // Dates bound and read as the records read them: to the microsecond.
            let date = { Date(timeIntervalSinceReferenceDate: $0) }
            let since: [Customer] = try await shop.customersJoinedSince(since: date(150))
            #expect(since == [seed.bob])
            #expect(try await shop.customersJoinedSince(since: .distantPast) == [seed.ada, seed.bob])
            #expect(try await shop.customersJoinedSince(since: date(200)) == [seed.bob])
            #expect(try await shop.customersJoinedSince(since: date(200.000_001)).isEmpty)
        }
    }
}
