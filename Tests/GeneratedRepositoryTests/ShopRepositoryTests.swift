import Foundation
import GRDB
import StrataSQLite
import Testing

/// The generated repositories of the Shop fixture model: autoincremented keys, references and
/// to-many accessors, a composite key, a string enum without `unknown`, keyword names.
@Suite("Generated repositories: Shop")
struct ShopRepositoryTests {
    let shop: ShopDatabase

    init() throws {
        shop = try ShopDatabase.inMemory()
    }

    private func customer(_ name: String) throws -> Customer {
        try shop.customers.insert(
            Customer(name: name, email: "\(name)@example.com", joined: Date(timeIntervalSince1970: 1_000))
        )
    }

    @Test("insert returns the record with its autoincremented key")
    func autoincrement() throws {
        let ada = try customer("ada")
        let bob = try customer("bob")
        #expect(ada.id == 1)
        #expect(bob.id == 2)
        #expect(try shop.customers.find(id: 2) == bob)
        let many = try shop.customers.insert(contentsOf: [
            Customer(name: "c", email: "c@x", joined: Date()),
            Customer(name: "d", email: "d@x", joined: Date()),
        ])
        #expect(many.map(\.id) == [3, 4])
        // An autoincremented record without a key is inserted by upsert, and cannot be updated.
        let upserted = try shop.customers.upsert(Customer(name: "e", email: "e@x", joined: Date()))
        #expect(upserted.id == 5)
        #expect(try shop.customers.update(Customer(name: "f", email: "f@x", joined: Date())) == false)
    }

