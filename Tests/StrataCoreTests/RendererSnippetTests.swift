import Foundation
import StrataCore
import StrataRelease
import StrataTestSupport
import Testing

/// Snippet tests for the renderers, in the manner of swift-openapi-generator's
/// `SnippetBasedReferenceTests`: a few schema lines in, the fragment of Swift or SQL they must
/// produce out, so that a template change is reviewed in one small expected fragment.
@Suite struct RendererSnippetTests {
    /// The generated file ending in `suffix` for a one-version model whose `entities:`/`enums:`
    /// YAML is `body`.
    func render(_ body: String, file suffix: String) throws -> String {
        let folder = try TestPaths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let model = folder.appendingPathComponent("Snip")
        try FileManager.default.createDirectory(at: model, withIntermediateDirectories: true)
        try ("model: Snip\nversion: 1\n" + body).write(to: model.appendingPathComponent("v1.yaml"), atomically: true, encoding: .utf8)
        let (history, _, diagnostics) = SchemaLoader.loadModel(named: "Snip", in: folder.path)
        #expect(diagnostics.filter { $0.severity == .error }.isEmpty, "\(diagnostics)")
        let files = Generator.files(for: try #require(history))
        return try #require(files.first { $0.path.hasSuffix(suffix) }, "no \(suffix)").contents
    }

    /// The generated file ending in `suffix` for a two-version model whose versions are
    /// `first` and `second` (each from `enums:`/`entities:` on).
    func render(_ first: String, then second: String, file suffix: String) throws -> String {
        let folder = try TestPaths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let model = folder.appendingPathComponent("Snip")
        try FileManager.default.createDirectory(at: model, withIntermediateDirectories: true)
        for (version, body) in [first, second].enumerated() {
            try "model: Snip\nversion: \(version + 1)\n\(body)".write(
                to: model.appendingPathComponent("v\(version + 1).yaml"), atomically: true, encoding: .utf8)
        }
        let (history, _, diagnostics) = SchemaLoader.loadModel(named: "Snip", in: folder.path)
        #expect(diagnostics.filter { $0.severity == .error }.isEmpty, "\(diagnostics)")
        let files = Generator.files(for: try #require(history))
        return try #require(files.first { $0.path.hasSuffix(suffix) }, "no \(suffix)").contents
    }

    /// Expects `fragment` (its lines, indentation included) in `text`.
    func expectFragment(_ fragment: String, in text: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        #expect(text.contains(fragment), "missing:\n\(fragment)\nin:\n\(text)", sourceLocation: sourceLocation)
    }

    @Test func aCompositeKeyFieldNamedAsUpdatesParameterKeepsNumberedNames() throws {
        let body = """
            entities:
              Grant:
                primaryKey: [assignments, user]
                fields:
                  assignments: Int64
                  user: Int64
            """
        let repositories = try render(body, file: "SnipRepositories.swift")
        // Named after their fields, the keys would shadow update's `assignments`: numbered instead.
        expectFragment("public func find(assignments key1: Int64, user key2: Int64) throws -> Grant? {", in: repositories)
    }

    @Test func textDatesAreReadAndBoundInTheirFormatAndStoredAsText() throws {
        let body = """
            entities:
              Event:
                fields:
                  id: Int64
                  at: { type: Date, format: timestamp, sqlType: { sqlite: DATETIME } }
                  day: { type: Date, format: date, default: "2024-01-31T12:00:00Z" }
                  plain: Date?
            """
        let records = try render(body, file: "SnipRecords.swift")
        expectFragment("try self.init(id: row.next(), at: row.next(.timestamp), day: row.next(.date), plain: row.next())", in: records)
        expectFragment("try StrataTextDate(at, .timestamp).bind(to: &binder)\n        try StrataTextDate(day, .date).bind(to: &binder)", in: records)
        expectFragment("dateTexts: [(\\.at, .timestamp), (\\.day, .date)]", in: records)
        // The Swift default is the day the column stores.
        expectFragment("day: Date = Date(timeIntervalSinceReferenceDate: 728352000.0)", in: try render(body, file: "SnipModels.swift"))
        let sqlite = try render(body, file: "sqlite/schema.sql")
        expectFragment(#""at" DATETIME NOT NULL,"#, in: sqlite)
        expectFragment(#""day" TEXT NOT NULL DEFAULT '2024-01-31',"#, in: sqlite)
        expectFragment(#""plain" REAL,"#, in: sqlite)
        let postgres = try render(body, file: "postgres/schema.sql")
        expectFragment(#""at" TIMESTAMPTZ NOT NULL,"#, in: postgres)
        expectFragment(#""day" DATE NOT NULL DEFAULT '2024-01-31',"#, in: postgres)
        expectFragment("stored.day = day.strataStoredDay", in: try render(body, file: "SnipPostgresRepositories.swift"))
    }

    @Test func textDateColumnsAreNotConvertedFromStrata05Seconds() throws {
        let folder = try TestPaths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let model = folder.appendingPathComponent("Snip")
        try FileManager.default.createDirectory(at: model, withIntermediateDirectories: true)
        try """
            model: Snip
            version: 1
            entities:
              Event:
                fields:
                  id: Int64
                  at: { type: Date, format: timestamp }
                  seen: Date
            """.write(to: model.appendingPathComponent("v1.yaml"), atomically: true, encoding: .utf8)
        let (history, _, _) = SchemaLoader.loadModel(named: "Snip", in: folder.path)
        let schema = try #require(history?.latest)
        // Only REAL columns hold seconds a Strata 0.5 database may have written since 1970.
        #expect(MigrationSources.dateColumns(of: schema).map(\.column) == ["seen"])
    }

    @Test func recordConformanceBindsAndReadsInFieldOrder() throws {
        let body = """
            entities:
              Note:
                fields:
                  id: UUID
                  title: String
                  body: String?
            """
        // The table, its columns and key, how it is read and bound: once, for every database.
        expectFragment(
            """
            extension Note: StrataRecord {
                public static let strataTable = StrataTable<Note>(
                    "note",
                    columns: [
                        (\\.id, "id"),
                        (\\.title, "title"),
                        (\\.body, "body"),
                    ],
                    primaryKey: ["id"]
                )

                public var strataKey: UUID? { id }

                public init(row: inout some StrataRowReader) throws {
                    try self.init(id: row.next(), title: row.next(), body: row.next())
                }

                public func bind(to binder: inout some StrataValueBinder) throws {
                    try id.bind(to: &binder)
                    try title.bind(to: &binder)
                    try body.bind(to: &binder)
                }

                public static func bind(key: UUID, to binder: inout some StrataValueBinder) throws {
                    try key.bind(to: &binder)
                }
            }
            """, in: try render(body, file: "SnipRecords.swift"))
        // PostgreSQL adds its record protocol; SQLite needs nothing more.
        let postgres = try render(body, file: "SnipPostgresRepositories.swift")
        expectFragment("// MARK: - Note\n\nextension Note: PostgresRecord {}\n", in: postgres)
        expectFragment("    ) async throws -> Note? {\n        try await update(record, changing: [.set(\"title\"", in: postgres)
        let swift = try render(body, file: "SnipRepositories.swift")
        #expect(!swift.contains("SQLiteRecord") && !swift.contains("init(row:"))
        // An optional field's new value is doubly optional: `.some(nil)` stores NULL. Fields are set
        // by column name (a call each), not by key path.
        expectFragment(
            """
                public func update(_ record: Note, title newTitle: String? = nil, body newBody: String?? = nil) throws -> Note? {
                    try update(record, changing: [.set("title", ifGiven: newTitle), .set("body", ifGiven: newBody)])
                }
            """, in: swift)
        #expect(!swift.contains("find(id"), "a key named id uses the runtime's generic find(id:)")
    }

    @Test func autoincrementedKeyIsAssignedByTheDatabase() throws {
        let swift = try render(
            """
            entities:
              Counter:
                fields:
                  id: { type: Int32, autoincrement: true }
                  name: String
            """, file: "SnipRepositories.swift")
        let records = try render(
            """
            entities:
              Counter:
                fields:
                  id: { type: Int32, autoincrement: true }
                  name: String
            """, file: "SnipRecords.swift")
        expectFragment(
            """
                public static let strataTable = StrataTable<Counter>(
                    "counter",
                    columns: [
                        (\\.id, "id"),
                        (\\.name, "name"),
                    ],
                    primaryKey: ["id"],
                    assignsKey: true
                )
            """, in: records)
        // The insert returns the stored row, with its key: no rowid plumbing in the record.
        #expect(!swift.contains("didInsert"), "\(swift)")
    }

    @Test func fieldsNamedLikeTheCodingParametersAreReadAndBoundAsProperties() throws {
        let records = try render(
            """
            entities:
              Wire:
                fields:
                  id: Int64
                  row: String
                  binder: String
            """, file: "SnipRecords.swift")
        expectFragment("try self.init(id: row.next(), row: row.next(), binder: row.next())", in: records)
        expectFragment("try self.binder.bind(to: &binder)", in: records)
    }

    @Test func valueTypesAreDeclaredStoredAsTheirRawValueAndConformedOnce() throws {
        let body = """
            types:
              Cents: { type: Int64, doc: "An amount in cents." }
              Email: { type: String, external: true }
            entities:
              Invoice:
                fields:
                  id: UUID
                  total: { type: Cents, default: 250 }
                  contact: Email?
            """
        let models = try render(body, file: "SnipModels.swift")
        expectFragment("/// An amount in cents.\npublic struct Cents: RawRepresentable, Hashable, Sendable, Codable {", in: models)
        expectFragment("total: Cents = Cents(rawValue: 250),", in: models)
        #expect(!models.contains("struct Email"), "the app declares an external type")
        let records = try render(body, file: "SnipRecords.swift")
        expectFragment("extension Cents: StrataRawColumnValue, StrataKeyReferenceValue {}\nextension Cents: StrataComparableColumnValue, StrataSortableColumnValue {}", in: records)
        expectFragment("extension Email: StrataRawColumnValue, StrataKeyReferenceValue {}", in: records)
        expectFragment(#""total" INTEGER NOT NULL DEFAULT 250,"#, in: try render(body, file: "sqlite/schema.sql"))
        expectFragment(#""total" BIGINT NOT NULL DEFAULT 250,"#, in: try render(body, file: "postgres/schema.sql"))
    }

    @Test func arraysAreNativeOnPostgreSQLJSONTextOnSQLiteAndEmptyByDefault() throws {
        let body = """
            enums:
              Mood: { type: String, cases: [calm, curious] }
            types:
              Score: Int16
            entities:
              Post:
                fields:
                  id: UUID
                  tags: "[String]"
                  ratings: { type: "[Int32]", default: [] }
                  moods: "[Mood]?"
                  scores: "[Score]"
            """
        let models = try render(body, file: "SnipModels.swift")
        expectFragment("public var tags: [String]", in: models)
        expectFragment("public var moods: Optional<[Mood]>", in: models)
        expectFragment("tags: [String] = [],\n        ratings: [Int32] = [],\n        moods: [Mood]? = nil,", in: models)
        let records = try render(body, file: "SnipRecords.swift")
        expectFragment("extension Mood: StrataArrayElement {}\nextension Score: StrataArrayElement {}", in: records)
        let sqlite = try render(body, file: "sqlite/schema.sql")
        expectFragment(#""tags" TEXT NOT NULL,"#, in: sqlite)
        expectFragment(#""ratings" TEXT NOT NULL DEFAULT '[]',"#, in: sqlite)
        expectFragment(#""moods" TEXT,"#, in: sqlite)
        #expect(!sqlite.contains("CHECK (\"moods\""), "no CHECK of an enum's raw values on an array column")
        let postgres = try render(body, file: "postgres/schema.sql")
        expectFragment(#""tags" TEXT[] NOT NULL,"#, in: postgres)
        expectFragment(#""ratings" INTEGER[] NOT NULL DEFAULT '{}',"#, in: postgres)
        expectFragment(#""moods" TEXT[],"#, in: postgres)
        expectFragment(#""scores" SMALLINT[] NOT NULL,"#, in: postgres)
    }

    @Test func anArrayFieldAddedToATableFillsItsRowsWithTheEmptyArray() throws {
        let first = "entities:\n  Post:\n    fields:\n      id: UUID\n"
        let second = "entities:\n  Post:\n    fields:\n      id: UUID\n      tags: { type: \"[String]\", default: [] }\n"
        expectFragment(
            #"ALTER TABLE "post" ADD COLUMN "tags" TEXT NOT NULL DEFAULT '[]';"#,
            in: try render(first, then: second, file: "sqlite/migrations/v2.sql"))
        expectFragment(
            #"ALTER TABLE "post" ADD COLUMN "tags" TEXT[] NOT NULL DEFAULT '{}';"#,
            in: try render(first, then: second, file: "postgres/migrations/v2.sql"))
        let enumArray = "enums:\n  Tag: { type: String, cases: [a] }\nentities:\n  Post:\n    fields:\n      id: UUID\n      tags: { type: \"[Tag]\", default: [] }\n"
        let unchanged = try render(second, then: enumArray, file: "sqlite/migrations/v2.sql")
        #expect(!unchanged.contains("tags"), "[String] to an array of a String enum keeps the column: \(unchanged)")
    }

    @Test func aFieldThatBecomesAValueTypeStoredAlikeChangesNoColumn() throws {
        let first = "entities:\n  Item:\n    fields:\n      id: UUID\n      price: Int64\n"
        let second = "types:\n  Cents: Int64\nentities:\n  Item:\n    fields:\n      id: UUID\n      price: Cents\n"
        let migration = try render(first, then: second, file: "sqlite/migrations/v2.sql")
        #expect(!migration.contains("price"), "\(migration)")
        let widened = "types:\n  Cents: Int32\nentities:\n  Item:\n    fields:\n      id: UUID\n      price: Cents\n"
        let narrowed = try render(widened, then: second, file: "sqlite/migrations/v2.sql")
        #expect(narrowed.contains("price"), "a storage that changes is a type change: \(narrowed)")
    }

    @Test func compositeAndKeywordKeysGetLabeledMethods() throws {
        let swift = try render(
            """
            entities:
              Cell:
                primaryKey: [row, default]
                fields:
                  row: Int16
                  default: Int
                  value: Double
            """, file: "SnipRepositories.swift")
        let records = try render(
            """
            entities:
              Cell:
                primaryKey: [row, default]
                fields:
                  row: Int16
                  default: Int
                  value: Double
            """, file: "SnipRecords.swift")
        expectFragment("    public var strataKey: (Int16, Int)? { (row, `default`) }", in: records)
        expectFragment(
            """
                public static func bind(key: (Int16, Int), to binder: inout some StrataValueBinder) throws {
                    try key.0.bind(to: &binder)
                    try key.1.bind(to: &binder)
                }
            """, in: records)
        expectFragment(
            """
                /// The record with this key, or nil.
                public func find(row: Int16, default `default`: Int) throws -> Cell? {
                    try find(id: (row, `default`))
                }
            """, in: swift)
        expectFragment(
            """
            extension SQLiteRepository where Record == Cell {
                /// The record with this key (nil while there is none), now and after every change to it.
                public func observe(row: Int16, default `default`: Int) -> AsyncValueObservation<Cell?> {
                    observe(id: (row, `default`))
                }
            }
            """, in: swift)
    }

    @Test func referencesAndToManyAreRuntimeQueries() throws {
        let swift = try render(
            """
            entities:
              Writer:
                fields:
                  id: UUID
                hasMany:
                  posts: { entity: Post, via: author }
              Post:
                fields:
                  id: UUID
                  author: Writer?
            """, file: "SnipRepositories.swift")
        expectFragment(
            """
                public func author(of record: Post) throws -> Writer? {
                    guard let key = record.author else { return nil }
                    return try find(Writer.self, id: key)
                }
            """, in: swift)
        expectFragment("            where: { ($0.author == key).and(filter?($0)) },", in: swift)
    }

    @Test func enumsConformWithTheirUnknownCase() throws {
        let swift = try render(
            """
            enums:
              Mood: { type: String, cases: [calm, busy], unknown: calm }
              Kind: { type: Int16, cases: [a, b] }
            entities:
              Day:
                fields:
                  id: UUID
                  mood: Mood
                  kind: Kind
            """, file: "SnipRepositories.swift")
        #expect(!swift.contains("extension Mood") && !swift.contains("extension Kind"), "the enums' conformance is shared")
        let records = try render(
            """
            enums:
              Mood: { type: String, cases: [calm, busy], unknown: calm }
              Kind: { type: Int16, cases: [a, b] }
            entities:
              Day:
                fields:
                  id: UUID
                  mood: Mood
                  kind: Kind
            """, file: "SnipRecords.swift")
        expectFragment(
            """
            extension Mood: StrataEnumColumnValue {
                /// A stored raw value that matches no case reads as `.calm`.
                public static var strataUnknownCase: Mood? { .calm }
            }

            extension Kind: StrataEnumColumnValue {}
            """, in: records)
    }

    @Test func enumsSpellOnlyTheRawValuesSwiftDoesNotSynthesize() throws {
        let models = try render(
            """
            enums:
              Mood: { type: String, cases: { calm: calm, busy: BUSY, open: open }, unknown: calm }
              Kind: { type: Int16, cases: [a, b] }
            entities:
              Day:
                fields:
                  id: UUID
                  mood: Mood
                  kind: Kind
            """, file: "SnipModels.swift")
        expectFragment(
            """
            public enum Mood: String, CaseIterable, Hashable, Sendable, Codable {
                case calm
                case busy = "BUSY"
                case `open`

            """, in: models)
        expectFragment(
            """
            public enum Kind: Int16, CaseIterable, Hashable, Sendable, Codable {
                case a = 0
                case b = 1
            }
            """, in: models)
        expectFragment("public init(value: String) {\n        self = Self(rawValue: value) ?? .calm\n    }", in: models)
        #expect(!models.contains("description"), "Swift prints a case by its name without one")
    }

    @Test func generatedCodeChecksItsRuntimeAPI() throws {
        let records = try render("entities:\n  A:\n    fields:\n      id: UUID\n", file: "SnipRecords.swift")
        let swift = try render("entities:\n  A:\n    fields:\n      id: UUID\n", file: "SnipDatabase.swift")
        expectFragment("private enum GeneratedForStrataRuntimeAPI\(StrataVersion.runtimeAPI): StrataRuntimeAPI\(StrataVersion.runtimeAPI) {}", in: records)
        expectFragment("    public var `as`: SQLiteRepository<A> {", in: swift)
    }

    @Test func dialectsSpellTypesAndDefaultsTheirOwnWay() throws {
        let body = """
            entities:
              Flag:
                fields:
                  id: { type: Int64, autoincrement: true }
                  on: { type: Bool, default: true }
                  at: { type: Date, default: "2024-01-31T12:00:00Z" }
            """
        let sqlite = try render(body, file: "sqlite/schema.sql")
        expectFragment(
            "\"id\" INTEGER NOT NULL CONSTRAINT \"flag_pkey\" PRIMARY KEY AUTOINCREMENT", in: sqlite)
        expectFragment("\"on\" INTEGER NOT NULL DEFAULT 1", in: sqlite)
        expectFragment("CHECK (\"on\" IN (0, 1))", in: sqlite)
        let postgres = try render(body, file: "postgres/schema.sql")
        expectFragment("\"id\" BIGINT GENERATED BY DEFAULT AS IDENTITY NOT NULL", in: postgres)
        expectFragment("\"on\" BOOLEAN NOT NULL DEFAULT TRUE", in: postgres)
        expectFragment("\"at\" TIMESTAMPTZ NOT NULL DEFAULT '2024-01-31 12:00:00+00'::TIMESTAMPTZ", in: postgres)
        expectFragment("CONSTRAINT \"flag_pkey\" PRIMARY KEY (\"id\")", in: postgres)
    }

    @Test func accessorsAndParameterNamesFollowTheNamingRules() throws {
        let body = """
            entities:
              TODOItem:
                fields:
                  id: UUID
                  title: String
                  _hidden: String
              ABC2:
                fields:
                  id: UUID
              URLValue:
                fields:
                  id: UUID
            """
        let database = try render(body, file: "SnipDatabase.swift")
        // Leading capitals lower-cased up to the next word (all of them before a digit or the end).
        expectFragment("    public var todoItems: SQLiteRepository<TODOItem> {", in: database)
        expectFragment("    public var abc2s: SQLiteRepository<ABC2> {", in: database)
        expectFragment("    public var urlValues: SQLiteRepository<URLValue> {", in: database)
        let repositories = try render(body, file: "SnipRepositories.swift")
        expectFragment("        title newTitle: String? = nil,", in: repositories)
        expectFragment("        _hidden new_hidden: String? = nil", in: repositories)
    }

    /// The SQL of a PostgreSQL migration's statements, without its comments.
    func statements(of file: String) -> String {
        file.split(separator: "\n").filter { !$0.hasPrefix("--") }.joined(separator: "\n")
    }

    @Test func postgresMigrationsTouchOnlyWhatChanges() throws {
        let first = """
            enums:
              Status: { type: String, cases: [open, closed] }
              Level: { type: Int16, cases: [low, high] }
            entities:
              Note:
                fields:
                  id: UUID
                  title: String
                  code: { type: String, unique: true }
                  status: Status
                  level: Level
            """
        // Status gains a case; everything else stays as it was.
        let grown = first.replacingOccurrences(of: "cases: [open, closed]", with: "cases: [open, closed, archived]")
        let sql = statements(of: try render(first, then: grown, file: "postgres/migrations/v2.sql"))
        expectFragment(#"ALTER TABLE "note" DROP CONSTRAINT "note_status_check";"#, in: sql)
        expectFragment(#"CHECK ("status" IN ('open', 'closed', 'archived'))"#, in: sql)
        for unchanged in ["title", "code", "level", "id"] {
            #expect(!sql.contains("\"\(unchanged)\""), "a statement concerns the unchanged '\(unchanged)':\n\(sql)")
        }
        // The table renamed: the constraints of the unchanged fields follow it.
        let renamed = first.replacingOccurrences(of: "  Note:\n", with: "  Memo:\n    renamedFrom: Note\n")
        let moved = statements(of: try render(first, then: renamed, file: "postgres/migrations/v2.sql"))
        expectFragment(#"ALTER TABLE "note" RENAME TO "memo";"#, in: moved)
        expectFragment(#"ALTER TABLE "memo" RENAME CONSTRAINT "note_code_key" TO "memo_code_key";"#, in: moved)
        expectFragment(#"ALTER TABLE "memo" RENAME CONSTRAINT "note_level_check" TO "memo_level_check";"#, in: moved)
    }
}
