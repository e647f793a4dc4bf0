import Foundation
import GRDB
import StrataCore
import StrataIntrospection
import StrataTestSupport
import Testing

/// Hostile names and values go through every statement kind the DDL renderer has, on SQLite and
/// PostgreSQL: each statement must create, change or drop exactly the object it names, and a
/// `canary` table that the names try to drop must survive.
@Suite struct HostileNamesTests {
    /// The statements of the test, in order, with what the database must look like after each.
    struct Step {
        var statement: SQLStatement
        var check: (DatabaseSchema) -> [String]
    }

    static let canary = "canary"

    static func model() throws -> Schema {
        try #require(try SQLTestModels.fixture("HostileNames").latest)
    }

    /// Every statement kind, for `dialect`, as steps with their expected effect.
    static func steps(_ dialect: SQLDialect) throws -> [Step] {
        let schema = try model()
        let renderer = DDLRenderer(dialect: dialect)
        let parent = try #require(schema.entity(named: "Parent"))
        let child = try #require(schema.entity(named: "Child"))
        let index = try #require(child.indexes.first)
        var added = try #require(child.field(named: "mood"))
        added.name = "added"
        added.column = "added '); DROP TABLE \"canary\"; --"
        added.isUnique = false
        let renamedTable = "renamed \"table\"; DROP TABLE canary"
        let renamedColumn = "renamed ' column"
        let label = try #require(parent.field(named: "label")).column
        func has(_ table: String, _ test: @escaping (DatabaseSchema.Table) -> Bool, _ what: String) -> (DatabaseSchema)
            -> [String]
        {
            { schema in
                guard let found = schema.table(named: table) else { return ["no table \(table)"] }
                return test(found) ? [] : [what]
            }
        }
        func matches(_ entity: Entity) -> (DatabaseSchema) -> [String] {
            { database in
                var expected = ExpectedSchema.table(of: entity, in: schema, dialect: dialect)
                expected.indexes = []
                return database.table(named: entity.table) == expected ? [] : ["\(entity.table) differs from the model"]
            }
        }
        var steps: [Step] = []
        let deferred: Set<String> = dialect == .postgres ? ["parent"] : []
        steps.append(
            Step(
                statement: renderer.createTable(parent, in: schema),
                check: matches(parent)))
        steps.append(
            Step(
                statement: renderer.createTable(child, in: schema, deferredForeignKeys: deferred),
                check: dialect == .postgres
                    ? has(child.table, { $0.foreignKeys.isEmpty }, "foreign key not deferred") : matches(child)))
        if let foreignKey = renderer.addForeignKey(try #require(child.field(named: "parent")), of: child, in: schema) {
            steps.append(
                Step(
                    statement: foreignKey,
                    check: matches(child)))
        }
        steps.append(
            Step(
                statement: renderer.createIndex(index, of: child),
                check: has(child.table, { $0.indexes.map(\.name) == [index.name] }, "no index")))
        steps.append(
            Step(
                statement: renderer.addColumn(added, of: child, in: schema),
                check: has(
                    child.table,
                    { table in
                        table.column(named: added.column) != nil
                            && table.checks.contains {
                                $0.name == SQLConstraintName.check(table: child.table, column: added.column)
                            }
                    }, "no added column with its check")))
        steps.append(
            Step(
                statement: renderer.renameColumn(label, to: renamedColumn, onTable: parent.table),
                check: has(
                    parent.table, { $0.column(named: renamedColumn) != nil && $0.column(named: label) == nil },
                    "column not renamed")))
        steps.append(
            Step(
                statement: renderer.dropIndex(named: index.name),
                check: has(child.table, { $0.indexes.isEmpty }, "index not dropped")))
        steps.append(
            Step(
                statement: renderer.dropColumn(added.column, fromTable: child.table),
                check: has(child.table, { $0.column(named: added.column) == nil }, "column not dropped")))
        steps.append(
            Step(
                statement: renderer.renameTable(parent.table, to: renamedTable),
                check: {
                    $0.table(named: renamedTable) != nil && $0.table(named: parent.table) == nil
                        ? [] : ["table not renamed"]
                }))
        let oldKey = SQLConstraintName.primaryKey(table: parent.table)
        let newKey = SQLConstraintName.primaryKey(table: renamedTable)
        if let rename = renderer.renameConstraint(oldKey, to: newKey, onTable: renamedTable) {
            steps.append(
                Step(
                    statement: rename,
                    check: has(renamedTable, { $0.primaryKey?.name == newKey }, "constraint not renamed")))
        }
        steps.append(
            Step(
                statement: renderer.dropTable(named: child.table),
                check: { $0.table(named: child.table) == nil ? [] : ["child not dropped"] }))
        steps.append(
            Step(
                statement: renderer.dropTable(named: renamedTable),
                check: { $0.table(named: renamedTable) == nil ? [] : ["parent not dropped"] }))
        return steps
    }

