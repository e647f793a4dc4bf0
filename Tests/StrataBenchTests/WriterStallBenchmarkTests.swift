import Foundation
import StrataPostgres
import StrataTestSupport
import Testing

@testable import StrataBench

/// The stalls section in quick mode on the test server: every change kind's migration applies
/// under the writer, the writer never fails, and each figure is measured. No timing targets
/// are checked here: benchmarks are `strata-bench`.
@Suite struct WriterStallBenchmarkTests {
    @Test func everyVersionOfTheStallModelMakesOneChangeAndLoads() throws {
        let directory = TestScratch.path("strata-bench-stalls-model").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let section = WriterStallBenchmark(rows: 10, root: ".", scratch: directory)
        let migrations = try section.loadMigrations()
        #expect(migrations.current.count == WriterStallModel.changes.count + 1)
        // Lock-safe rendering changed at least the unique constraint and the index.
        let kinds = Set(migrations.before.keys.map { WriterStallModel.changes[$0 - 2].kind })
        #expect(kinds.isSuperset(of: ["add a unique constraint", "replace an index"]))
        for (version, old) in migrations.before {
            #expect(old.sql != migrations.current[version - 1].sql)
        }
        #expect(WriterStallModel.rowID(1) == "00000000-0000-0000-0000-000000000001")
        #expect(WriterStallModel.rowID(1_000_000) == "00000000-0000-0000-0000-0000000f4240")
    }

    /// A migration that fails under the writer (its lock budget spent) is reported as such and
    /// applied with the writer stopped, so that the versions after it are measured too.
    @Test func quickRunMeasuresEveryChangeKindWithoutAFailedWrite() async throws {
        let server = try await TestPostgresServer.forTest()
        let directory = TestScratch.path("strata-bench-stalls").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let section = WriterStallBenchmark(
            rows: 5_000, root: ".", scratch: directory, url: server.url.description,
            lockBudget: PostgresLockBudget(lockTimeout: .milliseconds(300), totalWait: .seconds(2)))
        let figures = try await section.measure()
        print(Report(figures: figures, settings: ["stalls": "5,000 rows (test)"]).table())
        let measured = figures.filter { $0.target != nil }
        let before = figures.filter { $0.target == nil }
        // One per change kind, and the summary.
        #expect(measured.count == WriterStallModel.changes.count + 1)
        #expect(before.count == (try section.loadMigrations().before.count))
        for figure in figures {
            #expect(figure.section == .stalls)
            #expect(figure.value > 0 && figure.baseline > 0, "\(figure.name)")
            // The writer's own statements never fail (a migration may: then it says so).
            #expect(!(figure.detail ?? "").contains("writes during it ("), "\(figure.name): \(figure.detail ?? "")")
            #expect(figure.name.contains("FAILED") == (figure.detail ?? "").contains("FAILED under the writer"))
        }
        #expect(measured.allSatisfy { $0.target == .valueAtMost(WriterStallBenchmark.target) })
        let summary = try #require(figures.last)
        #expect(summary.name.hasPrefix("all \(WriterStallModel.changes.count) migrations"))
        #expect(summary.detail?.contains("load average") == true)
    }
}
