import Foundation
import StrataCore
import Testing

/// The generated code that test and benchmark targets compile is committed; it must be what the
/// generator writes today, or those targets would test yesterday's renderers.
@Suite("Committed generated code is current")
struct CommittedOutputTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    @Test(
        "strata generate would change nothing",
        arguments: [
            ("Tests/GeneratedRepositoryTests/Schemas", "Tests/GeneratedRepositoryTests/Generated", "sqlite postgres"),
            ("Tests/MyTODOV1/Schemas", "Tests/MyTODOV1/Generated", "sqlite"),
            ("Tests/RollingV1/Schemas", "Tests/RollingV1/Generated", "postgres"),
            ("Benchmarks/Schemas", "Sources/StrataRepositoryBenchmark/Generated", "sqlite"),
        ]
    )
    func outputIsCurrent(schemas: String, output: String, databases: String) {
        let plan = Workspace.plan(
            schemas: Self.root.appendingPathComponent(schemas).path,
            output: Self.root.appendingPathComponent(output).path,
            databases: databases.split(separator: " ").compactMap { SQLDialect(rawValue: String($0)) }
        )
        #expect(!plan.hasErrors, "\(plan.diagnostics)")
        let stale = Workspace.check(plan)
        #expect(
            stale.isEmpty,
            """
            run `swift run strata generate --schemas \(schemas) --output \(output) --databases \(databases)`:
            \(stale.map(\.diff).joined())
            """
        )
    }
}
