import Foundation
import GRDB
import StrataPostgres
import StrataSQLite
import StrataTestSupport
import Testing

/// JSON values of the Prefs fixture model on both databases: `Settings` (a JSON value type with
/// an enum, a nested `Window`, an array and a date) whose shape changes over three versions, and
/// `extra`, an untyped `JSON` field. Rows written by v1 code are read by v3 code: v2 renames
/// `fontSize`, drops `legacyFlag`, adds `language` and `Window.maximized` with defaults; v3
/// reads `textSize` as a Double and computes `zoom` by a transform over each stored value; v4
/// only adds members with defaults (set in batches on PostgreSQL).
@Suite("Generated repositories: JSON values (Prefs)")
struct PrefsJSONTests {
    /// What v1 code wrote: a full object, and one without its optional members.
    static let v1Rows = [
        #"INSERT INTO profile (name, settings) VALUES ('ada', '{"theme":"dark","fontSize":14,"legacyFlag":true,"window":{"width":800,"height":600},"recent":["a.txt","b \"quoted\" ü.txt"]}')"#,
        #"INSERT INTO profile (name, settings) VALUES ('bob', '{"theme":"light","fontSize":12,"recent":[]}')"#,
    ]

    static let ada = Settings(
        theme: .dark, textSize: 14, zoom: 3.5, window: Window(width: 800, height: 600),
        recent: ["a.txt", "b \"quoted\" ü.txt"])
    static let bob = Settings(theme: .light, textSize: 12, zoom: 3, recent: [])

    /// A value written by v3 code, every member set.
    static let cy = Settings(
        theme: .dark, textSize: 9.5, zoom: 0.5, language: "fr", window: Window(width: 1.5, height: 2, maximized: true),
        recent: ["\u{0}\n\t\\", "😀"], lastOpened: Date(timeIntervalSince1970: 1_700_000_000.125))
    static let extra: StrataJSON = .object(StrataJSONObject([("tags", .array([.string("x"), .integer(-3), .null])), ("ok", .bool(true))]))

