import Foundation
import StrataPostgres
import StrataTestSupport
import Testing

/// The generated PostgreSQL repositories of the Shop fixture model on the test suite's own server:
/// the same operations as on SQLite (autoincremented keys returned by `RETURNING`, references and
/// to-many accessors, a composite key, enums, keyword names, transactions), async.
@Suite("Generated repositories: Shop on PostgreSQL")
struct ShopPostgresRepositoryTests {
    /// Runs `body` on the Shop model migrated into a new database of the test server.
    private func withShop(_ body: @Sendable (ShopPostgresAccess) async throws -> Void) async throws {
        let server = try await TestPostgresServer.forTest()
        try await server.withDatabase { session in
            try await ShopPostgresDatabase.migrator.migrate(session.connection)
            try await body(ShopPostgresAccess(session.connection))
        }
    }

    private static func customer(_ name: String) -> Customer {
        Customer(name: name, email: "\(name)@example.com", joined: Date(timeIntervalSinceReferenceDate: 785_000_000.123456))
    }

    @Test("insert returns the stored record with its key from RETURNING; find, count, exists")
    func insertAndFind() async throws {
        try await withShop { shop in
            let ada = try await shop.customers.insert(Self.customer("ada"))
            let bob = try await shop.customers.insert(Self.customer("bob"))
            #expect(ada.id == 1)
            #expect(bob.id == 2)
            #expect(try await shop.customers.find(id: 2) == bob)
            let many = try await shop.customers.insert(contentsOf: [Self.customer("c"), Self.customer("d")])
            #expect(many.map(\.id) == [3, 4])
            #expect(try await shop.customers.count() == 4)
            #expect(try await shop.customers.exists(where: { $0.name == "c" }))
            #expect(try await shop.customers.exists(where: { $0.name == "zz" }) == false)
            let upserted = try await shop.customers.upsert(Self.customer("e"))
            #expect(upserted.id == 5)
            #expect(try await shop.customers.update(Self.customer("f")) == false)
        }
    }

    @Test("dates read back equal to the microsecond, and what insert returns is what a fetch reads")
    func dates() async throws {
        try await withShop { shop in
            for k in 0..<50 {
                let date = Date(timeIntervalSinceReferenceDate: 785_000_000 + Double(k) * 0.123456789)
                var customer = Self.customer("c\(k)")
                customer.joined = date
                let stored = try await shop.customers.insert(customer)
                #expect(stored.joined == StrataPostgresTimestamp(date).date)
                #expect(abs(stored.joined.timeIntervalSince(date)) < 0.000_001)
                #expect(try await shop.customers.find(id: try #require(stored.id)) == stored)
            }
            let first = Date(timeIntervalSinceReferenceDate: 785_000_000)
            #expect(try await shop.customers.count(where: { $0.joined > first }) == 49)
        }
    }

