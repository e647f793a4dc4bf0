import Foundation
import MyTODO
import StrataSQLite
import Testing

/// The TODO app's named queries (Schemas/MyTODO/queries/items.sql), generated into typed
/// functions of `MyTODODatabase` and `MyTODOAccess`, run on SQLite.
@Suite("TODO app: named queries")
struct NamedQueryTests {
    private static func seeded() throws -> MyTODODatabase {
        let db = try MyTODODatabase.inMemory()
        try db.todoItems.insert(contentsOf: [
            TODOItem(title: "Open low", detail: "a", isDone: false, priority: .low),
            TODOItem(title: "Open highest", detail: "b", isDone: false, priority: .highest),
            TODOItem(title: "Done high", detail: "c", isDone: true, priority: .high),
            TODOItem(title: "Another open low", detail: "d", isDone: false, priority: .low),
        ])
        return db
    }

    @Test func filteredItemsIsTheViewModelsList() throws {
        let db = try Self.seeded()
        #expect(try db.filteredItems(isDone: false).map(\.title) == ["Open highest", "Another open low", "Open low"])
        #expect(try db.filteredItems(isDone: true).map(\.title) == ["Done high"])
        // The same rows as the repository's typed fetch.
        let fetched = try db.todoItems.fetchAll(
            where: { $0.isDone == false }, orderBy: { [$0.priority.descending, $0.title.ascending] })
        #expect(try db.filteredItems(isDone: false) == fetched)
    }

    @Test func rowsOfAnAggregateAreTyped() throws {
        let db = try Self.seeded()
        let counts: [OpenCountsByPriorityRow] = try db.openCountsByPriority()
        #expect(counts == [.init(priority: .highest, count: 1), .init(priority: .low, count: 2)])
        let empty = try MyTODODatabase.inMemory()
        #expect(try empty.openCountsByPriority().isEmpty)
    }

    @Test func valuesAreBoundNeverSpliced() throws {
        let db = try Self.seeded()
        let hostile = "x' OR '1'='1"
        try db.todoItems.insert(TODOItem(title: hostile, detail: "e"))
        #expect(try db.search(pattern: hostile, limit: 10).map(\.title) == [hostile])
        #expect(try db.search(pattern: "%open%", limit: 10).map(\.note) == ["d", "b", "a"])
        #expect(try db.search(pattern: "%open%", limit: 1).count == 1)
        #expect(try db.todoItems.count() == 5)
    }

    @Test func aWritingQueryRunsInATransactionAndCountsItsChanges() throws {
        let db = try Self.seeded()
        #expect(try db.markAllDone(priority: .low) == 2)
        #expect(try db.markAllDone(priority: .low) == 0)
        #expect(try db.filteredItems(isDone: false).map(\.title) == ["Open highest"])
        // On one connection, inside the caller's transaction: rolled back with it.
        struct Undo: Error {}
        #expect(throws: Undo.self) {
            try db.write { access in
                try access.markAllDone(priority: .highest)
                #expect(try access.filteredItems(isDone: false).isEmpty)
                throw Undo()
            }
        }
        #expect(try db.filteredItems(isDone: false).map(\.title) == ["Open highest"])
    }

    @Test func namedQueriesAreObservable() async throws {
        let db = try Self.seeded()
        var values = db.observe { try $0.openCountsByPriority() }.makeAsyncIterator()
        #expect(try await values.next()?.map(\.count) == [1, 2])
        try db.todoItems.insert(TODOItem(title: "New", priority: .highest))
        #expect(try await values.next()?.map(\.count) == [2, 2])
    }
}
