import Foundation
import GRDB
import StrataSQLite
import Testing

/// A writer, searchable by name, with a rank to aggregate.
private struct Writer: StrataSearchable, Hashable {
    var id: Int64?
    var name: String
    var rank: Int64

    static let strataTable = StrataTable<Writer>(
        "writer", columns: [(\.id, "id"), (\.name, "name"), (\.rank, "rank")], primaryKey: ["id"], assignsKey: true)
    static let strataSearch = StrataSearch(table: "writer", columns: ["name"])

    var strataKey: Int64? { id }

    init(id: Int64? = nil, name: String, rank: Int64) {
        self.id = id
        self.name = name
        self.rank = rank
    }

    init(row: inout some StrataRowReader) throws {
        try self.init(id: row.next(), name: row.next(), rank: row.next())
    }

    func bind(to binder: inout some StrataValueBinder) throws {
        try binder.bind(id, name, rank)
    }

    static func bind(key: Int64, to binder: inout some StrataValueBinder) throws {
        try binder.bind(key)
    }
}

/// A post: a writer's (a reference), perhaps with an editor (an optional reference).
private struct Post: StrataRecord, Hashable {
    var id: Int64
    var writer: Int64
    var editor: Int64?
    var title: String

    static let strataTable = StrataTable<Post>(
        "post", columns: [(\.id, "id"), (\.writer, "writer"), (\.editor, "editor"), (\.title, "title")],
        primaryKey: ["id"])

    var strataKey: Int64? { id }

    init(id: Int64, writer: Int64, editor: Int64? = nil, title: String) {
        self.id = id
        self.writer = writer
        self.editor = editor
        self.title = title
    }

    init(row: inout some StrataRowReader) throws {
        try self.init(id: row.next(), writer: row.next(), editor: row.next(), title: row.next())
    }

    func bind(to binder: inout some StrataValueBinder) throws {
        try binder.bind(id, writer, editor, title)
    }

    static func bind(key: Int64, to binder: inout some StrataValueBinder) throws {
        try binder.bind(key)
    }
}

/// What a store was asked to do, in order.
private final class Calls {
    var names: [String] = []
}

/// A store written only with ``StrataStore``'s three requirements, over SQLite's executor: what
/// a new synchronous database fills in. Every other operation comes from the runtime.
private struct ExecutorStore<Record: StrataRecord>: StrataStore {
    let queue: DatabaseQueue
    let calls: Calls

    func run<R: StrataRecord, Output>(_ plan: StrataPlan<R, Output>) throws -> Output {
        calls.names.append("run")
        return try queue.write { db in try SQLiteExecutor.run(plan, in: db) }
    }

    func rows<Shape: StrataRowShape>(_ query: StrataRowQuery<Shape>) throws -> [Shape.Row] {
        calls.names.append("rows")
        return try queue.read { db in try SQLiteExecutor.rows(query, in: db) }
    }

    @discardableResult
    func insert(contentsOf records: some Sequence<Record>) throws -> [Record] {
        calls.names.append("insert")
        return try queue.write { db in try SQLiteExecutor.insert(records, in: db) }
    }
}

/// `StrataStore`'s operations, written once in the runtime, on a store that implements only
/// `run`, `rows` and `insert(contentsOf:)`, on a real SQLite database.
@Suite("StrataStore: the whole surface from run, rows and insert")
struct StrataStoreSurfaceTests {
    private let calls = Calls()
    private let writers: ExecutorStore<Writer>
    private let posts: ExecutorStore<Post>

