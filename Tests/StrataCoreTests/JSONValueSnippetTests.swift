import Foundation
import StrataCore
import Testing

/// JSON value types in, the Swift and SQL they must produce out: the struct and its hand-written
/// coding, the member columns, and each kind of shape change as its edit of the stored objects.
@Suite struct JSONValueSnippetTests {
    let snippets = RendererSnippetTests()

    static let v1 = """
        types:
          Prefs:
            json:
              theme: String
              size: Int
              old: Bool?
        entities:
          Item:
            fields:
              id: UUID
              prefs: Prefs

        """

    @Test func aJSONValueTypeIsAStructReadAndWrittenByHand() throws {
        let models = try snippets.render(Self.v1, file: "SnipModels.swift")
        snippets.expectFragment(
            """
            public struct Prefs: Hashable, Sendable, Codable {
                public var theme: String
                public var size: Int
                public var old: Bool?
            """, in: models)
        let records = try snippets.render(Self.v1, file: "SnipRecords.swift")
        snippets.expectFragment(
            """
                public init(strataJSON json: StrataJSON) throws {
                    let object = try json.object()
                    try self.init(
                        theme: object.decode("theme"),
                        size: object.decode("size"),
                        old: object.decode("old")
                    )
                }
            """, in: records)
        snippets.expectFragment("    public var size: StrataColumn<Root, Int> { member(\"size\", .integer) }", in: records)
        snippets.expectFragment("    public var size: StrataColumn<Root, Int?> { member(\"size\", .integer) }", in: records)
        let sqlite = try snippets.render(Self.v1, file: "sqlite/schema.sql")
        #expect(sqlite.contains("\"prefs\" TEXT NOT NULL"), "\(sqlite)")
        let postgres = try snippets.render(Self.v1, file: "postgres/schema.sql")
        #expect(postgres.contains("\"prefs\" JSONB NOT NULL"), "\(postgres)")
    }

    @Test func eachShapeChangeIsAnEditOfTheStoredObjects() throws {
        let v2 = """
            types:
              Prefs:
                json:
                  theme: String
                  fontSize: { type: Int, renamedFrom: size }
                  language: { type: String, default: en }
            entities:
              Item:
                fields:
                  id: UUID
                  prefs: Prefs
            migration:
              allowDataLoss: [Prefs.old]

            """
        let sqlite = try snippets.render(Self.v1, then: v2, file: "sqlite/migrations/v2.sql")
        for fragment in [
            "json_set(json_remove(\"prefs\", '$.size'), '$.fontSize', \"prefs\" -> '$.size')",
            "END, '$.language', json('\"en\"'))", "json_remove(json_insert(", "'$.old')",
            "DESTRUCTIVE: reshape the JSON of Item.prefs (Prefs): rename size to fontSize, add language (filled with \"en\"), remove old",
        ] {
            #expect(sqlite.contains(fragment), "missing \(fragment) in:\n\(sqlite)")
        }
        let postgres = try snippets.render(Self.v1, then: v2, file: "postgres/migrations/v2.sql")
        for fragment in [
            "jsonb_set(\"prefs\" #- '{size}', '{fontSize}', \"prefs\" #> '{size}')",
            "COALESCE(\"strata_json\".\"value\" #> '{language}', '\"en\"'::jsonb)", "#- '{old}')",
            "Compatible with code of version 1: no (reshapes the JSON of Item.prefs (rename size to fontSize, remove old))",
        ] {
            #expect(postgres.contains(fragment), "missing \(fragment) in:\n\(postgres)")
        }
    }

    @Test func anAddedMemberWithADefaultIsCompatibleAndAnOptionalOneChangesNothing() throws {
        let optional = Self.v1.replacingOccurrences(of: "      old: Bool?\n", with: "      old: Bool?\n      note: String?\n")
        let none = try snippets.render(Self.v1, then: optional, file: "sqlite/migrations/v2.sql")
        #expect(!none.contains("UPDATE"), "\(none)")
        let filled = Self.v1.replacingOccurrences(of: "      old: Bool?\n", with: "      old: Bool?\n      dark: { type: Bool, default: true }\n")
        let postgres = try snippets.render(Self.v1, then: filled, file: "postgres/migrations/v2.sql")
        #expect(postgres.contains("jsonb_set(\"prefs\", '{dark}', COALESCE(\"prefs\" #> '{dark}', 'true'::jsonb))"), "\(postgres)")
        #expect(postgres.contains("Compatible with code of version 1: yes"), "\(postgres)")
    }
}