    @Test("filters, sorts, limit and offset, updates of chosen fields, updateAll and deleteAll")
    func queries() async throws {
        try await withShop { shop in
            let ada = try await shop.customers.insert(Self.customer("ada"))
            _ = try await shop.customers.insert(contentsOf: ["bob", "cy", "dee"].map(Self.customer))
            let named = try await shop.customers.updateChanges(ada) { $0.nickname = "A" }
            #expect(named?.nickname == "A")
            #expect(try await shop.customers.fetchOne(where: { $0.nickname == "A" })?.id == ada.id)
            #expect(try await shop.customers.count(where: { $0.nickname.isNull }) == 3)
            let cleared = try await shop.customers.updateChanges(try #require(named)) { $0.nickname = nil }
            #expect(cleared?.nickname == nil)
            let page = try await shop.customers.fetchAll(orderBy: { [$0.name.descending] }, limit: 2, offset: 1)
            #expect(page.map(\.name) == ["cy", "bob"])
            #expect(try await shop.customers.fetchAll(where: { $0.name.in(["ada", "dee"]) }).count == 2)
            #expect(try await shop.customers.fetchAll(where: { $0.name.in([]) }).isEmpty)
            #expect(try await shop.customers.updateAll(where: { $0.name != "ada" }, set: { [$0.isVIP.set(true)] }) == 3)
            #expect(try await shop.customers.count(where: { $0.isVIP == true }) == 3)
            #expect(try await shop.customers.deleteAll(where: { $0.isVIP == true }) == 3)
            #expect(try await shop.customers.fetchAll() == [try #require(cleared)])
            #expect(try await shop.customers.delete(ada))
            #expect(try await shop.customers.delete(ada) == false)
        }
    }

    @Test("references, hasMany, a composite key, decimals, bytes and enums")
    func relations() async throws {
        try await withShop { shop in
            let ada = try await shop.customers.insert(Self.customer("ada"))
            let first = try await shop.orders.insert(Order(customer: try #require(ada.id), total: Decimal(string: "10.50")!))
            let second = try await shop.orders.insert(Order(customer: try #require(ada.id), status: .shipped, note: "fragile"))
            #expect(try await shop.orders.customer(of: first) == ada)
            let orders = try await shop.customers.orders(of: ada, orderBy: { [$0.status.ascending] })
            #expect(orders.map(\.id) == [first.id, second.id])
            #expect(try await shop.customers.orders(of: ada, where: { $0.status == .shipped }) == [second])
            #expect(try await shop.orders.find(id: first.id)?.total == Decimal(string: "10.5"))

            _ = try await shop.orderLines.insert(contentsOf: [
                OrderLine(order: first.id, position: 2, quantity: 5),
                OrderLine(order: first.id, position: 1, size: .small, payload: Data([1, 2, 3])),
            ])
            let lines = try await shop.orders.lines(of: first, orderBy: { [$0.position.ascending] })
            #expect(lines.map(\.position) == [1, 2])
            #expect(lines[0].payload == Data([1, 2, 3]))
            #expect(lines[1].size == .large)
            #expect(try await shop.orderLines.find(order: first.id, position: 1) == lines[0])
            let heavier = try await shop.orderLines.update(order: first.id, position: 1, set: { [$0.weight.set(9.5)] })
            #expect(heavier?.weight == 9.5)
            var changed = lines[1]
            changed.quantity = 7
            #expect(try await shop.orderLines.update(changed))
            #expect(try await shop.orderLines.upsert(OrderLine(order: first.id, position: 2, quantity: 8)).quantity == 8)
            #expect(try await shop.orderLines.delete(order: first.id, position: 1))
            // onDelete: cascade.
            #expect(try await shop.customers.delete(ada))
            #expect(try await shop.orders.count() == 0)
            #expect(try await shop.orderLines.count() == 0)
        }
    }

    /// Regression: PostgresNIO's Decimal decoding read a stored `NaN` as 0, rounded digits past a
    /// Decimal's mantissa away, and trapped on a magnitude past its range; its binding trapped on
    /// `Decimal.nan`. Each is an error now, and NUMERIC's own forms read exactly.
    @Test("a NUMERIC no Decimal equals is a decoding error, Decimal.nan an error to bind, never a crash or a wrong value")
    func decimalsOutsideDecimal() async throws {
        let server = try await TestPostgresServer.forTest()
        try await server.withDatabase { session in
            try await ShopPostgresDatabase.migrator.migrate(session.connection)
            let shop = ShopPostgresAccess(session.connection)
            let ada = try await shop.customers.insert(Self.customer("ada"))
            let order = try await shop.orders.insert(Order(customer: try #require(ada.id), total: Decimal(string: "-12345678901234567890.123456789012345678")!))
            #expect(try await shop.orders.find(id: order.id)?.total == Decimal(string: "-12345678901234567890.123456789012345678")!)
            await #expect(throws: (any Error).self) { _ = try await shop.orders.insert(Order(customer: try #require(ada.id), total: .nan)) }
            let huge = "1" + String(repeating: "0", count: 200)
            for value in ["'NaN'", "'Infinity'", "1234567890123456789012345678901234567891", huge, "0.\(huge)1"] {
                _ = try await session.connection.query(
                    "UPDATE \"order\" SET total = \(unescaped: value)", logger: .init(label: "test")
                ).get()
                await #expect(throws: StrataDecodingError.malformed(column: "total", type: "Decimal"), "\(value)") {
                    try await shop.orders.find(id: order.id)
                }
            }
            _ = try await session.connection.query("UPDATE \"order\" SET total = 10.500", logger: .init(label: "test")).get()
            #expect(try await shop.orders.find(id: order.id)?.total == Decimal(string: "10.5"))
        }
    }

    @Test("keyword names work as fields, keys and columns")
    func keywords() async throws {
        try await withShop { shop in
            let row = try await shop.keywords.insert(Keywords(default: 1, class: "c", protocol: nil, self_check: false))
            #expect(try await shop.keywords.find(default: 1) == row)
            #expect(try await shop.keywords.fetchAll(where: { $0.class == "c" && $0.self_check == false }) == [row])
            #expect(try await shop.keywords.updateChanges(row) { $0.protocol = "p" }?.protocol == "p")
            #expect(try await shop.keywords.delete(default: 1))
        }
    }

    @Test("insert(contentsOf:) past one statement's thousand records: in order, every one, as a fetch reads it")
    func batchedInsert() async throws {
        try await withShop { shop in
            let owner = try #require(try await shop.customers.insert(Self.customer("ada")).id)
            let orders = (0..<2_345).map { k in
                Order(
                    customer: owner, total: Decimal(k), note: k.isMultiple(of: 3) ? nil : "n\(k)",
                    shippedAt: k.isMultiple(of: 2) ? nil : Date(timeIntervalSinceReferenceDate: 785_000_000 + Double(k) * 0.1234567891))
            }
            let stored = try await shop.orders.insert(contentsOf: orders)
            #expect(stored.map(\.id) == orders.map(\.id))
            #expect(try await shop.orders.count() == orders.count)
            let fetched = Dictionary(uniqueKeysWithValues: try await shop.orders.fetchAll().map { ($0.id, $0) })
            #expect(stored.map { fetched[$0.id] } == stored)
            #expect(stored[1].shippedAt == StrataPostgresTimestamp(try #require(orders[1].shippedAt)).date)
            #expect(try await shop.orders.insert(contentsOf: [Order]()).isEmpty)
        }
    }

    @Test("insert(contentsOf:) is all or none: on a bare connection, and inside a transaction that goes on")
    func batchedInsertIsAtomic() async throws {
        try await withShop { shop in
            let owner = try #require(try await shop.customers.insert(Self.customer("ada")).id)
            // The last order references no customer: its batch, the second statement, fails.
            let orders = (0..<1_500).map { Order(customer: $0 == 1_499 ? owner + 1 : owner, total: Decimal($0)) }
            await #expect(throws: (any Error).self) { try await shop.orders.insert(contentsOf: orders) }
            #expect(try await shop.orders.count() == 0)
            let twins = [Self.customer("bob"), Self.customer("cy"), Self.customer("bob")]
            await #expect(throws: (any Error).self) { try await shop.customers.insert(contentsOf: twins) }
            #expect(try await shop.customers.count() == 1)
            try await PostgresTransaction.run(on: shop.connection) { connection in
                let access = ShopPostgresAccess(connection)
                try await access.customers.insert(Self.customer("dee"))
                await #expect(throws: (any Error).self) { try await access.orders.insert(contentsOf: orders) }
                await #expect(throws: (any Error).self) { try await access.customers.insert(contentsOf: twins) }
                try await access.orders.insert(contentsOf: orders.dropLast())
            }
            #expect(try await shop.customers.count() == 2)
            #expect(try await shop.orders.count() == 1_499)
        }
    }

    @Test("a transaction commits as a whole or rolls back as a whole")
    func transactions() async throws {
        try await withShop { shop in
            struct Failure: Error {}
            await #expect(throws: Failure.self) {
                try await PostgresTransaction.run(on: shop.connection) { connection in
                    try await ShopPostgresAccess(connection).customers.insert(Self.customer("ada"))
                    throw Failure()
                }
            }
            #expect(try await shop.customers.count() == 0)
            try await PostgresTransaction.run(on: shop.connection) { connection in
                try await ShopPostgresAccess(connection).customers.insert(Self.customer("ada"))
                try await ShopPostgresAccess(connection).customers.insert(Self.customer("bob"))
            }
            #expect(try await shop.customers.count() == 2)
        }
    }
}
