import Foundation
import MyTODO
import StrataSQLite
import Testing

/// The TODO app's named queries (Schemas/MyTODO/queries/items.sql), generated into typed
/// functions of `MyTODODatabase` and `MyTODOAccess` on SQLite and of `MyTODOPostgresDatabase` and
/// `MyTODOPostgresAccess` on PostgreSQL, with the same bodies on both (the test server's
/// PostgreSQL; see `withTODOItems`).
@Suite("TODO app: named queries")
struct NamedQueryTests {
    private static let seed = [
        TODOItem(title: "Open low", detail: "a", isDone: false, priority: .low),
        TODOItem(title: "Open highest", detail: "b", isDone: false, priority: .highest),
        TODOItem(title: "Done high", detail: "c", isDone: true, priority: .high),
        TODOItem(title: "Another open low", detail: "d", isDone: false, priority: .low),
    ]

    /// Runs `body` on a new TODO store of `backend` holding ``seed``.
    private static func withSeeded(
        _ backend: TODOBackend, _ body: @Sendable (any TODOItems) async throws -> Void
    ) async throws {
        try await withTODOItems(backend) { items in
            try await items.insert(contentsOf: seed)
            try await body(items)
        }
    }

    @Test(arguments: TODOBackend.allCases)
    func filteredItemsIsTheViewModelsList(_ backend: TODOBackend) async throws {
        try await Self.withSeeded(backend) { items in
            let open = try await items.filteredItems(isDone: false)
            #expect(open.map(\.title) == ["Open highest", "Another open low", "Open low"])
            #expect(try await items.filteredItems(isDone: true).map(\.title) == ["Done high"])
            // The same records as the repository's typed fetch, read the same way (UUID, Bool, enum).
            let fetched = try await items.fetchAll(
                where: { $0.isDone == false }, orderBy: { [$0.priority.descending, $0.title.ascending] })
            #expect(open == fetched)
            #expect(Set(open.map(\.id)) == Set(Self.seed.filter { !$0.isDone }.map(\.id)))
        }
    }

    @Test(arguments: TODOBackend.allCases)
    func rowsOfAnAggregateAreTyped(_ backend: TODOBackend) async throws {
        try await withTODOItems(backend) { items in
            #expect(try await items.openCountsByPriority().isEmpty)
            try await items.insert(contentsOf: Self.seed)
            let counts: [MyTODOQueries.OpenCountsByPriorityRow] = try await items.openCountsByPriority()
            #expect(counts == [.init(priority: .highest, count: 1), .init(priority: .low, count: 2)])
        }
    }

    @Test(arguments: TODOBackend.allCases)
    func valuesAreBoundNeverSpliced(_ backend: TODOBackend) async throws {
        try await Self.withSeeded(backend) { items in
            let hostile = "x' OR '1'='1"
            let stored = try await items.insert(TODOItem(title: hostile, detail: "e"))
            let found = try await items.search(pattern: hostile, limit: 10)
            #expect(found == [.init(id: stored.id, title: hostile, note: "e")])
            #expect(try await items.search(pattern: "%en%", limit: 10).map(\.note) == ["d", "b", "a"])
            #expect(try await items.search(pattern: "%en%", limit: 1).count == 1)
            // LIKE ignores ASCII case on SQLite and matches it on PostgreSQL.
            #expect(try await items.search(pattern: "%OPEN%", limit: 10).count == (backend == .sqlite ? 3 : 0))
            #expect(try await items.count() == 5)
        }
    }

    @Test(arguments: TODOBackend.allCases)
    func aWritingQueryRunsInATransactionAndCountsItsChanges(_ backend: TODOBackend) async throws {
        try await Self.withSeeded(backend) { items in
            #expect(try await items.markAllDone(priority: .low) == 2)
            #expect(try await items.markAllDone(priority: .low) == 0)
            #expect(try await items.filteredItems(isDone: false).map(\.title) == ["Open highest"])
            // On one connection, inside the caller's transaction: rolled back with it.
            do {
                try await items.markAllDoneThenRollBack(priority: .highest)
                Issue.record("the transaction should have thrown")
            } catch let error as RolledBack {
                #expect(error.openItems.isEmpty)
            }
            #expect(try await items.filteredItems(isDone: false).map(\.title) == ["Open highest"])
        }
    }

    @Test func namedQueriesAreObservable() async throws {
        let db = try MyTODODatabase.inMemory()
        try db.todoItems.insert(contentsOf: Self.seed)
        var values = db.observe { try $0.openCountsByPriority() }.makeAsyncIterator()
        #expect(try await values.next()?.map(\.count) == [1, 2])
        try db.todoItems.insert(TODOItem(title: "New", priority: .highest))
        #expect(try await values.next()?.map(\.count) == [2, 2])
    }
}
