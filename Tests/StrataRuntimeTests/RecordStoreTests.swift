import Foundation
import GRDB
import StrataSQLite
import Testing

/// A record conformed by hand, as generated code does it: an autoincremented key, an optional
/// column, an enum with an unknown case.
private struct Task: SQLiteRecord, Hashable {
    var id: Int64?
    var title: String
    var note: String?
    var level: Level

    static let strataTable = StrataTable<Task>(
        "task", columns: [(\.id, "id"), (\.title, "title"), (\.note, "note"), (\.level, "level")], primaryKey: ["id"],
        assignsKey: true)

    var strataKey: Int64? { id }

    init(id: Int64? = nil, title: String, note: String? = nil, level: Level = .low) {
        self.id = id
        self.title = title
        self.note = note
        self.level = level
    }

    init(row: inout some StrataRowReader) throws {
        try self.init(id: row.next(), title: row.next(), note: row.next(), level: row.next())
    }

    func bind(to binder: inout some StrataValueBinder) throws {
        try binder.bind(id, title, note, level)
    }

    static func bind(key: Int64, to binder: inout some StrataValueBinder) throws {
        try binder.bind(key)
    }
}

private enum Level: Int16, StrataEnumColumnValue {
    case low = 0
    case high = 1
    static var strataUnknownCase: Level? { .low }
}

/// A record with a composite key and every column in the key.
private struct Tag: SQLiteRecord, Hashable {
    var task: Int64
    var name: String

    static let strataTable = StrataTable<Tag>(
        "tag", columns: [(\.task, "task"), (\.name, "name")], primaryKey: ["task", "name"])

    var strataKey: (Int64, String)? { (task, name) }

    init(task: Int64, name: String) {
        self.task = task
        self.name = name
    }

    init(row: inout some StrataRowReader) throws {
        try self.init(task: row.next(), name: row.next())
    }

    func bind(to binder: inout some StrataValueBinder) throws {
        try binder.bind(task, name)
    }

    static func bind(key: (Int64, String), to binder: inout some StrataValueBinder) throws {
        try binder.bind(key.0, key.1)
    }
}

