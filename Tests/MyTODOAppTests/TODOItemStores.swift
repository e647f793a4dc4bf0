import Foundation
import GRDB
import MyTODO
import PostgresNIO
import StrataPostgres
import StrataSQLite
import StrataTestSupport
import Testing

/// The databases the TODO app's store runs on.
enum TODOBackend: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqlite
    case postgres

    var testDescription: String { rawValue }
}

/// The TODO app's items on one database: the generated repository of that database behind one
/// async interface, so that the store tests run the same bodies on SQLite and PostgreSQL. Each
/// method is the generated API's call of the same name, nothing more.
protocol TODOItems: Sendable {
    typealias Filter = @Sendable (TODOItem.Columns) -> StrataPredicate<TODOItem>
    typealias Order = @Sendable (TODOItem.Columns) -> [StrataOrdering<TODOItem>]

    @discardableResult func insert(_ item: TODOItem) async throws -> TODOItem
    @discardableResult func insert(contentsOf items: [TODOItem]) async throws -> [TODOItem]
    @discardableResult func upsert(_ item: TODOItem) async throws -> TODOItem
    func find(id: UUID) async throws -> TODOItem?
    func fetchAll(where filter: Filter?, orderBy order: Order?, limit: Int?, offset: Int?) async throws -> [TODOItem]
    func fetchOne(orderBy order: Order?) async throws -> TODOItem?
    func count(where filter: Filter?) async throws -> Int
    func exists(where filter: Filter?) async throws -> Bool
    func update(_ item: TODOItem) async throws -> Bool
    func updateChanges(_ item: TODOItem, _ change: (inout TODOItem) -> Void) async throws -> TODOItem?
    func updateAll(where filter: Filter?, set: @Sendable (TODOItem.Columns) -> [StrataAssignment<TODOItem>]) async throws
        -> Int
    func delete(_ item: TODOItem) async throws -> Bool
    func delete(id: UUID) async throws -> Bool
    func deleteAll(where filter: Filter?) async throws -> Int
    /// Inserts `items` in one transaction of the database type (`write`), then throws `failure`
    /// when there is one; returns the count seen inside the transaction.
    func write(inserting items: [TODOItem], thenThrow failure: (any Error)?) async throws -> Int
    /// Stores a raw priority that no case has (as another version of the app might), past the CHECK.
    func storeRawPriority(_ raw: Int16) async throws

    // The named queries of Schemas/MyTODO/queries/items.sql, as the database type runs them
    // (TODONamedQueries.swift).
    func filteredItems(isDone: Bool) async throws -> [TODOItem]
    func openCountsByPriority() async throws -> [MyTODOQueries.OpenCountsByPriorityRow]
    func search(pattern: String, limit: Int) async throws -> [MyTODOQueries.SearchRow]
    @discardableResult func markAllDone(priority: Priority) async throws -> Int
    /// In one transaction of the database type (`write`, through its access type): marks the items
    /// of `priority` done, reads the open items, then throws ``RolledBack`` holding them.
    func markAllDoneThenRollBack(priority: Priority) async throws
}

/// The error that ends the transaction of ``TODOItems/markAllDoneThenRollBack(priority:)``.
struct RolledBack: Error {
    /// The open items the transaction read before it threw.
    var openItems: [TODOItem]
}

extension TODOItems {
    func fetchAll(where filter: Filter? = nil, orderBy order: Order? = nil) async throws -> [TODOItem] {
        try await fetchAll(where: filter, orderBy: order, limit: nil, offset: nil)
    }
    func count() async throws -> Int { try await count(where: nil) }
}

/// Runs `body` on a new, empty, migrated TODO store of `backend`: an in-memory SQLite database, or
/// a new database on the test suite's PostgreSQL server opened through a `PostgresClient`.
func withTODOItems(_ backend: TODOBackend, _ body: @Sendable (any TODOItems) async throws -> Void) async throws {
    switch backend {
    case .sqlite:
        try await body(SQLiteTODOItems(database: try MyTODODatabase.inMemory()))
    case .postgres:
        let server = try await TestPostgresServer.forTest()
        try await server.withDatabase { session in
            let url = session.url
            let client = PostgresClient(
                configuration: .init(
                    host: url.host, port: url.port, username: url.user, password: url.password, database: url.database,
                    tls: .disable))
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { await client.run() }
                defer { group.cancelAll() }
                // Migrates the new database to the latest version, as an app's start-up does.
                try await body(PostgresTODOItems(database: try await MyTODOPostgresDatabase(client: client)))
            }
        }
    }
}

struct SQLiteTODOItems: TODOItems {
    let database: MyTODODatabase
    var items: SQLiteRepository<TODOItem> { database.todoItems }

