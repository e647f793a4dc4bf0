import Foundation
import MyTODO
import Observation
import StrataSQLite
import Testing

/// The TODO app's store rebuilt on `StrataLiveQuery`: the `ObservableObject` whose `items`
/// followed Core Data becomes a plain object holding live queries, which a SwiftUI view reads
/// directly (`store.items.value`); every change is a repository call, and the lists follow along.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
@MainActor
final class LiveTODOStore {
    let database: MyTODODatabase
    /// The list the view shows: the `filteredItems` named query, open items by default.
    let items: StrataLiveQuery<[TODOItem]>
    /// How many items are open: a repository count, live too.
    let openCount: StrataLiveQuery<Int>

    init(database: MyTODODatabase) {
        self.database = database
        items = database.live { try $0.filteredItems(isDone: false) }
        openCount = database.live(initial: 0) { try $0.todoItems.count(where: { $0.isDone == false }) }
    }

    func create(_ title: String, priority: Priority) throws {
        try database.todoItems.insert(TODOItem(title: title, priority: priority))
    }

    func toggle(_ item: TODOItem) throws {
        try database.todoItems.updateChanges(item) { $0.isDone.toggle() }
    }

    func delete(_ item: TODOItem) throws {
        try database.todoItems.delete(item)
    }

    /// Shows the done items instead of the open ones (or back).
    func show(done: Bool) {
        items.replace { try MyTODOAccess($0).filteredItems(isDone: done) }
    }
}

@Suite("TODO app: the store on live queries")
@MainActor
struct LiveStoreTests {
    /// Waits (letting the main actor run) until `condition` holds, for at most five seconds.
    private func eventually(
        _ what: String, sourceLocation: SourceLocation = #_sourceLocation, _ condition: () -> Bool
    ) async throws {
        for _ in 0..<500 {
            if condition() { return }
            try await Task.sleep(for: .milliseconds(10))
        }
        Issue.record("timed out waiting until \(what)", sourceLocation: sourceLocation)
    }

    @Test @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    func theListFollowsCreateToggleAndDelete() async throws {
        let store = LiveTODOStore(database: try MyTODODatabase.inMemory())
        // The first value is read when the live query is made.
        #expect(store.items.value.isEmpty)
        #expect(store.items.error == nil)

        try store.create("Buy milk", priority: .middle)
        try await eventually("the item is listed") { store.items.value.map(\.title) == ["Buy milk"] }
        try store.create("Call mom", priority: .highest)
        try store.create("Answer mail", priority: .middle)
        // Each live query refreshes on its own: the count may follow the list a moment later.
        try await eventually("sorted by priority then title, and counted") {
            store.items.value.map(\.title) == ["Call mom", "Answer mail", "Buy milk"] && store.openCount.value == 3
        }

        let call = try #require(store.items.value.first)
        try store.toggle(call)
        try await eventually("a done item leaves the open list") {
            store.items.value.map(\.title) == ["Answer mail", "Buy milk"] && store.openCount.value == 2
        }

        store.show(done: true)
        // A replaced query is read at once.
        #expect(store.items.value.map(\.title) == ["Call mom"])
        let done = try #require(store.items.value.first)
        try store.toggle(done)
        try await eventually("toggled back, it leaves the done list") { store.items.value.isEmpty }
        store.show(done: false)
        #expect(store.items.value.map(\.title) == ["Call mom", "Answer mail", "Buy milk"])

        try store.delete(try #require(store.items.value.last))
        try await eventually("a deleted item leaves the list") {
            store.items.value.map(\.title) == ["Call mom", "Answer mail"] && store.openCount.value == 2
        }
    }

    @Test @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    func oneRecordFollowsItsUpdatesAndItsDeletion() async throws {
        let db = try MyTODODatabase.inMemory()
        let item = try db.todoItems.insert(TODOItem(title: "Buy milk"))
        let live = db.live(initial: nil) { try $0.todoItems.find(id: item.id) }
        #expect(live.value == item)
        try db.todoItems.updateChanges(item) { $0.title = "Buy oat milk" }
        try await eventually("the update is seen") { live.value?.title == "Buy oat milk" }
        try db.todoItems.delete(item)
        try await eventually("the deletion is seen") { live.value == nil }
    }

    @Test @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    func observationTracksReadsOfTheValue() async throws {
        let store = LiveTODOStore(database: try MyTODODatabase.inMemory())
        let changed = Changed()
        withObservationTracking {
            _ = store.items.value
        } onChange: {
            changed.set()
        }
        try store.create("Buy milk", priority: .middle)
        try await eventually("a view reading the value is told it changed") { changed.value }
    }

    @Test @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    func aFailedRefreshIsExposedAndTheNextOneClearsIt() async throws {
        struct TwoItems: Error {}
        let db = try MyTODODatabase.inMemory()
        let count = db.live(initial: -1) { access in
            let count = try access.todoItems.count()
            if count == 2 { throw TwoItems() }
            return count
        }
        #expect(count.value == 0)
        try db.todoItems.insert(TODOItem(title: "One"))
        try await eventually("one item") { count.value == 1 }
        try db.todoItems.insert(TODOItem(title: "Two"))
        try await eventually("the error of the failed refresh") { count.error is TwoItems }
        #expect(count.value == 1, "the last good value stays")
        try db.todoItems.insert(TODOItem(title: "Three"))
        try await eventually("the next refresh succeeds and clears the error") {
            count.value == 3 && count.error == nil
        }
    }

    @Test @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    func aReleasedLiveQueryStopsObserving() async throws {
        let db = try MyTODODatabase.inMemory()
        let reads = Counter()
        weak var released: StrataLiveQuery<Int>?
        do {
            let live = db.live(initial: 0) { access in
                reads.increment()
                return try access.todoItems.count()
            }
            released = live
            try db.todoItems.insert(TODOItem(title: "One"))
            try await eventually("observing") { live.value == 1 }
        }
        #expect(released == nil, "nothing but its owner keeps a live query")
        let before = reads.value
        try db.todoItems.insert(TODOItem(title: "Two"))
        try await Task.sleep(for: .milliseconds(200))
        #expect(reads.value == before, "no read after release")
    }

    @Test @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    func cancelStopsFollowing() async throws {
        let db = try MyTODODatabase.inMemory()
        let live = db.live { try $0.filteredItems(isDone: false) }
        live.cancel()
        try db.todoItems.insert(TODOItem(title: "One"))
        try await Task.sleep(for: .milliseconds(200))
        #expect(live.value.isEmpty)
    }
}

/// A flag set from any thread.
private final class Changed: @unchecked Sendable {
    private let lock = NSLock()
    private var flag = false
    var value: Bool { lock.withLock { flag } }
    func set() { lock.withLock { flag = true } }
}

/// A counter incremented from any thread.
private final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    var value: Int { lock.withLock { count } }
    func increment() { lock.withLock { count += 1 } }
}
