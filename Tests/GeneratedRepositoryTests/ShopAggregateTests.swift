import Foundation
import StrataPostgres
import StrataSQLite
import StrataTestSupport
import Testing

/// Aggregates on the Shop model: typed by the column, filtered, grouped by one and two columns
/// (enum, Int16, composite-key columns), empty tables and empty groups, NULLs left out; on SQLite
/// (with observation) and with the same expectations on PostgreSQL.
@Suite("Aggregates: Shop on SQLite and PostgreSQL")
struct ShopAggregateTests {
    static let joined = [785_000_000.25, 785_000_100.5, 785_000_050.75].map(Date.init(timeIntervalSinceReferenceDate:))

    /// Three customers; two orders of the first (one shipped, with a note), one of the second;
    /// order lines 1...3 of the first order, 1 of the second.
    static func lines(_ first: UUID, _ second: UUID) -> [OrderLine] {
        [
            OrderLine(order: first, position: 1, size: .small, quantity: 2, weight: 1.5),
            OrderLine(order: first, position: 2, size: .large, quantity: 3, weight: 2.25),
            OrderLine(order: first, position: 3, size: .large, quantity: 5, weight: 0.25),
            OrderLine(order: second, position: 1, size: .large, quantity: 7, weight: 4),
        ]
    }

    @Test("SQLite: sum, average, min, max, count, typed; filters; groups in key order; an empty table")
    func sqlite() throws {
        let shop = try ShopDatabase.inMemory()
        #expect(try shop.orderLines.aggregate { $0.quantity.sum } == 0)
        #expect(try shop.orderLines.aggregate { $0.quantity.average } == nil)
        #expect(try shop.customers.aggregate { $0.joined.max } == nil)
        #expect(try shop.orderLines.count(groupedBy: { $0.size }).isEmpty)

        let customers = try shop.customers.insert(contentsOf: Self.joined.enumerated().map {
            Customer(name: "c\($0)", email: "c\($0)@x", joined: $1)
        })
        let owner = try #require(customers[0].id)
        let first = try shop.orders.insert(Order(customer: owner, status: .shipped, note: "fragile", shippedAt: Self.joined[2]))
        let second = try shop.orders.insert(Order(customer: owner))
        try shop.orderLines.insert(contentsOf: Self.lines(first.id, second.id))

        let sum: Int64 = try shop.orderLines.aggregate { $0.quantity.sum }
        #expect(sum == 17)
        let weight: Double = try shop.orderLines.aggregate { $0.weight.sum }
        #expect(weight == 8)
        #expect(try shop.orderLines.aggregate { $0.quantity.average } == 4.25)
        let latest: Date? = try shop.customers.aggregate { $0.joined.max }
        #expect(latest == Self.joined[1])
        #expect(try shop.customers.aggregate { $0.joined.min } == Self.joined[0])
        let smallest: Size? = try shop.orderLines.aggregate { $0.size.min }
        #expect(smallest == .small)
        let lastShipped: Date? = try shop.orders.aggregate { $0.shippedAt.max }
        #expect(lastShipped == Self.joined[2])
        #expect(try shop.orders.aggregate { $0.note.count } == 1)
        #expect(try shop.orderLines.aggregate({ $0.quantity.sum }, where: { $0.size == .large }) == 15)
        #expect(try shop.orderLines.aggregate({ $0.quantity.max }, where: { $0.quantity > 100 }) == nil)

        let perSize = try shop.orderLines.count(groupedBy: { $0.size })
        #expect(perSize.map(\.key) == [.small, .large])
        #expect(perSize.map(\.value) == [1, 3])
        let perOrder = try shop.orderLines.aggregate({ $0.quantity.sum }, groupedBy: { $0.order })
        #expect(Dictionary(uniqueKeysWithValues: perOrder.map { ($0.key, $0.value) }) == [first.id: 10, second.id: 7])
        let pairs = try shop.orderLines.aggregate({ $0.weight.max }, groupedBy: { ($0.size, $0.position) })
        #expect(pairs.map(\.key.0) == [.small, .large, .large, .large])
        #expect(pairs.map(\.key.1) == [1, 1, 2, 3])
        #expect(pairs.map(\.value) == [1.5, 4, 2.25, 0.25])
        // A filter that leaves a group empty leaves it out.
        #expect(try shop.orderLines.count(groupedBy: { $0.size }, where: { $0.quantity > 2 }).map(\.key) == [.large])
    }

