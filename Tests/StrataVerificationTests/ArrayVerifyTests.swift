import Foundation
import StrataCore
import StrataTestSupport
@testable import StrataVerification
import Testing

/// `strata verify` over array fields on both databases: rows seeded at v1 with arrays (empty,
/// quoted text, enums, UUIDs) survive a scalar that becomes an array through a `transform`, an
/// array of `Int32` that becomes one of `Int64`, and array fields added with `default: []`.
@Suite struct ArrayVerifyTests {
    /// Version `number` of the model, whose `Post` has `fields` besides its key and the ones
    /// every version keeps.
    static func version(_ number: Int, _ fields: String) -> String {
        """
        model: Arrays
        version: \(number)
        enums:
          Mood: { type: String, cases: { calm: calm, odd: "it's \\"odd\\" \\\\ too" } }
        entities:
          Post:
            fields:
              id: UUID
              moods: "[Mood]"
              refs: "[UUID]?"
              flags: { type: "[Bool]", default: [] }

        """ + fields.split(separator: "\n").map { "      " + $0 }.joined(separator: "\n") + "\n"
    }

    static let versions = [
        version(1, "tag: String\nscores: \"[Int32]\""),
        version(
            2,
            """
            tag:
              type: "[String]"
              transform: { sqlite: "json_array(tag)", postgres: "ARRAY[tag]" }
            scores: "[Int32]"
            labels: { type: "[String]", default: [] }
            """),
        version(
            3,
            """
            tag: "[String]"
            scores:
              type: "[Int64]"
              transform: { sqlite: "scores", postgres: "scores::BIGINT[]" }
            labels: { type: "[String]", default: [] }
            extra: "[Double]?"
            """),
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
