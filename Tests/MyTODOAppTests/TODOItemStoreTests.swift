import Foundation
import MyTODO
import StrataSQLite
import Testing

/// The TODO app's model tests (`Model_Tests` of the tutorial), on the generated MyTODO code
/// instead of Core Data, with the same bodies on SQLite (`MyTODODatabase.inMemory()`, the app's
/// `TestWithInMemory` store) and on PostgreSQL (`MyTODOPostgresDatabase` on the test server).
@Suite("TODO app: the store")
struct TODOItemStoreTests {
    @discardableResult
    private static func createTODOItem(
        _ items: any TODOItems,
        _ title: String,
        _ detail: String,
        _ isDone: Bool,
        _ priority: Priority
    ) async throws -> TODOItem {
        try await items.insert(TODOItem(title: title, detail: detail, isDone: isDone, priority: priority))
    }

    @Test("test_createItem_newItem_withCorrectValues", arguments: TODOBackend.allCases)
    func createItem(_ backend: TODOBackend) async throws {
        try await withTODOItems(backend) { items in
            #expect(try await items.count() == 0)
            let created = try await Self.createTODOItem(items, "Item Title", "item detail", false, .high)
            #expect(try await items.count() == 1)

            let item = try #require(try await items.fetchAll().first)
            #expect(item.id == created.id)
            #expect(item.title == "Item Title")
            #expect(item.detail == "item detail")
            #expect(item.isDone == false)
            #expect(item.priority == .high)
            #expect(try await items.find(id: created.id) == created)
        }
    }

    @Test("test_removeItem_existingItem_shouldBeVanished", arguments: TODOBackend.allCases)
    func removeItem(_ backend: TODOBackend) async throws {
        try await withTODOItems(backend) { items in
            try await Self.createTODOItem(items, "Item Title", "item detail", false, .middle)
            #expect(try await items.count() == 1)
            let item = try #require(try await items.fetchAll().first)
            #expect(try await items.delete(item))
            #expect(try await items.count() == 0)
            #expect(try await items.delete(item) == false)
        }
    }

    @Test("test_variousSort_PriorityOrName_sortAccordingly", arguments: TODOBackend.allCases)
    func variousSort(_ backend: TODOBackend) async throws {
        try await withTODOItems(backend) { items in
            try await Self.createTODOItem(items, "Middle", "Middle", false, .middle)
            try await Self.createTODOItem(items, "Low", "Low", false, .low)
            try await Self.createTODOItem(items, "Highest", "Highest", false, .highest)

            let sortedWithPrio = try await items.fetchAll(orderBy: { [$0.priority.descending, $0.title.ascending] })
            #expect(sortedWithPrio.map(\.title) == ["Highest", "Middle", "Low"])

            let sortedWithTitle = try await items.fetchAll(orderBy: { [$0.title.ascending, $0.priority.descending] })
            #expect(sortedWithTitle.map(\.title) == ["Highest", "Low", "Middle"])
        }
    }

    @Test("the view model's filter: isDone == false, then isDone == true", arguments: TODOBackend.allCases)
    func filterByIsDone(_ backend: TODOBackend) async throws {
        try await withTODOItems(backend) { items in
            try await Self.createTODOItem(items, "Open 1", "", false, .low)
            try await Self.createTODOItem(items, "Done", "", true, .high)
            try await Self.createTODOItem(items, "Open 2", "", false, .highest)

            let undone = try await items.fetchAll(
                where: { $0.isDone == false },
                orderBy: { [$0.priority.descending, $0.title.ascending] }
            )
            #expect(undone.map(\.title) == ["Open 2", "Open 1"])
            let done = try await items.fetchAll(where: { $0.isDone == true })
            #expect(done.map(\.title) == ["Done"])
        }
    }

