import Foundation
import MyTODO
import StrataSQLite
import Testing

/// The TODO app's model tests (`Model_Tests` of the tutorial), on the generated MyTODO code
/// instead of Core Data. `MyTODODatabase.inMemory()` is the app's `TestWithInMemory` store.
@Suite("TODO app: the store")
struct TODOItemStoreTests {
    let database: MyTODODatabase

    init() throws {
        database = try MyTODODatabase.inMemory()
    }

    @discardableResult
    private func createTODOItem(
        _ title: String,
        _ detail: String,
        _ isDone: Bool,
        _ priority: Priority
    ) throws -> TODOItem {
        try database.todoItems.insert(TODOItem(title: title, detail: detail, isDone: isDone, priority: priority))
    }

    @Test("test_createItem_newItem_withCorrectValues")
    func createItem() throws {
        #expect(try database.todoItems.count() == 0)
        let created = try createTODOItem("Item Title", "item detail", false, .high)
        #expect(try database.todoItems.count() == 1)

        let item = try #require(try database.todoItems.fetchAll().first)
        #expect(item.id == created.id)
        #expect(item.title == "Item Title")
        #expect(item.detail == "item detail")
        #expect(item.isDone == false)
        #expect(item.priority == .high)
        #expect(try database.todoItems.find(id: created.id) == created)
    }

    @Test("test_removeItem_existingItem_shouldBeVanished")
    func removeItem() throws {
        try createTODOItem("Item Title", "item detail", false, .middle)
        #expect(try database.todoItems.count() == 1)
        let item = try #require(try database.todoItems.fetchAll().first)
        #expect(try database.todoItems.delete(item))
        #expect(try database.todoItems.count() == 0)
        #expect(try database.todoItems.delete(item) == false)
    }

    @Test("test_variousSort_PriorityOrName_sortAccordingly")
    func variousSort() throws {
        try createTODOItem("Middle", "Middle", false, .middle)
        try createTODOItem("Low", "Low", false, .low)
        try createTODOItem("Highest", "Highest", false, .highest)

        let sortedWithPrio = try database.todoItems.fetchAll(orderBy: { [$0.priority.descending, $0.title.ascending] })
        #expect(sortedWithPrio.map(\.title) == ["Highest", "Middle", "Low"])

        let sortedWithTitle = try database.todoItems.fetchAll(orderBy: { [$0.title.ascending, $0.priority.descending] })
        #expect(sortedWithTitle.map(\.title) == ["Highest", "Low", "Middle"])
    }

    @Test("the view model's filter: isDone == false, then isDone == true")
    func filterByIsDone() throws {
        try createTODOItem("Open 1", "", false, .low)
        try createTODOItem("Done", "", true, .high)
        try createTODOItem("Open 2", "", false, .highest)

        let undone = try database.todoItems.fetchAll(
            where: { $0.isDone == false },
            orderBy: { [$0.priority.descending, $0.title.ascending] }
        )
        #expect(undone.map(\.title) == ["Open 2", "Open 1"])
        let done = try database.todoItems.fetchAll(where: { $0.isDone == true })
        #expect(done.map(\.title) == ["Done"])
    }

    @Test("updateTODOItem(item, title:, detail:, isDone:, priority:) changes the chosen fields only")
    func updateChosenFields() throws {
        let item = try createTODOItem("Title", "Detail", false, .low)
        let updated = try database.todoItems.update(item, title: "New title", isDone: true)
        #expect(updated == TODOItem(id: item.id, title: "New title", detail: "Detail", isDone: true, priority: .low))
        #expect(try database.todoItems.find(id: item.id) == updated)

        let again = try database.todoItems.update(item, detail: "New detail", priority: .highest)
        #expect(again?.title == "New title")
        #expect(again?.detail == "New detail")
        #expect(again?.priority == .highest)
        #expect(try database.todoItems.update(TODOItem(title: "not stored"), title: "x") == nil)
    }

