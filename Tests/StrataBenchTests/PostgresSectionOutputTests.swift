import Foundation
import Testing

@testable import StrataBench

/// `strata-postgres-bench`'s output as the PostgreSQL section reads it: Fluent's time is left out
/// of the operations Fluent does not run (the JSON value, eager loading), and those get no Fluent
/// figure, only the generated repository against hand-written PostgresNIO.
@Suite struct PostgresSectionOutputTests {
    @Test func operationsWithoutFluentGetNoFluentFigure() throws {
        let json = """
            {"rows": 10, "results": [\
            {"operation": "fetch all", "generated": 0.2, "handWritten": 0.3, "fluent": 2.5, "rows": 10}, \
            {"operation": "fetch all records with a JSON value", "generated": 0.25, "handWritten": 0.5, "rows": 10}]}
            """
        let report = try JSONDecoder().decode(PostgresSection.Output.self, from: Data(json.utf8))
        let figures = PostgresSection.figures(of: report)
        #expect(
            figures.map(\.name) == [
                "fetch all, generated repository", "fetch all records with a JSON value, generated repository",
                "fetch all, FluentKit + FluentPostgresDriver",
            ])
        #expect(figures.map(\.value) == [0.2, 0.25, 2.5])
        #expect(figures.map(\.baseline) == [0.3, 0.5, 0.2])
        #expect(figures[1].target == .ratioAtMost(PostgresSection.target))
        #expect(figures[2].target == nil)
    }
}