    @Test("SQLite: rows written at v1 read at v3; filters and sorts on members; malformed JSON is an error")
    func sqlite() throws {
        let queue = try DatabaseQueue()
        let migrator = PrefsDatabase.migrator
        try migrator.migrate(queue, to: 1)
        try queue.write { db in for row in Self.v1Rows { try db.execute(sql: row) } }
        try migrator.migrate(queue, to: 4)
        let db = try PrefsDatabase(writer: queue)
        let profiles = try db.profiles.fetchAll(orderBy: { [$0.id.ascending] })
        #expect(profiles.map(\.settings) == [Self.ada, Self.bob])
        let stored = try queue.read { db in
            try String.fetchAll(db, sql: "SELECT settings FROM profile ORDER BY id")
        }
        #expect(stored.allSatisfy { !$0.contains("legacyFlag") && !$0.contains("fontSize") }, "\(stored)")
        #expect(stored.allSatisfy { $0.contains(#""fontName":"SF Mono""#) }, "v4 filled in the stored objects: \(stored)")
        #expect(stored.first?.contains(#""opacity":1"#) == true, "and in the nested window: \(stored)")

        let cy = try db.profiles.insert(Profile(name: "cy", settings: Self.cy, extra: Self.extra))
        #expect(try db.profiles.find(id: #require(cy.id)) == cy)
        #expect(cy.settings.lastOpened == Self.cy.lastOpened)

        #expect(try db.profiles.fetchAll(where: { $0.settings.theme == .dark }, orderBy: { [$0.id.ascending] }).map(\.name) == ["ada", "cy"])
        #expect(try db.profiles.fetchAll(where: { $0.settings.window.width > 100 }).map(\.name) == ["ada"])
        #expect(try db.profiles.fetchAll(where: { $0.settings.window.maximized == true }).map(\.name) == ["cy"])
        #expect(try db.profiles.fetchAll(where: { $0.settings.window.isNull }).map(\.name) == ["bob"])
        #expect(try db.profiles.fetchAll(where: { $0.settings.language == "fr" }).map(\.name) == ["cy"])
        #expect(try db.profiles.fetchAll(where: { $0.settings.lastOpened > Date(timeIntervalSince1970: 1_600_000_000) }).map(\.name) == ["cy"])
        #expect(try db.profiles.fetchAll(orderBy: { [$0.settings.textSize.descending] }).map(\.name) == ["ada", "bob", "cy"])

        var bob = try #require(profiles.last)
        bob.settings.recent.append("c.txt")
        try db.profiles.update(bob)
        #expect(try db.profiles.find(id: #require(bob.id))?.settings.recent == ["c.txt"])

        for (text, reason) in [("'not json'", "invalid JSON"), (#"'{"theme":"purple"}'"#, "theme"), (#"'{"theme":"dark"}'"#, "is missing")] {
            try queue.write { try $0.execute(sql: "UPDATE profile SET settings = \(text) WHERE name = 'bob'") }
            do {
                _ = try db.profiles.find(id: #require(bob.id))
                Issue.record("\(text) was read")
            } catch let error as StrataDecodingError {
                guard case .malformedJSON(let column, let type, let message) = error else { throw error }
                #expect(column == "settings")
                #expect(type == "Settings" || type == "JSON")
                #expect(message.contains(reason), "\(message)")
            }
        }
    }

    @Test("PostgreSQL: rows written at v1 read at v3 (JSONB); filters and sorts on members")
    func postgres() async throws {
        let server = try await TestPostgresServer.forTest()
        try await server.withDatabase { session in
            let migrator = PrefsPostgresDatabase.migrator
            try await migrator.migrate(session.connection, to: 1)
            for row in Self.v1Rows { try await session.execute(row) }
            try await migrator.migrate(session.connection, to: 4)
            let db = PrefsPostgresAccess(session.connection)
            let profiles = try await db.profiles.fetchAll(orderBy: { [$0.id.ascending] })
            #expect(profiles.map(\.settings) == [Self.ada, Self.bob])
            let legacy = try await session.textRows(sql: "SELECT count(*)::text FROM profile WHERE settings ? 'legacyFlag' OR settings ? 'fontSize'")
            #expect(legacy.first?.first == "0")
            let filled = try await session.textRows(
                sql: "SELECT count(*)::text FROM profile WHERE settings ->> 'fontName' = 'SF Mono' AND (settings -> 'window' IS NULL OR settings #> '{window,opacity}' = '1')")
            #expect(filled.first?.first == "2", "v4's members set in batches in every stored object")

            // JSONB, like TEXT, cannot hold NUL: the server refuses the row, nothing is stored.
            await #expect(throws: (any Error).self) { try await db.profiles.insert(Profile(name: "cy", settings: Self.cy)) }
            #expect(try await db.profiles.count() == 2)
            var withoutNUL = Self.cy
            withoutNUL.recent[0] = "\n\t\\"
            let cy = try await db.profiles.insert(Profile(name: "cy", settings: withoutNUL, extra: Self.extra))
            #expect(try await db.profiles.find(id: #require(cy.id)) == cy)
            #expect(try await db.profiles.fetchAll(where: { $0.settings.theme == .dark }, orderBy: { [$0.id.ascending] }).map(\.name) == ["ada", "cy"])
            #expect(try await db.profiles.fetchAll(where: { $0.settings.window.width > 100 }).map(\.name) == ["ada"])
            #expect(try await db.profiles.fetchAll(where: { $0.settings.window.maximized == true }).map(\.name) == ["cy"])
            #expect(try await db.profiles.fetchAll(where: { $0.settings.window.isNull }).map(\.name) == ["bob"])
            #expect(
                try await db.profiles.fetchAll(where: { $0.settings.lastOpened > Date(timeIntervalSince1970: 1_600_000_000) }).map(\.name) == ["cy"])
            #expect(try await db.profiles.fetchAll(orderBy: { [$0.settings.textSize.descending] }).map(\.name) == ["ada", "bob", "cy"])
            let typed = try await session.textRows(sql: "SELECT jsonb_typeof(settings -> 'recent') FROM profile WHERE name = 'cy'")
            #expect(typed.first?.first == "array", "stored as JSONB, not as a JSON string")

            try await session.execute("UPDATE profile SET settings = '{\"theme\": \"purple\"}' WHERE name = 'bob'")
            await #expect(throws: StrataDecodingError.self) { try await db.profiles.find(id: #require(profiles.last?.id)) }
        }
    }
}
