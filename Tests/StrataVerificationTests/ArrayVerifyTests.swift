import Foundation
import StrataCore
import StrataTestSupport
@testable import StrataVerification
import Testing

/// `strata verify` over array fields on both databases: rows seeded at v1 with arrays (empty,
/// quoted text, enums, UUIDs) survive a scalar that becomes an array through a `transform`, an
/// array of `Int32` that becomes one of `Int64`, and array fields added with `default: []`.
@Suite struct ArrayVerifyTests {
    static let versions = [
        """
        model: Arrays
        version: 1
        enums:
          Mood: { type: String, cases: { calm: calm, odd: "it's \\"odd\\" \\\\ too" } }
        entities:
          Post:
            fields:
              id: UUID
              tag: String
              scores: "[Int32]"
              moods: "[Mood]"
              refs: "[UUID]?"
              flags: { type: "[Bool]", default: [] }
        """,
        """
        model: Arrays
        version: 2
        enums:
          Mood: { type: String, cases: { calm: calm, odd: "it's \\"odd\\" \\\\ too" } }
        entities:
          Post:
            fields:
              id: UUID
              tag:
                type: "[String]"
                transform: { sqlite: "json_array(tag)", postgres: "ARRAY[tag]" }
              scores: "[Int32]"
              moods: "[Mood]"
              refs: "[UUID]?"
              flags: { type: "[Bool]", default: [] }
              labels: { type: "[String]", default: [] }
        """,
        """
        model: Arrays
        version: 3
        enums:
          Mood: { type: String, cases: { calm: calm, odd: "it's \\"odd\\" \\\\ too" } }
        entities:
          Post:
            fields:
              id: UUID
              tag: "[String]"
              scores:
                type: "[Int64]"
                transform: { sqlite: "scores", postgres: "scores::BIGINT[]" }
              moods: "[Mood]"
              refs: "[UUID]?"
              flags: { type: "[Bool]", default: [] }
              labels: { type: "[String]", default: [] }
              extra: "[Double]?"
        """,
    ]

    @Test func arrayMigrationsVerifyOnSQLite() async throws {
        let (history, _) = try Models.temporary("Arrays", versions: Self.versions)
        let report = try await MigrationVerifier().verify(
            history, chain: try SQLiteVerificationDatabase(model: "Arrays"), fresh: try SQLiteVerificationDatabase(model: "Arrays"))
        #expect(report.passed, "\(report.lines.joined(separator: "\n"))")
        #expect(report.rowsSeeded.allSatisfy { $0.count == 200 })
        #expect(report.valuesCompared > 0)
    }

    @Test func arrayMigrationsVerifyOnPostgreSQL() async throws {
        let server = try await TestPostgresServer.forTest()
        let (history, _) = try Models.temporary("Arrays", versions: Self.versions)
        let report = try await PostgresScratch.verify(history, url: server.url.description, verifier: MigrationVerifier())
        #expect(report.passed, "\(report.lines.joined(separator: "\n"))")
        #expect(report.rowsSeeded.allSatisfy { $0.count == 200 })
        #expect(report.valuesCompared > 0)
    }

    /// The seeded arrays: none in some rows, text with quotes and backslashes in others.
    @Test func seededArraysHoldAwkwardTextAndAreSometimesEmpty() throws {
        let (history, _) = try Models.temporary("Arrays", versions: [Self.versions[0]])
        let schema = try #require(history.latest)
        let post = try #require(schema.entity(named: "Post"))
        let tag = try #require(post.field(named: "moods"))
        let seeder = RowSeeder()
        let values = (0..<6).map { seeder.arrayElements(for: tag, row: $0, schema: schema) }
        #expect(values[0].isEmpty)
        #expect(values.contains { $0.contains(.text(#"it's "odd" \ too"#)) })
        let scores = try #require(post.field(named: "scores"))
        #expect((0..<6).contains { seeder.arrayElements(for: scores, row: $0, schema: schema).count >= 2 })
    }
}
