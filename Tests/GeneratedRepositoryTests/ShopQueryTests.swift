import Foundation
import StrataSQLite
import Testing

/// The Shop fixture's named queries (Schemas/Shop/queries/shop.sql), generated and run on
/// SQLite: joins along references (inner, and outer with optional columns), a composite key,
/// keyword names as columns and parameters, a declared parameter type.
@Suite("Generated named queries: Shop")
struct ShopQueryTests {
    let shop: ShopDatabase
    let ada: Customer
    let bob: Customer
    let order: Order

    init() throws {
        shop = try ShopDatabase.inMemory()
        ada = try shop.customers.insert(
            Customer(name: "ada", email: "ada@x", nickname: "A", joined: Date(timeIntervalSinceReferenceDate: 100)))
        bob = try shop.customers.insert(
            Customer(name: "bob", email: "bob@x", joined: Date(timeIntervalSinceReferenceDate: 200)))
        let adaID = try #require(ada.id)
        order = try shop.orders.insert(Order(id: UUID(), customer: adaID, status: .placed, total: 12.5, note: "gift"))
        try shop.orders.insert(Order(id: UUID(), customer: adaID, status: .draft, total: 1))
        try shop.orderLines.insert(
            OrderLine(order: order.id, position: 1, size: .small, quantity: 3, payload: Data([1, 2])))
        try shop.orderLines.insert(OrderLine(order: order.id, position: 2))
    }

    @Test func anInnerJoinAlongAReference() throws {
        let rows = try shop.ordersWithCustomer(status: .placed)
        #expect(rows == [.init(id: order.id, status: .placed, total: 12.5, customerName: "ada", nickname: "A")])
        #expect(try shop.ordersWithCustomer(status: .shipped).isEmpty)
    }

    @Test func anOuterJoinKeepsCustomersWithoutOrdersWithOptionalColumns() throws {
        let rows = try shop.customersWithOrders()
        #expect(rows.map(\.name) == ["ada", "bob"])
        #expect(rows.map(\.orders) == [2, 0])
        #expect(rows[0].anyOrder != nil)
        #expect(rows[1].anyOrder == nil)
        #expect(rows[1].note == nil)
    }

    @Test func anOuterJoinWrittenForBothDatabases() throws {
        #expect(
            try shop.orderNotes() == [
                .init(name: "ada", total: 1, note: nil), .init(name: "ada", total: 12.5, note: "gift"),
                .init(name: "bob", total: nil, note: nil),
            ])
    }

    @Test func aCompositeKeyAsTwoTypedParameters() throws {
        #expect(
            try shop.line(order: order.id, position: 1) == [.init(quantity: 3, size: .small, payload: Data([1, 2]))])
        #expect(try shop.line(order: order.id, position: 2) == [.init(quantity: 1, size: .large, payload: nil)])
        #expect(try shop.line(order: UUID(), position: 1).isEmpty)
    }

    @Test func keywordNamesAsColumnsAndParameters() throws {
        try shop.keywords.insert(Keywords(default: 1, class: "a", protocol: "p"))
        try shop.keywords.insert(Keywords(default: 2, class: "a", self_check: false))
        try shop.keywords.insert(Keywords(default: 3, class: "b"))
        let rows = try shop.keywordsOfClass(class: "a", default: 0)
        #expect(
            rows == [
                .init(default: 1, protocol: "p", self_check: true), .init(default: 2, protocol: nil, self_check: false),
            ])
        #expect(try shop.keywordsOfClass(class: "a", default: 2).map(\.default) == [2])
    }

    /// One live-query type for every shape of query: a named query's rows, a join along a
    /// reference, a grouped aggregate.
    @Test @MainActor @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    func joinsAggregatesAndNamedQueriesAreLive() async throws {
        let shop = self.shop
        let named = shop.live { try $0.customersWithOrders() }
        let joined = shop.live { try $0.orders.fetchAll(joining: Customer.self, on: \.customer) }
        let perStatus = shop.live { try $0.orders.count(groupedBy: { $0.status }) }
        #expect(named.value.map(\.orders) == [2, 0])
        #expect(joined.value.count == 2)
        #expect(perStatus.value.map(\.value) == [1, 1])

        try shop.orders.insert(Order(id: UUID(), customer: try #require(bob.id), status: .placed, total: 3))
        for _ in 0..<500 {
            if named.value.map(\.orders) == [2, 1] && joined.value.count == 3 && perStatus.value.map(\.value) == [1, 2]
            {
                break
            }
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(named.value.map(\.orders) == [2, 1])
        #expect(joined.value.map(\.partner.name).sorted() == ["ada", "ada", "bob"])
        #expect(perStatus.value.map(\.key) == [.draft, .placed])
        #expect(perStatus.value.map(\.value) == [1, 2])
    }

    @Test func aDeclaredParameterTypeAndRecordsOfAnEntity() throws {
        let since: [Customer] = try shop.customersJoinedSince(since: Date(timeIntervalSinceReferenceDate: 150))
        #expect(since == [bob])
        #expect(try shop.read { try $0.customersJoinedSince(since: .distantPast) } == [ada, bob])
    }
}