    @Test("a batch insert is all or nothing, inside or outside a transaction")
    func batchIsAtomic() throws {
        let batch = [
            Customer(name: "a", email: "same@x", joined: Date()),
            Customer(name: "b", email: "other@x", joined: Date()),
            Customer(name: "c", email: "same@x", joined: Date()),
        ]
        #expect(throws: DatabaseError.self) { try shop.customers.insert(contentsOf: batch) }
        #expect(try shop.customers.count() == 0)
        #expect(throws: DatabaseError.self) {
            try shop.writer.writeWithoutTransaction { db in try SQLiteAccess<Customer>(db).insert(contentsOf: batch) }
        }
        #expect(try shop.customers.count() == 0)
        let stored = try shop.customers.insert(contentsOf: batch.dropLast())
        #expect(stored.map(\.id) == [1, 2])
    }

    @Test("optional fields store NULL, and the field update can set and clear them")
    func optionalFields() throws {
        let ada = try customer("ada")
        #expect(ada.nickname == nil)
        #expect(try shop.customers.count(where: { $0.nickname.isNull }) == 1)
        let named = try shop.customers.updateChanges(ada) { $0.nickname = "A" }
        #expect(named?.nickname == "A")
        #expect(try shop.customers.fetchOne(where: { $0.nickname == "A" })?.id == ada.id)
        // Compared with the record given: from `ada` (nickname nil), setting nil changes nothing.
        #expect(try shop.customers.updateChanges(ada) { $0.nickname = nil }?.nickname == "A")
        let cleared = try shop.customers.updateChanges(try #require(named)) { $0.nickname = nil }
        #expect(cleared?.nickname == nil)
        // `update(record)` with its result unused is the whole-record update, not the deprecated
        // chosen-fields one with every field left out (which wrote nothing).
        var renamed = try #require(cleared)
        renamed.name = "ada l."
        _ = try shop.customers.update(renamed)
        #expect(try shop.customers.find(id: try #require(ada.id))?.name == "ada l.")
        #expect(try shop.customers.count(where: { $0.nickname.isNotNull }) == 0)
    }

    @Test("a reference reads its record; hasMany reads the records that refer to one")
    func relations() throws {
        let ada = try customer("ada")
        let bob = try customer("bob")
        let first = try shop.orders.insert(Order(customer: try #require(ada.id), total: Decimal(string: "10.50")!))
        let second = try shop.orders.insert(Order(customer: try #require(ada.id), status: .shipped, note: "fragile"))
        try shop.orders.insert(Order(customer: try #require(bob.id)))

        #expect(try shop.orders.customer(of: first) == ada)
        let adaOrders = try shop.customers.orders(of: ada, orderBy: { [$0.status.ascending] })
        #expect(adaOrders.map(\.id) == [first.id, second.id])
        #expect(try shop.customers.orders(of: ada, where: { $0.status == .shipped }) == [second])
        #expect(try shop.orders.find(id: first.id)?.total == Decimal(string: "10.5"))

        try shop.orderLines.insert(contentsOf: [
            OrderLine(order: first.id, position: 2, quantity: 5),
            OrderLine(order: first.id, position: 1, size: .small, payload: Data([1, 2, 3])),
        ])
        let lines = try shop.orders.lines(of: first, orderBy: { [$0.position.ascending] })
        #expect(lines.map(\.position) == [1, 2])
        #expect(lines[0].payload == Data([1, 2, 3]))
        #expect(lines[1].size == .large)
        #expect(try shop.orderLines.order(of: lines[0]) == first)

        // onDelete: cascade, through the foreign keys GRDB enables.
        #expect(try shop.customers.delete(ada))
        #expect(try shop.orders.count() == 1)
        #expect(try shop.orderLines.count() == 0)
    }

    @Test("a composite primary key: find, update, delete by both fields")
    func compositeKey() throws {
        let ada = try customer("ada")
        let order = try shop.orders.insert(Order(customer: try #require(ada.id)))
        let line = try shop.orderLines.insert(OrderLine(order: order.id, position: 1))
        #expect(try shop.orderLines.find(order: order.id, position: 1) == line)
        #expect(try shop.orderLines.find(order: order.id, position: 2) == nil)
        let heavier = try shop.orderLines.update(order: order.id, position: 1, set: { [$0.weight.set(9.5)] })
        #expect(heavier?.weight == 9.5)
        var changed = line
        changed.quantity = 7
        #expect(try shop.orderLines.update(changed))
        #expect(try shop.orderLines.upsert(OrderLine(order: order.id, position: 1, quantity: 8)).quantity == 8)
        #expect(try shop.orderLines.find(order: order.id, position: 1)?.quantity == 8)
        #expect(try shop.orderLines.delete(order: order.id, position: 1))
        #expect(try shop.orderLines.exists() == false)
    }

    @Test("an unknown raw value of an enum without an unknown case is a clear error")
    func unknownEnumValue() throws {
        let ada = try customer("ada")
        let order = try shop.orders.insert(Order(customer: try #require(ada.id)))
        try shop.writer.write { db in
            try db.execute(sql: "PRAGMA ignore_check_constraints = ON")
            try db.execute(sql: #"UPDATE "order" SET "status" = 'lost'"#)
        }
        #expect(throws: StrataDecodingError.unknownEnumValue(column: "status", type: "Status", rawValue: "lost")) {
            try shop.orders.find(id: order.id)
        }
    }

    @Test("keyword names work as fields, keys and columns")
    func keywords() throws {
        let row = try shop.keywords.insert(Keywords(default: 1, class: "c", protocol: nil, self_check: false))
        #expect(try shop.keywords.find(default: 1) == row)
        #expect(try shop.keywords.fetchAll(where: { $0.class == "c" && $0.self_check == false }) == [row])
        let changed = try shop.keywords.updateChanges(row) { $0.protocol = "p" }
        #expect(changed?.protocol == "p")
        #expect(try shop.keywords.delete(default: 1))
    }

    @Test("filters on dates, decimals and booleans; sorts on several keys")
    func filtersAndSorts() throws {
        try shop.customers.insert(contentsOf: [
            Customer(name: "b", email: "b@x", joined: Date(timeIntervalSince1970: 300), isVIP: true),
            Customer(name: "a", email: "a@x", joined: Date(timeIntervalSince1970: 100)),
            Customer(name: "c", email: "c@x", joined: Date(timeIntervalSince1970: 200), isVIP: true),
        ])
        let recent = try shop.customers.fetchAll(
            where: { $0.joined >= Date(timeIntervalSince1970: 200) },
            orderBy: { [$0.name.descending] }
        )
        #expect(recent.map(\.name) == ["c", "b"])
        let vipFirst = try shop.customers.fetchAll(orderBy: { [$0.isVIP.descending, $0.joined.ascending] })
        #expect(vipFirst.map(\.name) == ["c", "b", "a"])
        #expect(try shop.customers.count(where: { $0.email.like("%@x") || $0.name == "z" }) == 3)
        #expect(try shop.customers.updateAll(where: { $0.isVIP == false }, set: { [$0.isVIP.set(true)] }) == 1)
        #expect(try shop.customers.deleteAll() == 3)
    }

    @Test("reads and writes from Swift concurrency")
    func concurrency() async throws {
        let shop = self.shop
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<10 {
                group.addTask {
                    try await shop.write { access in
                        _ = try access.customers.insert(
                            Customer(name: "n\(index)", email: "\(index)@x", joined: Date())
                        )
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(try await shop.read { access in try access.customers.count() } == 10)
    }
}
