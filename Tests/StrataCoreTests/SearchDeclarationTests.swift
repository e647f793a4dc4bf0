import Foundation
import StrataCore
import StrataTestSupport
import Testing

/// `search:` end to end in the generator: both spellings parsed, each change between versions a
/// typed step, the DDL and migration statements of each database, and the PostgreSQL rewrite warned.
@Suite struct SearchDeclarationTests {
    static func version(_ number: Int, search: String?, title: String = "title: String", migration: String = "") -> String {
        """
        model: Notes
        version: \(number)
        entities:
          Note:
            fields:
              id: { type: Int64, autoincrement: true }
              \(title)
              body: String?
        \(search.map { "    search: \($0)" } ?? "")
        \(migration)
        """
    }

    static func plan(_ versions: [String]) throws -> MigrationPlan {
        let history = try Models.temporary("Notes", versions: versions).history
        return MigrationPlanner.plan(from: history.versions[history.versions.count - 2], to: try #require(history.latest))
    }

    static func sql(_ plan: MigrationPlan, _ dialect: SQLDialect) -> [String] {
        MigrationSQLRenderer.statements(for: plan, dialect: dialect).map(\.sql)
    }

    @Test func theShorthandAndTheLongFormAreParsedWithSimpleByDefault() throws {
        let history = try Models.temporary(
            "Notes", versions: [Self.version(1, search: "[title]"), Self.version(2, search: "{ fields: [title, body], language: english }")]
        ).history
        let first = try #require(history.versions[0].entity(named: "Note")?.search)
        #expect(first.fields == ["title"])
        #expect(first.language == .simple)
        #expect(first.location.line == 9)
        let second = try #require(history.latest?.entity(named: "Note")?.search)
        #expect(second.fields == ["title", "body"])
        #expect(second.language == .english)
    }

    @Test func addingASearchCreatesItOnBothDatabasesAndIsWarnedOnPostgres() throws {
        let plan = try Self.plan([Self.version(1, search: nil), Self.version(2, search: "[title, body]")])
        #expect(plan.steps.map(\.line) == ["add full-text search of Note (title, body; simple)"])
        let sqlite = Self.sql(plan, .sqlite)
        #expect(sqlite.first?.hasPrefix("CREATE VIRTUAL TABLE \"note_search\" USING fts5(\"title\", \"body\", content = 'note'") == true)
        #expect(sqlite.contains { $0.contains("tokenize = 'unicode61 remove_diacritics 2'") })
        #expect(sqlite.filter { $0.hasPrefix("CREATE TRIGGER") }.count == 3)
        #expect(sqlite.last == "INSERT INTO \"note_search\"(\"note_search\") VALUES ('rebuild')")
        let postgres = Self.sql(plan, .postgres)
        #expect(postgres.contains("ALTER TABLE \"note\" ADD COLUMN \"note_search\" tsvector"))
        #expect(postgres.contains { $0.hasPrefix("CREATE OR REPLACE FUNCTION \"strata_search_note\"()") && $0.contains("NEW.\"note_search\" := to_tsvector('simple'::regconfig, NEW.\"title\" || ' ' || coalesce(NEW.\"body\", ''));") })
        #expect(postgres.contains("CREATE TRIGGER \"strata_search_note\" BEFORE INSERT OR UPDATE OF \"title\", \"body\" ON \"note\" FOR EACH ROW EXECUTE FUNCTION \"strata_search_note\"()"))
        #expect(postgres.contains("UPDATE \"note\" SET \"note_search\" = to_tsvector('simple'::regconfig, \"title\" || ' ' || coalesce(\"body\", ''))"))
        #expect(postgres.last == "CREATE INDEX \"note_search_idx\" ON \"note\" USING GIN (\"note_search\")")
        #expect(!postgres.contains { $0.contains("GENERATED") }, "no stored generated column: that would rewrite the table")
        #expect(plan.postgresLock(of: try #require(plan.steps.first)).work == .updatesRows)
        func inM(_ text: String) -> String { text.replacingOccurrences(of: "model: Notes", with: "model: M") }
        let warned = try LockWarningTests.diagnosticsOf(
            ["v1.yaml": inM(Self.version(1, search: nil)), "v2.yaml": inM(Self.version(2, search: "[title]"))])
        #expect(warned.contains { $0.contains("adding the full-text search column of 'Note' updates rows of table 'note'") && $0.contains("allowLocks: [Note]") }, "\(warned)")
        let acknowledged = try LockWarningTests.diagnosticsOf(
            [
                "v1.yaml": inM(Self.version(1, search: nil)),
                "v2.yaml": inM(Self.version(2, search: "[title]", migration: "migration:\n  allowLocks: [Note]")),
            ])
        #expect(acknowledged.isEmpty, "\(acknowledged)")
    }

    @Test func changingTheFieldsOrLanguageDropsAndCreatesAgain() throws {
        let plan = try Self.plan([
            Self.version(1, search: "[title]"), Self.version(2, search: "{ fields: [title], language: english }"),
        ])
        #expect(plan.steps.map(\.line) == ["change full-text search of Note from (title; simple) to (title; english)"])
        let sqlite = Self.sql(plan, .sqlite)
        #expect(sqlite.prefix(4) == [
            "DROP TRIGGER IF EXISTS \"strata_search_note_insert\"", "DROP TRIGGER IF EXISTS \"strata_search_note_update\"",
            "DROP TRIGGER IF EXISTS \"strata_search_note_delete\"", "DROP TABLE IF EXISTS \"note_search\"",
        ])
        #expect(sqlite.contains { $0.contains("tokenize = 'porter unicode61 remove_diacritics 2'") })
        let postgres = Self.sql(plan, .postgres).filter { !$0.hasPrefix("LOCK TABLE") }
        #expect(postgres.prefix(3) == [
            "DROP TRIGGER IF EXISTS \"strata_search_note\" ON \"note\"", "DROP FUNCTION IF EXISTS \"strata_search_note\"()",
            "ALTER TABLE \"note\" DROP COLUMN \"note_search\"",
        ])
        #expect(postgres.contains { $0.contains("to_tsvector('english'::regconfig, \"title\")") })
    }

    @Test func droppingItDropsTheTableAndTriggersOrTheColumn() throws {
        let plan = try Self.plan([Self.version(1, search: "[title]"), Self.version(2, search: nil)])
        #expect(plan.steps.map(\.line) == ["drop full-text search of Note (title; simple)"])
        #expect(Self.sql(plan, .sqlite).filter { !$0.hasPrefix("PRAGMA") }.count == 4)
        #expect(
            Self.sql(plan, .postgres) == [
                "DROP TRIGGER IF EXISTS \"strata_search_note\" ON \"note\"", "DROP FUNCTION IF EXISTS \"strata_search_note\"()",
                "ALTER TABLE \"note\" DROP COLUMN \"note_search\"",
            ])
    }

    @Test func aRenamedSearchedFieldCarriesThrough() throws {
        let plan = try Self.plan([
            Self.version(1, search: "[title, body]"),
            Self.version(2, search: "[heading, body]", title: "heading: { type: String, renamedFrom: title }"),
        ])
        #expect(!plan.steps.contains { if case .searchChanged = $0.change { true } else { false } })
        // PostgreSQL keeps the column and its index; the trigger follows the renamed column, the
        // function that names it is replaced.
        let postgres = Self.sql(plan, .postgres)
        #expect(postgres.first == "ALTER TABLE \"note\" RENAME COLUMN \"title\" TO \"heading\"")
        #expect(postgres.count == 2)
        #expect(postgres.last?.hasPrefix("CREATE OR REPLACE FUNCTION \"strata_search_note\"()") == true)
        #expect(postgres.last?.contains("NEW.\"heading\"") == true)
        // SQLite's FTS5 table names its columns: made again over the new name, and filled.
        let sqlite = Self.sql(plan, .sqlite)
        #expect(sqlite.contains("ALTER TABLE \"note\" RENAME COLUMN \"title\" TO \"heading\""))
        #expect(sqlite.contains { $0.hasPrefix("CREATE VIRTUAL TABLE \"note_search\" USING fts5(\"heading\", \"body\"") })
        #expect(sqlite.last == "INSERT INTO \"note_search\"(\"note_search\") VALUES ('rebuild')")
    }

    @Test func aRebuiltSQLiteTableGetsItsTriggersAgain() throws {
        let plan = try Self.plan([
            Self.version(1, search: "[title]"),
            Self.version(2, search: "[title]", title: "title: { type: String, default: \"untitled\" }"),
        ])
        #expect(MigrationSQLRenderer.sqliteRebuiltEntities(for: plan) == ["Note"])
        let sqlite = Self.sql(plan, .sqlite)
        #expect(sqlite.filter { $0.hasPrefix("CREATE TRIGGER") }.count == 3)
        #expect(sqlite.last == "INSERT INTO \"note_search\"(\"note_search\") VALUES ('rebuild')")
        #expect(!Self.sql(plan, .postgres).contains { $0.contains("note_search") })
    }

    @Test func aNewVersionOfAModelWithoutSearchRendersNoSearchSQL() throws {
        let plan = try Self.plan([Self.version(1, search: nil), Self.version(2, search: nil, title: "title: String?")])
        #expect(!(Self.sql(plan, .sqlite) + Self.sql(plan, .postgres)).contains { $0.contains("_search") })
    }
}
