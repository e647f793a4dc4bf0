import Foundation
import StrataCore
import StrataTestSupport
import Testing

/// Named SQL queries (`Schemas/<Model>/queries/*.sql`): checked on SQLite against the latest
/// version at generate time, typed, and every bad input a located error with nothing written.
@Suite struct NamedQueryTests {
    /// A copy of Schemas/MyTODO (with its queries) in a temporary folder, and an output folder.
    struct Sandbox {
        let root: URL
        var schemas: String { root.appendingPathComponent("Schemas").path }
        var output: String { root.appendingPathComponent("Generated").path }
        var queries: URL { root.appendingPathComponent("Schemas/MyTODO/queries") }

        init() throws {
            root = try TestPaths.temporaryFolder()
            try FileManager.default.createDirectory(
                at: root.appendingPathComponent("Schemas"), withIntermediateDirectories: true)
            try FileManager.default.copyItem(
                at: TestPaths.schemas.appendingPathComponent("MyTODO"),
                to: root.appendingPathComponent("Schemas/MyTODO"))
        }

        /// Replaces the query files with one file, `bad.sql`, holding `text`.
        func queries(_ text: String) throws {
            try FileManager.default.removeItem(at: queries)
            try FileManager.default.createDirectory(at: queries, withIntermediateDirectories: true)
            try text.write(to: queries.appendingPathComponent("bad.sql"), atomically: true, encoding: .utf8)
        }

        var badFile: String { queries.appendingPathComponent("bad.sql").path }

        /// The errors of `generate`, as `line:column: message` in `bad.sql`; asserts nothing was written.
        func errors() throws -> [String] {
            let outcome = try Workspace.generate(schemas: schemas, output: output)
            #expect(outcome.hasErrors)
            #expect(!FileManager.default.fileExists(atPath: output), "nothing is written on error")
            #expect(Workspace.plan(schemas: schemas, output: output).hasErrors, "check fails too")
            return outcome.diagnostics.filter { $0.severity == .error }.map {
                $0.location.file == badFile
                    ? "\($0.location.line):\($0.location.column): \($0.message)" : "\($0.location): \($0.message)"
            }
        }
    }

