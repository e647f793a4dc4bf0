import Foundation
import StrataBench
import StrataTestSupport
import Testing

/// The rebase section runs on a small synthetic model: both branches' versions end up in the
/// rebased model (the run throws unless the rebase replays all five). No timing: benchmarks are
/// `strata-bench`.
@Suite struct RebaseBenchmarkTests {
    @Test func smallModelRebasesFiveVersionsOntoFive() throws {
        let directory = TestScratch.path("strata-bench-rebase").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let figures = try RebaseBenchmark(entities: 5, repetitions: 1, workDirectory: directory).run()
        let figure = try #require(figures.first)
        #expect(figures.count == 1)
        #expect(figure.section == .rebase)
        #expect(figure.target == .ratioAtMost(RebaseBenchmark.target))
        #expect(figure.value > 0 && figure.baseline > 0)
        let latest = try String(
            contentsOfFile: directory + "/rebase-5/Schemas/Synthetic/v11.yaml", encoding: .utf8)
        #expect(latest.contains("main6: Int?") && latest.contains("branch6: Int?"))
        #expect(latest.contains("version: 11\n"))
    }
}