    @Test("SQLite: an observed aggregate follows committed changes")
    func observed() async throws {
        let shop = try ShopDatabase.inMemory()
        let owner = try #require(try shop.customers.insert(Customer(name: "a", email: "a@x", joined: Date())).id)
        let order = try shop.orders.insert(Order(customer: owner))
        var totals = shop.orderLines.observeAggregate { $0.quantity.sum }.makeAsyncIterator()
        var groups = shop.orderLines.observeAggregate({ $0.quantity.sum }, groupedBy: { $0.size }).makeAsyncIterator()
        #expect(try await totals.next() == 0)
        #expect(try await groups.next()?.isEmpty == true)
        try shop.orderLines.insert(OrderLine(order: order.id, position: 1, size: .small, quantity: 4))
        #expect(try await totals.next() == 4)
        #expect(try await groups.next() == [StrataGroup(key: Size.small, value: 4)])
        try shop.orderLines.insert(OrderLine(order: order.id, position: 2, size: .large, quantity: 6))
        #expect(try await totals.next() == 10)
        #expect(try await groups.next() == [StrataGroup(key: Size.small, value: 4), StrataGroup(key: .large, value: 6)])
    }

    @Test("PostgreSQL: the same aggregates, the same results")
    func postgres() async throws {
        let server = try await TestPostgresServer.forTest()
        try await server.withDatabase { session in
            try await ShopPostgresDatabase.migrator.migrate(session.connection)
            let shop = ShopPostgresAccess(session.connection)
            #expect(try await shop.orderLines.aggregate { $0.quantity.sum } == 0)
            #expect(try await shop.orderLines.aggregate { $0.quantity.average } == nil)
            #expect(try await shop.customers.aggregate { $0.joined.max } == nil)
            #expect(try await shop.orderLines.count(groupedBy: { $0.size }).isEmpty)

            let customers = try await shop.customers.insert(contentsOf: Self.joined.enumerated().map {
                Customer(name: "c\($0)", email: "c\($0)@x", joined: $1)
            })
            let owner = try #require(customers[0].id)
            let first = try await shop.orders.insert(Order(customer: owner, status: .shipped, note: "fragile", shippedAt: Self.joined[2]))
            let second = try await shop.orders.insert(Order(customer: owner))
            try await shop.orderLines.insert(contentsOf: Self.lines(first.id, second.id))

            let sum: Int64 = try await shop.orderLines.aggregate { $0.quantity.sum }
            #expect(sum == 17)
            let weight: Double = try await shop.orderLines.aggregate { $0.weight.sum }
            #expect(weight == 8)
            #expect(try await shop.orderLines.aggregate { $0.quantity.average } == 4.25)
            #expect(try await shop.customers.aggregate { $0.joined.max } == Self.joined[1])
            #expect(try await shop.customers.aggregate { $0.joined.min } == Self.joined[0])
            #expect(try await shop.orderLines.aggregate { $0.size.min } == .small)
            #expect(try await shop.orders.aggregate { $0.shippedAt.max } == Self.joined[2])
            #expect(try await shop.orders.aggregate { $0.note.count } == 1)
            #expect(try await shop.orderLines.aggregate({ $0.quantity.sum }, where: { $0.size == .large }) == 15)
            #expect(try await shop.orderLines.aggregate({ $0.quantity.max }, where: { $0.quantity > 100 }) == nil)

            let perSize = try await shop.orderLines.count(groupedBy: { $0.size })
            #expect(perSize.map(\.key) == [.small, .large])
            #expect(perSize.map(\.value) == [1, 3])
            let pairs = try await shop.orderLines.aggregate({ $0.weight.max }, groupedBy: { ($0.size, $0.position) })
            #expect(pairs.map(\.key.0) == [.small, .large, .large, .large])
            #expect(pairs.map(\.key.1) == [1, 1, 2, 3])
            #expect(pairs.map(\.value) == [1.5, 4, 2.25, 0.25])
            #expect(try await shop.orderLines.count(groupedBy: { $0.size }, where: { $0.quantity > 2 }).map(\.key) == [.large])
        }
    }
}