    @Test func theTODOAppsQueriesAreTyped() throws {
        let history = try #require(SchemaLoader.loadAll(from: TestPaths.schemas.path).histories.first)
        let queries = Dictionary(uniqueKeysWithValues: history.queries.map { ($0.source.name, $0) })
        let filtered = try #require(queries["filteredItems"])
        #expect(filtered.parameters == [.init(name: "isDone", swiftType: "Bool")])
        #expect(filtered.result == .entity("TODOItem"))
        #expect(filtered.isReadOnly)
        #expect(filtered.postgresSQL.contains("WHERE is_done = $1\n"))
        let counts = try #require(queries["openCountsByPriority"])
        #expect(counts.parameters.isEmpty)
        #expect(
            counts.result
                == .rows(
                    type: "OpenCountsByPriorityRow",
                    columns: [.init(name: "priority", swiftType: "Priority"), .init(name: "count", swiftType: "Int")]))
        let search = try #require(queries["search"])
        #expect(
            search.parameters == [.init(name: "pattern", swiftType: "String"), .init(name: "limit", swiftType: "Int")])
        #expect(search.postgresSQL.contains("WHERE title LIKE $1\nORDER BY title\nLIMIT $2"))
        #expect(
            search.result
                == .rows(
                    type: "SearchRow",
                    columns: [
                        .init(name: "id", swiftType: "UUID"), .init(name: "title", swiftType: "String"),
                        .init(name: "note", swiftType: "String"),
                    ]))
        let markAllDone = try #require(queries["markAllDone"])
        #expect(markAllDone.parameters == [.init(name: "priority", swiftType: "Priority")])
        #expect(markAllDone.result == .changes)
        #expect(!markAllDone.isReadOnly)
    }

    @Test func generatedOutputHasAQueriesFilePerDatabaseAndSharedRows() throws {
        let history = try #require(SchemaLoader.loadAll(from: TestPaths.schemas.path).histories.first)
        func swiftFiles(_ databases: [SQLDialect]) -> [String: String] {
            Dictionary(
                uniqueKeysWithValues: Generator.files(for: history, databases: databases).filter {
                    $0.path.hasSuffix(".swift")
                }.map { (String($0.path.split(separator: "/").last ?? ""), $0.contents) })
        }
        let sqlite = swiftFiles([.sqlite])
        let postgres = swiftFiles([.postgres])
        #expect(sqlite["MyTODOPostgresQueries.swift"] == nil)
        #expect(postgres["MyTODOQueries.swift"] == nil)
        // A SQLite-only target never imports PostgresNIO, a PostgreSQL-only one never GRDB.
        #expect(!sqlite.values.contains { $0.contains("import StrataPostgres") })
        #expect(!postgres.values.contains { $0.contains("import StrataSQLite") })
        // The row types are shared, written once with no database's module.
        let rows = try #require(sqlite["MyTODOQueryRows.swift"])
        #expect(postgres["MyTODOQueryRows.swift"] == rows)
        // Nested in the model's queries enum, which the rows file declares once for every database.
        #expect(rows.contains("public enum MyTODOQueries {\n    /// A row of `openCountsByPriority`"))
        #expect(rows.contains("\n    public struct SearchRow: Hashable, Sendable, StrataRowDecodable {\n"))
        #expect(rows.contains("public init(row: inout some StrataRowReader) throws {"), "read the same way on every database")
        #expect(!rows.contains("\npublic struct"))
        for files in [sqlite, postgres, swiftFiles([.sqlite, .postgres])] {
            let declarations = files.values.map { $0.components(separatedBy: "public enum MyTODOQueries ").count - 1 }
            #expect(declarations.reduce(0, +) == 1, "\(files.keys.sorted())")
        }
        #expect(!rows.contains("import StrataSQLite") && !rows.contains("import StrataPostgres"))

        let sqliteQueries = try #require(sqlite["MyTODOQueries.swift"])
        #expect(sqliteQueries.contains("public func filteredItems(isDone: Bool) throws -> [TODOItem] {"))
        #expect(sqliteQueries.contains("WHERE is_done = :isDone"), "the SQL is embedded as written: values are bound")
        #expect(sqliteQueries.contains("\nextension MyTODOQueries {\n    /// `filteredItems`"), "SQLite's SQL in the same enum")
        #expect(sqliteQueries.contains("public func search(pattern: String, limit: Int) throws -> [MyTODOQueries.SearchRow] {"))
        let postgresQueries = try #require(postgres["MyTODOPostgresQueries.swift"])
        #expect(postgresQueries.contains("public func filteredItems(isDone: Bool) async throws -> [TODOItem] {"))
        #expect(postgresQueries.contains("WHERE is_done = $1"), "PostgreSQL's numbered parameters, bound")
        #expect(postgresQueries.contains("WHERE title LIKE $1\n        ORDER BY title\n        LIMIT $2"))
        #expect(postgresQueries.contains("\npublic enum MyTODOPostgresQueries {\n"))
        #expect(
            postgresQueries.contains(
                "public func search(pattern: String, limit: Int) async throws -> [MyTODOQueries.SearchRow] {"))
        #expect(postgresQueries.contains("try await write { try await $0.markAllDone(priority: priority) }"))
    }

    @Test func parameterTypesComeFromTheColumnsTheyMeet() throws {
        let sandbox = try Sandbox()
        try sandbox.queries(
            """
            -- name: mixed
            -- param: since Int
            SELECT t.title FROM todo_item AS t
            WHERE :prio < t.priority AND t.id IN (:a, :b) AND t.title BETWEEN :low AND :high
              AND t.detail IS :detail AND :since > 0
            -- name: add
            INSERT INTO todo_item (id, title, detail, is_done, priority) VALUES (:id, :title, '', :done, 2)
            """)
        let history = try #require(SchemaLoader.loadAll(from: sandbox.schemas).histories.first)
        let mixed = try #require(history.queries.first { $0.source.name == "mixed" })
        #expect(
            mixed.parameters.map { "\($0.name): \($0.swiftType)" } == [
                "prio: Priority", "a: UUID", "b: UUID", "low: String", "high: String", "detail: String?", "since: Int",
            ])
        let add = try #require(history.queries.first { $0.source.name == "add" })
        #expect(add.parameters.map { "\($0.name): \($0.swiftType)" } == ["id: UUID", "title: String", "done: Bool"])
    }

    @Test func aSyntaxErrorIsSQLitesMessageAtItsPosition() throws {
        let sandbox = try Sandbox()
        try sandbox.queries("-- name: broken\nSELECT title\nFROM todo_item\nWHER is_done = :isDone\n")
        #expect(try sandbox.errors() == [#"4:6: near "is_done": syntax error"#])
    }

    @Test func anUnknownColumnIsAnErrorAtTheColumn() throws {
        let sandbox = try Sandbox()
        try sandbox.queries("-- name: broken\n-- A doc line.\n  SELECT title, colour FROM todo_item\n")
        #expect(try sandbox.errors() == ["3:17: no such column: colour"])
    }

    @Test func aParameterUsedWithTwoTypesIsAnError() throws {
        let sandbox = try Sandbox()
        try sandbox.queries("-- name: broken\nSELECT title FROM todo_item WHERE is_done = :value OR title = :value\n")
        #expect(
            try sandbox.errors() == [
                "2:63: parameter ':value' is used as String here and as Bool at 2:45; use two parameters, or declare its type with '-- param: value <Type>'"
            ])
    }

    @Test func aDuplicateQueryNameIsAnError() throws {
        let sandbox = try Sandbox()
        try sandbox.queries("-- name: twice\nSELECT 1 AS \"one: Int\"\n\n-- name: twice\nSELECT 2 AS \"two: Int\"\n")
        let errors = try sandbox.errors()
        #expect(errors.count == 1)
        #expect(errors.first?.hasPrefix("4:10: a second query named 'twice' (the first is at ") == true)
    }

    @Test func aResultColumnThatIsNoIdentifierIsAnError() throws {
        let sandbox = try Sandbox()
        try sandbox.queries("-- name: broken\nSELECT title AS \"the title\" FROM todo_item\n")
        #expect(
            try sandbox.errors() == [
                "2:17: result column 'the title' is not a Swift identifier: name it with AS (e.g. AS theTitle)"
            ])
    }

    /// Without a row type the rows file still declares the model's queries enum, which SQLite's
    /// queries file extends with the SQL: declared once, on either database or both.
    @Test func theQueriesEnumIsDeclaredWhenNoQueryHasARowType() throws {
        let sandbox = try Sandbox()
        try sandbox.queries(
            "-- name: open\nSELECT * FROM todo_item WHERE is_done = FALSE\n\n-- name: clear\nDELETE FROM todo_item\n")
        let history = try #require(SchemaLoader.loadAll(from: sandbox.schemas).histories.first)
        for databases in [[SQLDialect.sqlite], [.postgres], [.sqlite, .postgres]] {
            let swift = Generator.files(for: history, databases: databases).filter { $0.path.hasSuffix(".swift") }
            let rows = try #require(swift.first { $0.path.hasSuffix("MyTODOQueryRows.swift") }?.contents)
            #expect(
                rows.hasSuffix(
                    "public enum MyTODOQueries {\n    // Every named query of MyTODO returns records or a count: none has a row type.\n}\n"))
            #expect(swift.map { $0.contents.components(separatedBy: "public enum MyTODOQueries ").count - 1 }.reduce(0, +) == 1)
            let sqlite = swift.first { $0.path.hasSuffix("/MyTODOQueries.swift") }?.contents
            #expect(sqlite.map { $0.contains("\nextension MyTODOQueries {\n") } ?? !databases.contains(.sqlite))
        }
    }

    @Test func snakeCaseAndKeywordResultNamesBecomeSwiftNames() throws {
        let sandbox = try Sandbox()
        try sandbox.queries(
            "-- name: names\nSELECT title AS item_title, detail AS \"default\", priority AS \"p?\" FROM todo_item\n")
        let history = try #require(SchemaLoader.loadAll(from: sandbox.schemas).histories.first)
        let query = try #require(history.queries.first)
        #expect(
            query.result
                == .rows(
                    type: "NamesRow",
                    columns: [
                        .init(name: "itemTitle", swiftType: "String"), .init(name: "default", swiftType: "String"),
                        .init(name: "p", swiftType: "Priority?"),
                    ]))
    }

    @Test func aQueryNameTakenByTheDatabaseTypeIsAnError() throws {
        let sandbox = try Sandbox()
        try sandbox.queries("-- name: todoItems\nSELECT title FROM todo_item\n")
        #expect(
            try sandbox.errors() == [
                "1:10: the query name 'todoItems' is taken by a member of MyTODODatabase and MyTODOAccess; rename the query"
            ])
    }

    @Test func aParameterThatCannotBeAnArgumentIsAnErrorAtItsColumn() throws {
        let sandbox = try Sandbox()
        try sandbox.queries("-- name: byTitle\nSELECT * FROM todo_item\nWHERE title = :_\n")
        #expect(
            try sandbox.errors() == [
                "3:15: parameter ':_' cannot be the function's argument label: '_' means an argument without a label in Swift; rename it (e.g. ':value')"
            ])
        try sandbox.queries("-- name: byPriority\nSELECT * FROM todo_item\n  WHERE priority = ? OR title = @t\n")
        #expect(
            try sandbox.errors() == [
                "3:20: write parameters as ':name' (an anonymous '?' is not): the name is the function's argument label",
                "3:33: write parameters as ':name' ('@t' is not): the name is the function's argument label",
            ])
        // Keywords are usable parameters: in backticks where Swift needs them.
        try sandbox.queries(
            "-- name: byKeywords\nSELECT * FROM todo_item WHERE title = :self AND detail = :inout AND is_done = :default\n")
        let history = try #require(SchemaLoader.loadAll(from: sandbox.schemas).histories.first)
        #expect(
            history.queries.first?.parameters == [
                .init(name: "self", swiftType: "String"), .init(name: "inout", swiftType: "String"),
                .init(name: "default", swiftType: "Bool"),
            ])
        let swift = StrataCore.Generator.files(for: history, databases: [.sqlite])
            .filter { $0.path.hasSuffix("Queries.swift") }.map(\.contents).joined()
        #expect(swift.contains("$0.byKeywords(self: `self`, `inout`: `inout`, default: `default`)"), "\(swift)")
    }

    @Test func generateFailsOnAnUnderscoreParameterAndWritesNothing() throws {
        let sandbox = try Sandbox()
        try sandbox.queries("-- name: byTitle\nSELECT * FROM todo_item WHERE title = :_\n")
        let result = try CLI.strata(["generate", "--schemas", sandbox.schemas, "--output", sandbox.output])
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.contains("bad.sql:2:39: error: parameter ':_'"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: sandbox.output))
    }

    @Test func anExpressionNeedsADeclaredType() throws {
        let sandbox = try Sandbox()
        try sandbox.queries("-- name: total\nSELECT count(*) AS total FROM todo_item\n")
        #expect(
            try sandbox.errors() == [
                #"2:20: cannot infer the type of result column 'total': declare it with AS "total: Type" (e.g. AS "count: Int")"#
            ])
    }

    @Test func aParameterWithoutAColumnNeedsADeclaredType() throws {
        let sandbox = try Sandbox()
        try sandbox.queries("-- name: broken\nSELECT title FROM todo_item WHERE length(title) > 3 + :n\n")
        #expect(
            try sandbox.errors() == [
                "2:55: cannot infer the type of ':n': compare it with a column ('column = :n') or declare it after the name line: '-- param: n <Type>'"
            ])
    }

    @Test func twoStatementsInOneQueryAreAnError() throws {
        let sandbox = try Sandbox()
        try sandbox.queries("-- name: broken\nDELETE FROM todo_item;\nDELETE FROM todo_item\n")
        #expect(
            try sandbox.errors() == [
                "3:1: a query is one statement; this starts a second one: give it its own '-- name:' line"
            ])
    }

    @Test func theBuildPluginsToolWritesTheQueriesFileAndFailsAtABrokenQuery() throws {
        let sandbox = try Sandbox()
        let model = sandbox.root.appendingPathComponent("Schemas/MyTODO").path
        let output = sandbox.root.appendingPathComponent("PluginOutput")
        let arguments = ["build-plugin", "--model-folder", model, "--output", output.path, "--databases", "sqlite"]
        let built = try CLI.run("strata-generator", arguments)
        #expect(built.status == 0, "\(built.stderr)")
        let written = TestPaths.files(under: output)
        #expect(written.contains("MyTODO/Swift/MyTODOQueries.swift"), "\(written)")
        #expect(written.contains("MyTODO/Swift/MyTODOQueryRows.swift"), "\(written)")
        // A PostgreSQL-only target gets its queries file, and no SQLite one.
        let postgresOutput = sandbox.root.appendingPathComponent("PostgresPluginOutput")
        let postgresArguments = [
            "build-plugin", "--model-folder", model, "--output", postgresOutput.path, "--databases", "postgres",
        ]
        let builtForPostgres = try CLI.run("strata-generator", postgresArguments)
        #expect(builtForPostgres.status == 0, "\(builtForPostgres.stderr)")
        let writtenForPostgres = TestPaths.files(under: postgresOutput)
        #expect(
            Set(writtenForPostgres.filter { $0.hasSuffix(".swift") })
                == Set(OutputLayout.swiftFiles(model: "MyTODO", databases: ["postgres"], hasQueries: true).map {
                    "MyTODO/Swift/" + $0
                }), "\(writtenForPostgres)")
        #expect(writtenForPostgres.contains("MyTODO/Swift/MyTODOPostgresQueries.swift"))
        #expect(!writtenForPostgres.contains("MyTODO/Swift/MyTODOQueries.swift"))
        // A query that no longer compiles: the tool fails at its line, and `check` too.
        let items = sandbox.queries.appendingPathComponent("items.sql")
        let text = try String(contentsOf: items, encoding: .utf8)
        try text.replacingOccurrences(of: "detail AS note", with: "details AS note").write(
            to: items, atomically: true, encoding: .utf8)
        let broken = try CLI.run("strata-generator", arguments)
        #expect(broken.status == 1)
        #expect(broken.stderr.contains("queries/items.sql:22:19: error: no such column: details"), "\(broken.stderr)")
        let check = try CLI.strata(["check", "--schemas", sandbox.schemas, "--output", sandbox.output])
        #expect(check.status == 1)
        #expect(check.stderr.contains("queries/items.sql:22:19: error: no such column: details"), "\(check.stderr)")
    }

    /// Mutated query files (a fixed seed) load and render, or fail with errors located in the
    /// query file; never a crash.
    @Test func mutatedQueryFilesFailWithLocatedErrorsOrRender() throws {
        let sandbox = try Sandbox()
        let original = try String(
            contentsOf: TestPaths.schemas.appendingPathComponent("MyTODO/queries/items.sql"), encoding: .utf8)
        let pieces = [
            ":", ":x", "-- name: q", "-- param: x Int", "'", "\"", "(", ")", ";", "?", "@a", "$1", "AS \"a: Int\"",
            "LEFT JOIN", "JOIN todo_item t ON", "IN (", "BETWEEN", "LIKE", "LIMIT", "VALUES (", "is_done", "t.", ".",
            "é", "\u{0}", "--", "/*", "*/", " ", "\n", "SELECT", "UPDATE todo_item SET",
            "INSERT INTO todo_item (title)",
        ]
        var random = SchemaFuzzTests.Generator(state: 14)
        for _ in 0..<150 {
            var scalars = Array(original.unicodeScalars)
            for _ in 0...random.below(4) {
                let at = random.below(scalars.count + 1)
                switch random.below(3) {
                case 0: scalars.insert(contentsOf: pieces[random.below(pieces.count)].unicodeScalars, at: at)
                case 1:
                    if at < scalars.count { scalars.removeSubrange(at..<min(scalars.count, at + 1 + random.below(12))) }
                default:
                    if at < scalars.count {
                        scalars[at] = pieces[random.below(pieces.count)].unicodeScalars.first ?? " "
                    }
                }
            }
            let text = String(String.UnicodeScalarView(scalars))
            try sandbox.queries(text)
            let (history, _, diagnostics) = SchemaLoader.loadModel(named: "MyTODO", in: sandbox.schemas)
            let errors = diagnostics.filter { $0.severity == .error }
            for error in errors {
                #expect(error.location.file == sandbox.badFile, "\(error) in:\n\(text)")
                #expect(error.location.line >= 1 && error.location.column >= 1)
            }
            if errors.isEmpty, let history {
                _ = Generator.files(for: history, databases: [.sqlite])
            }
        }
    }

    @Test func aSchemaChangeThatBreaksAQueryFailsGenerateAtTheQuerysLine() throws {
        let sandbox = try Sandbox()
        // v4 renames `detail`; the TODO app's `search` query still selects it.
        let v3 = try String(contentsOf: sandbox.root.appendingPathComponent("Schemas/MyTODO/v3.yaml"), encoding: .utf8)
        let v4 = v3.replacingOccurrences(of: "version: 3", with: "version: 4")
            .replacingOccurrences(
                of: "detail: { type: String, default: \"\" }",
                with: "notes: { type: String, default: \"\", renamedFrom: detail }")
        #expect(v4 != v3)
        try v4.write(
            to: sandbox.root.appendingPathComponent("Schemas/MyTODO/v4.yaml"), atomically: true, encoding: .utf8)
        let outcome = try Workspace.generate(schemas: sandbox.schemas, output: sandbox.output)
        let errors = outcome.diagnostics.filter { $0.severity == .error }.map {
            "\(SchemaLoader.name(of: $0.location.file)):\($0.location.line): \($0.message)"
        }
        #expect(errors == ["items.sql:22: no such column: detail"])
        #expect(!FileManager.default.fileExists(atPath: sandbox.output))
    }
}