/// The generic operations of `SQLiteStore` on records conformed by hand, on a real SQLite
/// database: what every generated repository runs.
@Suite("Record stores: the generic operations")
struct RecordStoreTests {
    func database() throws -> DatabaseQueue {
        let queue = try DatabaseQueue()
        try queue.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE "task" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "title" TEXT NOT NULL, "note" TEXT,
                        "level" INTEGER NOT NULL);
                    CREATE TABLE "tag" ("task" INTEGER NOT NULL, "name" TEXT NOT NULL, PRIMARY KEY ("task", "name"));
                    """)
        }
        return queue
    }

    @Test("the SQL of a table is made once from its columns and key")
    func tableSQL() {
        let table = Task.strataTable.statements(SQLiteDialect.self)
        // The key the database assigns comes back in the inserted row.
        #expect(
            table.insert
                == #"INSERT INTO "task" ("id", "title", "note", "level") VALUES (?1, ?2, ?3, ?4) RETURNING "id", "title", "note", "level""#)
        #expect(table.update == #"UPDATE "task" SET "title" = ?2, "note" = ?3, "level" = ?4 WHERE "id" = ?1"#)
        #expect(table.find == #"SELECT "id", "title", "note", "level" FROM "task" WHERE "id" = ?1"#)
        #expect(table === Task.strataTable.statements(SQLiteDialect.self), "rendered once per dialect")
        let tags = Tag.strataTable.statements(SQLiteDialect.self)
        #expect(tags.update == nil)
        #expect(tags.upsert.hasSuffix(#"ON CONFLICT ("task", "name") DO NOTHING"#))
        #expect(StrataColumns<Task>().note.sql == .identifier("note"))
    }

    @Test("insert assigns keys; find, fetch, count and exists read them back")
    func insertAndRead() throws {
        let tasks = SQLiteRepository<Task>(writer: try database())
        let first = try tasks.insert(Task(title: "a", level: .high))
        let many = try tasks.insert(contentsOf: [Task(title: "b"), Task(title: "c", note: "n")])
        #expect(first.id == 1)
        #expect(many.map(\.id) == [2, 3])
        #expect(try tasks.find(id: 3) == many[1])
        #expect(try tasks.find(id: 9) == nil)
        #expect(try tasks.fetchAll(where: { $0.note.isNull }, orderBy: { [$0.title.descending] }).map(\.title) == ["b", "a"])
        #expect(try tasks.fetchAll(orderBy: { [$0.title.ascending] }, limit: 1, offset: 1).map(\.title) == ["b"])
        #expect(try tasks.fetchOne(where: { $0.level == .high })?.title == "a")
        #expect(try tasks.count() == 3)
        #expect(try tasks.count(where: { $0.title >= "b" }) == 2)
        #expect(try tasks.exists(where: { $0.title == "c" }))
        #expect(try !tasks.exists(where: { $0.title == "z" }))
    }

    @Test("updateChanges writes the columns a closure changed on a copy, and only those")
    func updateChanges() throws {
        let tasks = SQLiteRepository<Task>(writer: try database())
        let task = try tasks.insert(Task(title: "a", note: "n"))
        let id = try #require(task.id)
        // Columns of the record the closure changed, as stored: the key never.
        #expect(Task.strataTable.changes(from: task, to: task).isEmpty)
        var changed = task
        changed.note = nil
        changed.level = .high
        changed.id = 99
        #expect(Task.strataTable.changes(from: task, to: changed).map(\.column) == [.identifier("note"), .identifier("level")])
        #expect(Task.strataTable.changes(from: task, to: changed).map(\.value) == [.null, .integer(1)])

        // Another session renames it meanwhile: a change of other columns keeps the new title.
        #expect(try tasks.update(id: id, set: { [$0.title.set("renamed")] })?.title == "renamed")
        let updated = try tasks.updateChanges(task) {
            $0.note = nil
            $0.id = 99
        }
        #expect(updated == Task(id: id, title: "renamed", note: nil))
        #expect(try tasks.find(id: 99) == nil)
        // Nothing changed: nothing written, the stored record returned; no stored record: nil.
        #expect(try tasks.updateChanges(task) { _ in } == updated)
        #expect(try tasks.updateChanges(Task(title: "no key yet")) { $0.title = "x" } == nil)
        #expect(try tasks.updateChanges(Task(id: 42, title: "none")) { $0.title = "x" } == nil)
    }

    @Test("updates: whole record, chosen columns, by filter; upsert; deletes")
    func updateAndDelete() throws {
        let tasks = SQLiteRepository<Task>(writer: try database())
        var task = try tasks.insert(Task(title: "a"))
        task.note = "changed"
        #expect(try tasks.update(task))
        #expect(try !tasks.update(Task(id: 42, title: "none")))
        #expect(try !tasks.update(Task(title: "no key yet")))
        #expect(try tasks.update(task, changing: { [$0.title.set(ifGiven: "b"), $0.note.set(ifGiven: .some(nil))] })
            == Task(id: task.id, title: "b", note: nil))
        #expect(try tasks.update(id: 42, set: { [$0.title.set("x")] }) == nil)
        _ = try tasks.insert(Task(title: "c"))
        #expect(try tasks.updateAll(where: { $0.title == "c" }, set: { [$0.level.set(.high)] }) == 1)
        let upserted = try tasks.upsert(Task(id: task.id, title: "upserted"))
        #expect(try tasks.find(id: try #require(upserted.id))?.title == "upserted")
        #expect(try tasks.upsert(Task(title: "new")).id == 3)
        #expect(try tasks.delete(upserted))
        #expect(try !tasks.delete(id: 99))
        #expect(try tasks.deleteAll(where: { $0.level == .high }) == 1)
        #expect(try tasks.count() == 1)
    }

    @Test("a composite key: find, upsert that changes nothing, delete by key tuple")
    func compositeKey() throws {
        let tags = SQLiteRepository<Tag>(writer: try database())
        try tags.insert(contentsOf: [Tag(task: 1, name: "a"), Tag(task: 1, name: "b")])
        #expect(try tags.find(id: (1, "b")) == Tag(task: 1, name: "b"))
        #expect(try tags.update(Tag(task: 1, name: "a")))
        #expect(try !tags.update(Tag(task: 2, name: "a")))
        _ = try tags.upsert(Tag(task: 1, name: "a"))
        #expect(try tags.count() == 2)
        #expect(try tags.delete(id: (1, "a")))
        #expect(try tags.fetchAll().map(\.name) == ["b"])
    }

    @Test("a batch insert is all or nothing; on a connection, the caller's transaction decides")
    func transactions() throws {
        let queue = try database()
        let tags = SQLiteRepository<Tag>(writer: queue)
        #expect(throws: (any Error).self) {
            try tags.insert(contentsOf: [Tag(task: 1, name: "a"), Tag(task: 1, name: "a")])
        }
        #expect(try tags.count() == 0)
        #expect(throws: (any Error).self) {
            try queue.write { db in
                try SQLiteAccess<Tag>(db).insert(Tag(task: 1, name: "kept until the rollback"))
                throw CancellationError()
            }
        }
        #expect(try tags.count() == 0)
    }

    @Test("a stored raw value that matches no case reads as the unknown case")
    func unknownEnumValue() throws {
        let queue = try database()
        try queue.write { db in try db.execute(sql: #"INSERT INTO "task" ("title", "level") VALUES ('x', 7)"#) }
        #expect(try SQLiteRepository<Task>(writer: queue).fetchOne()?.level == .low)
    }

    @Test("observation follows the query through committed changes")
    func observation() async throws {
        let tasks = SQLiteRepository<Task>(writer: try database())
        var counts: [Int] = []
        for try await count in tasks.observeCount(where: { $0.level == .high }) {
            counts.append(count)
            if counts.count == 1 { try tasks.insert(Task(title: "a", level: .high)) }
            if counts.count == 2 { break }
        }
        #expect(counts == [0, 1])
    }
}
