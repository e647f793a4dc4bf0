import Foundation
import StrataCore
import StrataPostgres
import StrataSQLite
import StrataVerification
import Testing

/// `strata verify --compat` prepares the SQL the runtime sends for the generated record types,
/// built from a version's entities alone: the same text as the compiled record types' own.
@Suite struct CompatibilityStatementsTests {
    @Test("the statements built from the Shop model's entities are the generated record types' own")
    func metadataStatementsAreTheRecordTypesStatements() throws {
        let shop = try MusicTests.schema("Shop")
        let sqlite = Set(CompatibilityStatements.of(shop, queries: [], dialect: .sqlite).map(\.sql))
        let postgres = Set(CompatibilityStatements.of(shop, queries: [], dialect: .postgres).map(\.sql))
        func check<Record>(_ table: StrataTable<Record>, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
            let statements = table.statements(SQLiteDialect.self)
            let own = StrataTableStatementKind.allCases.compactMap { $0.sql(in: statements) }
            for sql in own { #expect(sqlite.contains(sql), "\(sql)", sourceLocation: sourceLocation) }
            for (kind, sql) in StrataPostgresTableSQL.statements(of: table) {
                #expect(postgres.contains(sql), "\(kind): \(sql)", sourceLocation: sourceLocation)
            }
        }
        check(Customer.strataTable)
        check(Order.strataTable)
        check(OrderLine.strataTable)
        check(Keywords.strataTable)
        // A join along a reference, as `fetchAll(joining:on:)` builds it from the record types.
        let join = StrataJoinQuery(
            OrderLine.self, joining: Order.self, on: \OrderLine.order, optional: false, where: nil, orderBy: nil,
            limit: nil, offset: nil)
        let sql = join.statement.sql(SQLiteDialect.self)
        #expect(sqlite.contains(sql), "\(sql)")
        #expect(postgres.contains(join.statement.sql(PostgresDialect.self)))
    }
}