    @Test func everyStatementKindIsCovered() throws {
        for dialect in SQLDialect.allCases {
            let kinds = Set(try Self.steps(dialect).map { "\($0.statement.kind)".prefix(while: { $0 != "(" }) })
            let expected: Set<Substring> =
                dialect == .postgres
                ? [
                    "createTable", "addForeignKey", "createIndex", "addColumn", "renameColumn", "dropIndex",
                    "dropColumn", "renameTable",
                    "renameConstraint", "dropTable",
                ]
                : [
                    "createTable", "createIndex", "addColumn", "renameColumn", "dropIndex", "dropColumn", "renameTable",
                    "dropTable",
                ]
            #expect(kinds == expected, "\(dialect)")
        }
    }

    @Test func sqliteRunsEveryStatementWithHostileNames() throws {
        let queue = try DatabaseQueue()
        try queue.write { db in try db.execute(sql: #"CREATE TABLE "canary" ("x" INTEGER)"#) }
        for step in try Self.steps(.sqlite) {
            try queue.write { db in try db.execute(sql: step.statement.rendered) }
            let schema = try queue.read { db in try SQLiteIntrospector.schema(of: db) }
            #expect(step.check(schema) == [], "after \(step.statement.sql)")
            #expect(schema.table(named: Self.canary) != nil, "the canary is gone after \(step.statement.sql)")
        }
        let left = try queue.read { db in try SQLiteIntrospector.schema(of: db) }
        #expect(left.tables.map(\.name) == [Self.canary])
    }

    @Test func postgresRunsEveryStatementWithHostileNames() async throws {
        let server = try await TestPostgresServer.forTest()
        try await server.withDatabase { session in
            try await session.execute(#"CREATE TABLE "canary" ("x" INTEGER)"#)
            for step in try Self.steps(.postgres) {
                try await session.executeScript(step.statement.rendered)
                let schema = try await PostgresIntrospector.schema(of: session)
                #expect(step.check(schema) == [], "after \(step.statement.sql)")
                #expect(schema.table(named: Self.canary) != nil, "the canary is gone after \(step.statement.sql)")
            }
            let left = try await PostgresIntrospector.schema(of: session)
            #expect(left.tables.map(\.name) == [Self.canary])
        }
    }

    @Test func hostileEnumValuesAndDefaultsAreStoredVerbatim() async throws {
        let schema = try Self.model()
        guard case .string(let calm)? = schema.enumDecl(named: "Mood")?.case(named: "calm")?.rawValue,
            case .string(let label)? = schema.entity(named: "Parent")?.field(named: "label")?.defaultValue,
            let parent = schema.entity(named: "Parent"), let child = schema.entity(named: "Child")
        else {
            Issue.record("the HostileNames fixture changed")
            return
        }
        let sqlite = try DatabaseQueue()
        let values = try await sqlite.write { db -> [String?] in
            try db.execute(sql: SQLSchemaRenderer.schemaFile(for: schema, dialect: .sqlite))
            // Statements built only from the renderer's quoting and literal functions.
            let insertParent =
                "INSERT INTO \(SQLDialect.sqlite.quoted(parent.table)) (\(SQLDialect.sqlite.quoted(parent.fields[0].column))) VALUES (1)"
            try db.execute(sql: insertParent)
            let insertChild =
                "INSERT INTO \(SQLDialect.sqlite.quoted(child.table)) (\(SQLDialect.sqlite.quoted(child.fields[0].column))) VALUES (\(SQLDialect.sqlite.literal(.blob([1]))))"
            try db.execute(sql: insertChild)
            return [
                try String.fetchOne(
                    db,
                    sql:
                        "SELECT \(SQLDialect.sqlite.quoted(parent.fields[1].column)) FROM \(SQLDialect.sqlite.quoted(parent.table))"
                ),
                try String.fetchOne(
                    db,
                    sql:
                        "SELECT \(SQLDialect.sqlite.quoted(child.fields[2].column)) FROM \(SQLDialect.sqlite.quoted(child.table))"
                ),
            ]
        }
        #expect(values == [label, calm])

        let server = try await TestPostgresServer.forTest()
        try await server.withDatabase { session in
            let q = SQLDialect.postgres.quoted
            try await session.executeScript(SQLSchemaRenderer.schemaFile(for: schema, dialect: .postgres))
            try await session.execute("INSERT INTO \(q(parent.table)) (\(q(parent.fields[0].column))) VALUES (1)")
            try await session.execute(
                "INSERT INTO \(q(child.table)) (\(q(child.fields[0].column))) VALUES (\(SQLDialect.postgres.literal(.typed(UUID().uuidString, .uuid))))"
            )
            let rows = try await session.textRows(
                sql:
                    "SELECT p.\(q(parent.fields[1].column)), c.\(q(child.fields[2].column)) FROM \(q(parent.table)) p, \(q(child.table)) c"
            )
            #expect(rows == [[label, calm]])
        }
    }
}
