import Foundation
import StrataCore
import StrataTestSupport
import Testing

/// The stars of a named query's result written out in the SQL PostgreSQL runs: generated code
/// reads result columns by position, and a PostgreSQL table's columns are not always in declaration
/// order (a column added by a migration, or a type change swapped through a shadow column, comes
/// last).
@Suite struct QueryStarExpansionTests {
    /// The PostgreSQL SQL of each query of `text` against MyTODO's latest version.
    static func postgresSQL(_ text: String) throws -> [String: String] {
        let sandbox = try NamedQueryTests.Sandbox()
        try sandbox.queries(text)
        let history = try #require(SchemaLoader.loadAll(from: sandbox.schemas).histories.first)
        return Dictionary(uniqueKeysWithValues: history.queries.map { ($0.source.name, $0.postgresSQL) })
    }

    static let columns = ["id", "title", "detail", "is_done", "priority"]

    @Test func aStarBecomesTheColumnsInDeclarationOrder() throws {
        let sql = try Self.postgresSQL(
            """
            -- name: all
            SELECT * FROM todo_item WHERE is_done = :done
            -- name: aliased
            SELECT t.*, u.title AS other FROM todo_item AS t JOIN todo_item u ON u.priority = t.priority
            -- name: both
            SELECT DISTINCT * FROM todo_item a WHERE a.priority > 1
            -- name: done
            UPDATE todo_item SET is_done = 1 WHERE id = :id RETURNING *
            """)
        let all = Self.columns.map { "todo_item.\"\($0)\"" }.joined(separator: ", ")
        #expect(sql["all"] == "SELECT \(all) FROM todo_item WHERE is_done = $1")
        let t = Self.columns.map { "t.\"\($0)\"" }.joined(separator: ", ")
        #expect(sql["aliased"] == "SELECT \(t), u.title AS other FROM todo_item AS t JOIN todo_item u ON u.priority = t.priority")
        let a = Self.columns.map { "a.\"\($0)\"" }.joined(separator: ", ")
        #expect(sql["both"] == "SELECT DISTINCT \(a) FROM todo_item a WHERE a.priority > 1")
        let returning = Self.columns.map { "\"\($0)\"" }.joined(separator: ", ")
        #expect(sql["done"] == "UPDATE todo_item SET is_done = 1 WHERE id = $1 RETURNING \(returning)")
    }

    @Test func aQueryWhoseSQLChangesRunsTheNewSQL() throws {
        let history = try #require(SchemaLoader.loadAll(from: TestPaths.schemas.path).histories.first)
        var query = try #require(history.queries.first { $0.source.name == "filteredItems" })
        #expect(query.expandedSQL != nil)
        query.source.sql = "SELECT * FROM todo_item WHERE title = :title"
        query.parameters = [.init(name: "title", swiftType: "String")]
        #expect(query.expandedSQL == nil)
        #expect(query.postgresSQL == "SELECT * FROM todo_item WHERE title = $1")
    }

    @Test func whatIsNoStarOfTheResultStaysAsWritten() throws {
        let queries = """
            -- name: counted
            SELECT priority, count(*) AS "count: Int" FROM todo_item GROUP BY priority
            -- name: doubled
            SELECT priority * 2 AS "doubled: Int" FROM todo_item
            -- name: nested
            SELECT * FROM (SELECT * FROM todo_item) AS inner_items
            -- name: merged
            SELECT * FROM todo_item NATURAL JOIN todo_item AS b
            -- name: inside
            SELECT title FROM todo_item WHERE EXISTS (SELECT * FROM todo_item AS other WHERE other.id <> todo_item.id)
            """
        let sql = try Self.postgresSQL(queries)
        #expect(sql["counted"] == #"SELECT priority, count(*) AS "count: Int" FROM todo_item GROUP BY priority"#)
        #expect(sql["doubled"] == #"SELECT priority * 2 AS "doubled: Int" FROM todo_item"#)
        #expect(sql["nested"] == "SELECT * FROM (SELECT * FROM todo_item) AS inner_items")
        #expect(sql["merged"] == "SELECT * FROM todo_item NATURAL JOIN todo_item AS b")
        #expect(
            sql["inside"] == "SELECT title FROM todo_item WHERE EXISTS (SELECT * FROM todo_item AS other WHERE other.id <> todo_item.id)")
    }
}