    @Test("a raw value 9 stored in priority (by another version of the app) reads back as .middle")
    func unknownPriorityReadsAsMiddle() throws {
        let item = try createTODOItem("Odd", "", false, .high)
        try database.writer.write { db in
            // The column's CHECK lists the known raw values; another app version might not have it.
            try db.execute(sql: "PRAGMA ignore_check_constraints = ON")
            try db.execute(sql: #"UPDATE "todo_item" SET "priority" = 9"#)
            try db.execute(sql: "PRAGMA ignore_check_constraints = OFF")
        }
        let raw = try database.writer.read { db in try Int.fetchOne(db, sql: #"SELECT "priority" FROM "todo_item""#) }
        #expect(raw == 9)
        #expect(try database.todoItems.find(id: item.id)?.priority == .middle)
        #expect(try database.todoItems.fetchAll().map(\.priority) == [.middle])
    }

    @Test("whole-record update, upsert, exists, limit and offset, delete by key and by filter")
    func otherOperations() throws {
        var item = try createTODOItem("A", "", false, .low)
        item.detail = "changed"
        #expect(try database.todoItems.update(item))
        #expect(try database.todoItems.find(id: item.id)?.detail == "changed")
        #expect(try database.todoItems.update(TODOItem(title: "missing")) == false)

        let upserted = TODOItem(title: "B", priority: .high)
        try database.todoItems.upsert(upserted)
        var replaced = upserted
        replaced.title = "B2"
        try database.todoItems.upsert(replaced)
        #expect(try database.todoItems.count() == 2)
        #expect(try database.todoItems.find(id: upserted.id)?.title == "B2")

        try database.todoItems.insert(contentsOf: (0..<5).map { TODOItem(title: "C\($0)", isDone: $0 % 2 == 0) })
        #expect(try database.todoItems.exists(where: { $0.title.like("c%") }))
        #expect(try database.todoItems.exists(where: { $0.title == "nope" }) == false)
        let page = try database.todoItems.fetchAll(
            where: { $0.title.like("C%") },
            orderBy: { [$0.title.descending] },
            limit: 2,
            offset: 1
        )
        #expect(page.map(\.title) == ["C3", "C2"])
        #expect(try database.todoItems.fetchOne(orderBy: { [$0.title.ascending] })?.title == "A")
        #expect(try database.todoItems.count(where: { $0.priority.in([.high, .highest]) }) == 1)
        #expect(try database.todoItems.delete(id: item.id))
        #expect(try database.todoItems.deleteAll(where: { $0.isDone == true && $0.title.like("C%") }) == 3)
        #expect(try database.todoItems.updateAll(where: { $0.title.like("C%") }, set: { [$0.isDone.set(true)] }) == 2)
        #expect(try database.todoItems.count(where: { !($0.isDone == true) }) == 1)
    }

    @Test("several operations in one transaction, rolled back together on error")
    func transactions() throws {
        struct Abort: Error {}
        #expect(throws: Abort.self) {
            try database.write { access in
                try access.todoItems.insert(TODOItem(title: "rolled back"))
                throw Abort()
            }
        }
        #expect(try database.todoItems.count() == 0)
        let count = try database.write { access in
            try access.todoItems.insert(TODOItem(title: "kept"))
            return try access.todoItems.count()
        }
        #expect(count == 1)
    }

    @Test("observation: the undone items, sorted, follow inserts and updates as an AsyncSequence")
    func observation() async throws {
        let observed = database.todoItems.observeAll(
            where: { $0.isDone == false },
            orderBy: { [$0.priority.descending, $0.title.ascending] }
        )
        var iterator = observed.makeAsyncIterator()
        #expect(try await iterator.next() == [])

        let item = try createTODOItem("First", "", false, .low)
        #expect(try await iterator.next()?.map(\.title) == ["First"])

        try await database.write { access in
            _ = try access.todoItems.insert(TODOItem(title: "Second", priority: .highest))
        }
        #expect(try await iterator.next()?.map(\.title) == ["Second", "First"])

        try database.todoItems.update(item, isDone: true)
        #expect(try await iterator.next()?.map(\.title) == ["Second"])

        // A batch insert steps most rows directly and reports its changes once: still observed.
        try database.todoItems.insert(contentsOf: ["Third", "Fourth", "Fifth"].map { TODOItem(title: $0) })
        #expect(try await iterator.next()?.map(\.title) == ["Second", "Fifth", "Fourth", "Third"])
    }
}
