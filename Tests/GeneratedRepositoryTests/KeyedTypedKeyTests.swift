import Foundation
import GRDB
import StrataPostgres
import StrataSQLite
import StrataTestSupport
import Testing

/// `typedKeys: true` (the Keyed fixture model): each entity's key is a type of its own
/// (`PoetID` over an autoincremented Int64, `DrawerID` over a String, `EssayID` over a UUID),
/// references hold the referenced entity's key type, and the database sees plain keys.
@Suite("Generated repositories: typed keys (Keyed)")
struct KeyedTypedKeyTests {
    @Test("The key types are distinct Swift types over the stored values")
    func keyTypes() {
        #expect(Poet.Key.self == PoetID.self)
        #expect(Essay.Key.self == EssayID.self)
        #expect(Drawer.Key.self == DrawerID.self)
        let essay = Essay(poet: PoetID(rawValue: 1), title: "On keys")
        #expect(essay.id != Essay(poet: PoetID(rawValue: 1), title: "On keys").id, "a new UUID per essay")
    }

    @Test("SQLite: insert, find, filter, join and eager loading by typed keys")
    func sqlite() throws {
        let db = try KeyedDatabase.inMemory()
        let ada = try db.poets.insert(Poet(name: "Ada"))
        let adaID = try #require(ada.id)
        let drawer = try db.drawers.insert(Drawer(code: DrawerID(rawValue: "A-1")))
        let essays = try db.essays.insert(contentsOf: [
            Essay(poet: adaID, drawer: drawer.code, title: "First"), Essay(poet: adaID, title: "Second"),
        ])
        #expect(try db.poets.find(id: adaID) == ada)
        #expect(try db.essays.find(id: essays[0].id) == essays[0])
        #expect(try db.essays.fetchAll(where: { $0.poet == adaID }, orderBy: { [$0.title.ascending] }).map(\.title) == ["First", "Second"])
        #expect(try db.essays.count(where: { $0.drawer == DrawerID(rawValue: "A-1") }) == 1)
        let joined = try db.essays.fetchAll(joining: Poet.self, on: \.poet)
        #expect(joined.map(\.partner.name) == ["Ada", "Ada"])
        let stored = try db.writer.read { try Int64.fetchOne($0, sql: "SELECT poet FROM essay LIMIT 1") }
        #expect(stored == adaID.rawValue, "stored as the plain integer")
    }

    @Test("PostgreSQL: insert, find and filter by typed keys")
    func postgres() async throws {
        let server = try await TestPostgresServer.forTest()
        try await server.withDatabase { session in
            try await KeyedPostgresDatabase.migrator.migrate(session.connection)
            let db = KeyedPostgresAccess(session.connection)
            let ada = try await db.poets.insert(Poet(name: "Ada"))
            let adaID = try #require(ada.id)
            let essay = try await db.essays.insert(Essay(poet: adaID, title: "First"))
            #expect(try await db.poets.find(id: adaID) == ada)
            #expect(try await db.essays.find(id: essay.id) == essay)
            #expect(try await db.essays.fetchAll(where: { $0.poet == adaID }).map(\.title) == ["First"])
        }
    }
}
