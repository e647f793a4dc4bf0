import Foundation
import GRDB
import StrataPostgres
import StrataSQLite
import StrataTestSupport
import Testing

/// Records with the records that reference them (`fetchAll(including:)`), on both databases:
/// two kinds of statement whatever the number of records, the children filtered and sorted for
/// each record, a record without children kept, and a thousand records per children statement.
@Suite("Generated repositories: Shop, customers with their orders")
struct ShopEagerLoadingTests {
    private static func customer(_ index: Int) -> Customer {
        Customer(name: "c\(index)", email: "c\(index)@example.com", joined: Date(timeIntervalSinceReferenceDate: 0))
    }

    /// Orders of customer `index`: `index % 3` of them, notes "note 0", "note 1", and the first shipped.
    private static func orders(of customer: Int64, _ index: Int) -> [Order] {
        (0..<(index % 3)).map { k in
            Order(customer: customer, status: k == 0 ? .shipped : .placed, total: Decimal(k + 1), note: "note \(k)")
        }
    }

    @Test("SQLite: each customer with its orders, in two statements")
    func sqlite() throws {
        let shop = try ShopDatabase.inMemory()
        let customers = try shop.customers.insert(contentsOf: (0..<10).map(Self.customer))
        for (index, customer) in customers.enumerated() {
            try shop.orders.insert(contentsOf: Self.orders(of: try #require(customer.id), index))
        }
        var statements: [String] = []
        let loaded = try shop.writer.read { db in
            db.trace { statements.append("\($0)") }
            defer { db.trace(options: [], nil) }
            return try SQLiteAccess<Customer>(db).fetchAll(
                orderBy: { [$0.id.descending] },
                including: .all(Order.self, via: \.customer, orderBy: { [$0.note.descending] }))
        }
        #expect(statements.count == 2, "\(statements)")
        let records: [Customer] = loaded.map { $0.record }
        #expect(records == customers.reversed())
        for family in loaded {
            let index = Int(try #require(family.record.id)) - 1
            let notes: [String?] = (0..<(index % 3)).reversed().map { "note \($0)" }
            #expect(family.children.map { $0.note } == notes)
            #expect(family.children.allSatisfy { $0.customer == family.record.id })
        }
        let shipped = try shop.customers.fetchAll(
            where: { $0.name != "c0" }, including: .all(Order.self, via: \.customer, where: { $0.status == .shipped }))
        #expect(shipped.count == 9)
        let counts: [Int] = shipped.map { $0.children.count }
        #expect(counts == (1..<10).map { $0 % 3 == 0 ? 0 : 1 })
    }

    @Test("SQLite: a thousand customers per children statement")
    func sqliteManyParents() throws {
        let shop = try ShopDatabase.inMemory()
        let customers = try shop.customers.insert(contentsOf: (0..<2_500).map(Self.customer))
        try shop.orders.insert(contentsOf: customers.map { Order(customer: $0.id ?? 0) })
        var statements = 0
        let loaded = try shop.writer.read { db in
            db.trace { _ in statements += 1 }
            defer { db.trace(options: [], nil) }
            return try SQLiteAccess<Customer>(db).fetchAll(including: .all(Order.self, via: \.customer))
        }
        #expect(statements == 1 + 3)
        #expect(loaded.count == 2_500)
        #expect(loaded.allSatisfy { $0.children.count == 1 && $0.children[0].customer == $0.record.id })
    }

    @Test("PostgreSQL: each customer with its orders")
    func postgres() async throws {
        let server = try await TestPostgresServer.forTest()
        try await server.withDatabase { session in
            try await ShopPostgresDatabase.migrator.migrate(session.connection)
            let shop = ShopPostgresAccess(session.connection)
            let customers = try await shop.customers.insert(contentsOf: (0..<1_200).map(Self.customer))
            var orders: [Order] = []
            for (index, customer) in customers.enumerated() { orders += Self.orders(of: try #require(customer.id), index) }
            try await shop.orders.insert(contentsOf: orders)
            let loaded = try await shop.customers.fetchAll(
                orderBy: { [$0.id.ascending] }, including: .all(Order.self, via: \.customer, orderBy: { [$0.note.ascending] }))
            let records: [Customer] = loaded.map { $0.record }
            #expect(records == customers)
            for (index, family) in loaded.enumerated() {
                let notes: [String?] = (0..<(index % 3)).map { "note \($0)" }
                #expect(family.children.map { $0.note } == notes)
            }
            let shipped = try await shop.customers.fetchAll(
                limit: 3, including: .all(Order.self, via: \.customer, where: { $0.status == .shipped }))
            let counts: [Int] = shipped.map { $0.children.count }
            #expect(counts == [0, 1, 1])
        }
    }
}