    init() throws {
        let queue = try DatabaseQueue()
        try queue.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE "writer" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "name" TEXT NOT NULL,
                        "rank" INTEGER NOT NULL);
                    CREATE VIRTUAL TABLE "writer_search" USING fts5("name", content='writer', content_rowid='id');
                    CREATE TRIGGER "writer_search_insert" AFTER INSERT ON "writer" BEGIN
                        INSERT INTO "writer_search" (rowid, "name") VALUES (new."id", new."name");
                    END;
                    CREATE TABLE "post" ("id" INTEGER PRIMARY KEY, "writer" INTEGER NOT NULL REFERENCES "writer",
                        "editor" INTEGER REFERENCES "writer", "title" TEXT NOT NULL);
                    """)
        }
        writers = ExecutorStore(queue: queue, calls: calls)
        posts = ExecutorStore(queue: queue, calls: calls)
    }

    /// Three writers (Ada 3, Grace 5, Alan 3) and three posts (two of Ada's, one edited by Grace).
    func insertSample() throws {
        let ada = try writers.insert(Writer(name: "Ada Lovelace", rank: 3))
        #expect(ada.id == 1, "the key the database assigned comes back")
        let more = try writers.insert(contentsOf: [Writer(name: "Grace Hopper", rank: 5), Writer(name: "Alan Turing", rank: 3)])
        #expect(more.map(\.id) == [2, 3])
        try posts.insert(contentsOf: [
            Post(id: 1, writer: 1, editor: 2, title: "Notes"), Post(id: 2, writer: 1, title: "Engines"),
            Post(id: 3, writer: 2, title: "COBOL"),
        ])
    }

    @Test("inserts, upserts and reads run as plans through run and insert(contentsOf:)")
    func insertAndRead() throws {
        try insertSample()
        #expect(try posts.upsert(Post(id: 3, writer: 2, editor: 1, title: "Compilers")).title == "Compilers")
        #expect(try posts.upsert(Post(id: 4, writer: 3, title: "Machines")).id == 4)
        #expect(try writers.find(id: 2)?.name == "Grace Hopper")
        #expect(try writers.find(id: 9) == nil)
        #expect(
            try writers.fetchAll(where: { $0.rank == 3 }, orderBy: { [$0.name.ascending] }).map(\.name)
                == ["Ada Lovelace", "Alan Turing"])
        #expect(try writers.fetchAll(orderBy: { [$0.id.ascending] }, limit: 1, offset: 2).map(\.id) == [3])
        #expect(try writers.fetchOne(orderBy: { [$0.rank.descending] })?.name == "Grace Hopper")
        #expect(try writers.count() == 3)
        #expect(try writers.count(where: { $0.rank > 3 }) == 1)
        #expect(try writers.exists(where: { $0.name == "Alan Turing" }))
        #expect(try !writers.exists(where: { $0.name == "Charles Babbage" }))
        // What references and hasMany read: records of another type.
        #expect(try posts.find(Writer.self, id: 1)?.name == "Ada Lovelace")
        #expect(
            try writers.fetchAll(Post.self, where: { $0.writer == 1 }, orderBy: { [$0.title.ascending] }).map(\.title)
                == ["Engines", "Notes"])
        #expect(try writers.search("hopper").map(\.id) == [2])
        #expect(try writers.search("lovelace", where: { $0.rank > 3 }).isEmpty)
        #expect(Set(calls.names) == ["run", "insert"])
    }

    @Test("updates and deletes run as plans through run")
    func updateAndDelete() throws {
        try insertSample()
        var ada = try #require(try writers.find(id: 1))
        ada.rank = 4
        #expect(try writers.update(ada))
        #expect(try !writers.update(Writer(id: 9, name: "none", rank: 0)))
        #expect(try writers.update(id: 3, set: { [$0.rank.set(6)] })?.rank == 6)
        let grace = try #require(try writers.find(id: 2))
        #expect(try writers.updateChanges(grace) { $0.name = "Grace B. Hopper" }?.name == "Grace B. Hopper")
        #expect(try writers.update(grace, changing: { [$0.rank.set(ifGiven: 7), $0.name.set(ifGiven: nil)] })?.rank == 7)
        #expect(try writers.update(grace, changing: [.set("rank", ifGiven: Int64(8))])?.rank == 8)
        #expect(try writers.find(id: 2)?.name == "Grace B. Hopper", "a column left out is kept")
        #expect(try posts.updateAll(where: { $0.writer == 1 }, set: { [$0.editor.set(3)] }) == 2)
        #expect(try posts.count(where: { $0.editor == 3 }) == 2)

        #expect(try posts.delete(Post(id: 3, writer: 2, title: "COBOL")))
        #expect(try posts.delete(id: 2))
        #expect(try !posts.delete(id: 2))
        #expect(try posts.deleteAll() == 1)
        #expect(try posts.count() == 0)
        #expect(Set(calls.names) == ["run", "insert"])
    }

    @Test("joins, counts and aggregates run as row queries through rows")
    func joinsAndAggregates() throws {
        try insertSample()
        calls.names = []
        let joined = try posts.fetchAll(joining: Writer.self, on: \.writer, orderBy: { post, _ in [post.id.ascending] })
        #expect(joined.map { [$0.record.title, $0.partner.name] } == [["Notes", "Ada Lovelace"], ["Engines", "Ada Lovelace"], ["COBOL", "Grace Hopper"]])
        let edited = try posts.fetchAll(
            joining: Writer.self, on: \.editor, where: { post, _ in post.writer == 1 }, orderBy: { post, _ in [post.id.ascending] })
        #expect(edited.map { $0.partner?.name } == ["Grace Hopper", nil], "a left join keeps a post without an editor")
        let counted = try writers.fetchAll(counting: Post.self, via: \.writer, orderBy: { [$0.id.ascending] })
        #expect(counted.map(\.count) == [2, 1, 0])

        #expect(try writers.aggregate { $0.rank.max } == 5)
        #expect(try writers.aggregate({ $0.rank.sum }, where: { $0.rank == 3 }) == 6)
        let byRank = try writers.aggregate({ $0.name.count }, groupedBy: { $0.rank })
        #expect(byRank.map(\.key) == [3, 5])
        #expect(byRank.map(\.value) == [2, 1])
        #expect(try writers.count(groupedBy: { $0.rank }, where: { $0.id > 1 }).map(\.value) == [1, 1])
        let pairs = try posts.count(groupedBy: { ($0.writer, $0.editor) })
        #expect(pairs.map(\.value) == [1, 1, 1])
        #expect(try posts.aggregate({ $0.id.max }, groupedBy: { ($0.writer, $0.title) }).count == 3)
        #expect(calls.names == Array(repeating: "rows", count: 9))
    }
}