/// How a named query's `:name` parameters become PostgreSQL's `$n`.
@Suite struct PostgresParameterNumberingTests {
    @Test func aRepeatedNameKeepsItsNumber() {
        #expect(
            AnalyzedQuery.postgresSQL(
                "SELECT * FROM t WHERE a = :x OR b = :y OR c = :x", parameters: ["x", "y"])
                == "SELECT * FROM t WHERE a = $1 OR b = $2 OR c = $1")
    }

    @Test func castsLiteralsQuotedNamesAndCommentsAreLeftAsTheyAre() {
        let sql = """
            SELECT a::text, ':x' AS "b:x", 'it''s :y' -- :x
            FROM t /* :y */ WHERE a = :x::int AND b = :y AND c = ':y'
            """
        #expect(
            AnalyzedQuery.postgresSQL(sql, parameters: ["x", "y"])
                == """
                SELECT a::text, ':x' AS "b:x", 'it''s :y' -- :x
                FROM t /* :y */ WHERE a = $1::int AND b = $2 AND c = ':y'
                """)
    }

    @Test func namesAreWholeTokensAndUnicodeKeepsItsOffsets() {
        #expect(
            AnalyzedQuery.postgresSQL("SELECT 'é' WHERE a = :xy AND b = :x", parameters: ["x", "xy"])
                == "SELECT 'é' WHERE a = $2 AND b = $1")
        #expect(AnalyzedQuery.postgresSQL("SELECT :unknown", parameters: []) == "SELECT :unknown")
    }
}