    func insert(_ item: TODOItem) async throws -> TODOItem { try items.insert(item) }
    func insert(contentsOf items: [TODOItem]) async throws -> [TODOItem] { try self.items.insert(contentsOf: items) }
    func upsert(_ item: TODOItem) async throws -> TODOItem { try items.upsert(item) }
    func find(id: UUID) async throws -> TODOItem? { try items.find(id: id) }
    func fetchAll(where filter: Filter?, orderBy order: Order?, limit: Int?, offset: Int?) async throws -> [TODOItem] {
        try items.fetchAll(where: filter, orderBy: order, limit: limit, offset: offset)
    }
    func fetchOne(orderBy order: Order?) async throws -> TODOItem? { try items.fetchOne(orderBy: order) }
    func count(where filter: Filter?) async throws -> Int { try items.count(where: filter) }
    func exists(where filter: Filter?) async throws -> Bool { try items.exists(where: filter) }
    func update(_ item: TODOItem) async throws -> Bool { try items.update(item) }
    func updateChanges(_ item: TODOItem, _ change: (inout TODOItem) -> Void) async throws -> TODOItem? {
        try items.updateChanges(item, change)
    }
    func updateAll(where filter: Filter?, set: @Sendable (TODOItem.Columns) -> [StrataAssignment<TODOItem>]) async throws
        -> Int
    {
        try items.updateAll(where: filter, set: set)
    }
    func delete(_ item: TODOItem) async throws -> Bool { try items.delete(item) }
    func delete(id: UUID) async throws -> Bool { try items.delete(id: id) }
    func deleteAll(where filter: Filter?) async throws -> Int { try items.deleteAll(where: filter) }
    func write(inserting items: [TODOItem], thenThrow failure: (any Error)?) async throws -> Int {
        try await database.write { access in
            try access.todoItems.insert(contentsOf: items)
            if let failure { throw failure }
            return try access.todoItems.count()
        }
    }
    func storeRawPriority(_ raw: Int16) async throws {
        try await database.writer.write { db in
            try db.execute(sql: "PRAGMA ignore_check_constraints = ON")
            try db.execute(sql: #"UPDATE "todo_item" SET "priority" = ?"#, arguments: [raw])
            try db.execute(sql: "PRAGMA ignore_check_constraints = OFF")
        }
    }
}

struct PostgresTODOItems: TODOItems {
    let database: MyTODOPostgresDatabase
    var items: PostgresRepository<TODOItem> { database.todoItems }

    func insert(_ item: TODOItem) async throws -> TODOItem { try await items.insert(item) }
    func insert(contentsOf items: [TODOItem]) async throws -> [TODOItem] {
        try await self.items.insert(contentsOf: items)
    }
    func upsert(_ item: TODOItem) async throws -> TODOItem { try await items.upsert(item) }
    func find(id: UUID) async throws -> TODOItem? { try await items.find(id: id) }
    func fetchAll(where filter: Filter?, orderBy order: Order?, limit: Int?, offset: Int?) async throws -> [TODOItem] {
        try await items.fetchAll(where: filter, orderBy: order, limit: limit, offset: offset)
    }
    func fetchOne(orderBy order: Order?) async throws -> TODOItem? { try await items.fetchOne(orderBy: order) }
    func count(where filter: Filter?) async throws -> Int { try await items.count(where: filter) }
    func exists(where filter: Filter?) async throws -> Bool { try await items.exists(where: filter) }
    func update(_ item: TODOItem) async throws -> Bool { try await items.update(item) }
    func updateChanges(_ item: TODOItem, _ change: (inout TODOItem) -> Void) async throws -> TODOItem? {
        try await items.updateChanges(item, change)
    }
    func updateAll(where filter: Filter?, set: @Sendable (TODOItem.Columns) -> [StrataAssignment<TODOItem>]) async throws
        -> Int
    {
        try await items.updateAll(where: filter, set: set)
    }
    func delete(_ item: TODOItem) async throws -> Bool { try await items.delete(item) }
    func delete(id: UUID) async throws -> Bool { try await items.delete(id: id) }
    func deleteAll(where filter: Filter?) async throws -> Int { try await items.deleteAll(where: filter) }
    func write(inserting items: [TODOItem], thenThrow failure: (any Error)?) async throws -> Int {
        try await database.write { access in
            try await access.todoItems.insert(contentsOf: items)
            if let failure { throw failure }
            return try await access.todoItems.count()
        }
    }
    func storeRawPriority(_ raw: Int16) async throws {
        try await database.write { access in
            let logger = StrataPostgresLog.logger
            try await access.connection.query(#"ALTER TABLE "todo_item" DROP CONSTRAINT "todo_item_priority_check""#, logger: logger)
            try await access.connection.query(#"UPDATE "todo_item" SET "priority" = \#(raw)"#, logger: logger)
        }
    }
}
