import Foundation
import StrataBench
import StrataCore
import StrataTestSupport
import Testing

/// The generator benchmark's synthetic model: valid, deterministic, and changing the way its
/// documentation says. No timing: benchmarks are `strata-bench`.
@Suite struct SyntheticModelTests {
    /// A small model loads without diagnostics and generates every output.
    @Test func smallModelIsValidAndGenerates() throws {
        let directory = TestScratch.path("strata-bench-tests").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try SyntheticModel(entities: 3).write(into: directory)

        let plan = Workspace.plan(schemas: directory, output: "Generated")
        #expect(plan.diagnostics.isEmpty, "\(plan.diagnostics)")
        let history = try #require(plan.histories.first)
        #expect(history.versions.count == 5)
        let latest = try #require(history.latest)
        #expect(latest.entities.count == 3)
        #expect(latest.entities.allSatisfy { $0.fields.count == SyntheticModel.fieldsPerEntity })
        // Swift (models, records, 3 files per database) + per dialect schema.sql and migrations v1…v5.
        #expect(plan.files.filter { $0.path.hasPrefix("Generated/") }.count == 2 + 2 * 3 + 2 * 6)
    }

    /// Each version changes every entity: an added column, a rename, a widening, an index.
    @Test func versionsDifferRealistically() throws {
        let directory = TestScratch.path("strata-bench-tests").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try SyntheticModel(entities: 2).write(into: directory)
        let plan = Workspace.plan(schemas: directory, output: "Generated")
        func migration(_ version: Int) -> String {
            plan.files.first { $0.path == "Generated/Synthetic/sqlite/migrations/v\(version).sql" }?.contents ?? ""
        }
        #expect(migration(2).contains("ADD COLUMN \"summary\""))
        #expect(migration(3).contains("RENAME COLUMN \"title\" TO \"heading\""))
        #expect(migration(4).contains("CREATE TABLE \"strata_new_entity0001\""))
        #expect(migration(5).contains("CREATE INDEX \"entity0002_status_created_at_idx\""))
    }

    /// The largest model under a size: its one file fits, and one more entity would not.
    @Test func largestFittingInASize() {
        let bytes = 50_000
        let model = SyntheticModel.largest(fittingIn: bytes)
        #expect(model.versions == 1)
        #expect(model.text(ofVersion: 1).utf8.count <= bytes)
        #expect(SyntheticModel(entities: model.entities + 1, versions: 1).text(ofVersion: 1).utf8.count > bytes)
    }

    /// The same arguments give the same bytes.
    @Test func deterministic() {
        let first = SyntheticModel(entities: 5).files()
        let second = SyntheticModel(entities: 5).files()
        #expect(first.map(\.text) == second.map(\.text))
        #expect(first.map(\.name) == ["v1.yaml", "v2.yaml", "v3.yaml", "v4.yaml", "v5.yaml"])
    }
}