    @Test(
        "updateChanges(item) { … } writes the changed fields only",
        arguments: TODOBackend.allCases)
    func updateChosenFields(_ backend: TODOBackend) async throws {
        try await withTODOItems(backend) { items in
            let item = try await Self.createTODOItem(items, "Title", "Detail", false, .low)
            let updated = try await items.updateChanges(item) {
                $0.title = "New title"
                $0.isDone = true
            }
            #expect(updated == TODOItem(id: item.id, title: "New title", detail: "Detail", isDone: true, priority: .low))
            #expect(try await items.find(id: item.id) == updated)

            // From the stale copy: the title stored meanwhile is kept.
            let again = try await items.updateChanges(item) {
                $0.detail = "New detail"
                $0.priority = .highest
            }
            #expect(again?.title == "New title")
            #expect(again?.detail == "New detail")
            #expect(again?.priority == .highest)
            #expect(
                try await items.updateChanges(TODOItem(title: "not stored")) { $0.title = "x" } == nil)
            // Nothing changed: nothing written, the stored record returned.
            #expect(try await items.updateChanges(item) { _ in } == again)
        }
    }

    @Test(
        "a raw value 9 stored in priority (by another version of the app) reads back as .middle",
        arguments: TODOBackend.allCases)
    func unknownPriorityReadsAsMiddle(_ backend: TODOBackend) async throws {
        try await withTODOItems(backend) { items in
            let item = try await Self.createTODOItem(items, "Odd", "", false, .high)
            try await items.storeRawPriority(9)
            #expect(try await items.find(id: item.id)?.priority == .middle)
            #expect(try await items.fetchAll().map(\.priority) == [.middle])
        }
    }

    @Test(
        "whole-record update, upsert, exists, limit and offset, delete by key and by filter",
        arguments: TODOBackend.allCases)
    func otherOperations(_ backend: TODOBackend) async throws {
        try await withTODOItems(backend) { items in
            var item = try await Self.createTODOItem(items, "A", "", false, .low)
            item.detail = "changed"
            #expect(try await items.update(item))
            #expect(try await items.find(id: item.id)?.detail == "changed")
            #expect(try await items.update(TODOItem(title: "missing")) == false)

            let upserted = TODOItem(title: "B", priority: .high)
            try await items.upsert(upserted)
            var replaced = upserted
            replaced.title = "B2"
            try await items.upsert(replaced)
            #expect(try await items.count() == 2)
            #expect(try await items.find(id: upserted.id)?.title == "B2")

            try await items.insert(contentsOf: (0..<5).map { TODOItem(title: "C\($0)", isDone: $0 % 2 == 0) })
            #expect(try await items.exists(where: { $0.title.like("C%") }))
            #expect(try await items.exists(where: { $0.title == "nope" }) == false)
            let page = try await items.fetchAll(
                where: { $0.title.like("C%") },
                orderBy: { [$0.title.descending] },
                limit: 2,
                offset: 1
            )
            #expect(page.map(\.title) == ["C3", "C2"])
            #expect(try await items.fetchOne(orderBy: { [$0.title.ascending] })?.title == "A")
            #expect(try await items.count(where: { $0.priority.in([.high, .highest]) }) == 1)
            #expect(try await items.delete(id: item.id))
            #expect(try await items.deleteAll(where: { $0.isDone == true && $0.title.like("C%") }) == 3)
            #expect(try await items.updateAll(where: { $0.title.like("C%") }, set: { [$0.isDone.set(true)] }) == 2)
            #expect(try await items.count(where: { !($0.isDone == true) }) == 1)
        }
    }

    @Test("several operations in one transaction, rolled back together on error", arguments: TODOBackend.allCases)
    func transactions(_ backend: TODOBackend) async throws {
        struct Abort: Error {}
        try await withTODOItems(backend) { items in
            await #expect(throws: Abort.self) {
                try await items.write(inserting: [TODOItem(title: "rolled back")], thenThrow: Abort())
            }
            #expect(try await items.count() == 0)
            let count = try await items.write(inserting: [TODOItem(title: "kept")], thenThrow: nil)
            #expect(count == 1)
        }
    }

    @Test("observation: the undone items, sorted, follow inserts and updates as an AsyncSequence")
    func observation() async throws {
        let database = try MyTODODatabase.inMemory()
        let observed = database.todoItems.observeAll(
            where: { $0.isDone == false },
            orderBy: { [$0.priority.descending, $0.title.ascending] }
        )
        var iterator = observed.makeAsyncIterator()
        #expect(try await iterator.next() == [])

        let item = try database.todoItems.insert(TODOItem(title: "First", priority: .low))
        #expect(try await iterator.next()?.map(\.title) == ["First"])

        try await database.write { access in
            _ = try access.todoItems.insert(TODOItem(title: "Second", priority: .highest))
        }
        #expect(try await iterator.next()?.map(\.title) == ["Second", "First"])

        try database.todoItems.updateChanges(item) { $0.isDone = true }
        #expect(try await iterator.next()?.map(\.title) == ["Second"])

        // A batch insert steps most rows directly and reports its changes once: still observed.
        try database.todoItems.insert(contentsOf: ["Third", "Fourth", "Fifth"].map { TODOItem(title: $0) })
        #expect(try await iterator.next()?.map(\.title) == ["Second", "Fifth", "Fourth", "Third"])
    }
}
