import Foundation
import StrataCore
import StrataTestSupport
@testable import StrataVerification
import Testing

/// `strata verify` over array fields on both databases: rows seeded at v1 with arrays (empty,
/// quoted text, enums, UUIDs) survive a scalar that becomes an array through a `transform`, an
/// array of `Int32` that becomes one of `Int64`, and array fields added with `default: []`; arrays
/// of Dates (fractions of a second), Decimals (more digits than a Double) and Data (zero bytes)
/// kept through every version, and a Date that becomes a `[Date]` through a `transform`.
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
              times: "[Date]"
              prices: "[Decimal]?"
              blobs: { type: "[Data]", default: [] }

        """ + fields.split(separator: "\n").map { "      " + $0 }.joined(separator: "\n") + "\n"
    }

    static let versions = [
        version(1, "tag: String\nscores: \"[Int32]\"\ndue: Date"),
        version(
            2,
            """
            tag:
              type: "[String]"
              transform: { sqlite: "json_array(tag)", postgres: "ARRAY[tag]" }
            scores: "[Int32]"
            labels: { type: "[String]", default: [] }
            due:
              type: "[Date]"
              transform: { sqlite: "json_array(due)", postgres: "ARRAY[due]" }
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
            due: "[Date]"
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

    /// Seeded Dates have fractions of a second in whole microseconds, Decimals more digits than a
    /// Double holds, Data zero bytes; each written as the runtime stores it.
    @Test func seededDatesDecimalsAndDataAsStored() throws {
        let (history, _) = try Models.temporary("Arrays", versions: [Self.versions[0]])
        let schema = try #require(history.latest)
        let post = try #require(schema.entity(named: "Post"))
        let seeder = RowSeeder()
        func elements(_ name: String) throws -> [ArrayElementLiteral] {
            let field = try #require(post.field(named: name))
            return (0..<6).flatMap { seeder.arrayElements(for: field, row: $0, schema: schema) }
        }
        let dates = try elements("times").compactMap { element -> Date? in
            if case .date(let date) = element { return date }
            return nil
        }
        #expect(!dates.isEmpty)
        for date in dates {
            let fraction = date.timeIntervalSinceReferenceDate.truncatingRemainder(dividingBy: 1)
            #expect(fraction > 0)
            // A Double near 6e8 seconds keeps about a tenth of a microsecond.
            #expect(abs(fraction * 1_000_000 - (fraction * 1_000_000).rounded()) < 0.2, "whole microseconds")
        }
        let decimals = try elements("prices")
        #expect(decimals.contains { if case .decimal(let text) = $0 { text.filter(\.isNumber).count > 17 && text.hasPrefix("-") } else { false } })
        let blobs = try elements("blobs")
        #expect(blobs.contains { if case .data(let bytes) = $0 { bytes.contains(0) } else { false } })

        let date = Date(timeIntervalSinceReferenceDate: 728_395_200.25)
        let mixed: [ArrayElementLiteral] = [.date(date), .decimal("-1.50"), .data([0, 255])]
        #expect(SQLDialect.sqlite.rules.arrayValue(mixed) == .text(#"[728395200.25,"-1.50","AP8="]"#))
        #expect(SQLDialect.postgres.rules.arrayValue(mixed) == .text(#"{"2024-01-31 12:00:00.25+00",-1.50,"\\x00ff"}"#))
    }
}
