import Foundation
import GRDB
import StrataBench
import StrataTestSupport
import Testing

/// The Core Data store section runs on a tiny store, and its row-for-row comparison of the two
/// copies finds a difference. No timing: benchmarks are `strata-bench`.
@Suite struct CoreDataStoreBenchmarkTests {
    /// The section writes the model and a store, imports it, copies it by hand, and finds the two
    /// copies equal (the run throws when they differ or a row is missing).
    @Test func tinyStoreImportsAndEqualsTheCopyByHand() throws {
        let directory = TestScratch.path("strata-bench-coredata").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let figures = try CoreDataStoreBenchmark(rows: 200, repetitions: 1, workDirectory: directory).run()
        #expect(figures.count == 2)
        let wall = try #require(figures.first)
        #expect(wall.section == .coredata)
        #expect(wall.target == .ratioAtMost(CoreDataStoreBenchmark.target))
        #expect(wall.value > 0 && wall.baseline > 0)
        #expect(wall.detail?.contains("20 authors, 100 books, 80 many-to-many pairs") == true, "\(wall.detail ?? "")")
        #expect(wall.detail?.contains("equal row for row") == true)
        #expect(!FileManager.default.fileExists(atPath: directory + "/coredata-store"))
    }

    /// The comparison sees a changed value, a value of another type, and a missing row.
    @Test func differencesFindChangedAndMissingRows() throws {
        let directory = TestScratch.path("strata-bench-coredata-diff")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        func database(_ name: String, _ rows: String) throws -> String {
            let path = directory.appendingPathComponent(name).path
            try DatabaseQueue(path: path).write { db in
                try db.execute(sql: "CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT, score); INSERT INTO item VALUES \(rows)")
            }
            return path
        }
        let original = try database("a.sqlite", "(1, 'one', 1), (2, 'two', 2)")
        let same = try database("b.sqlite", "(2, 'two', 2), (1, 'one', 1)")
        let changed = try database("c.sqlite", "(1, 'one', 1), (2, 'TWO', 2)")
        let retyped = try database("d.sqlite", "(1, 'one', 1), (2, 'two', 2.0)")
        let shorter = try database("e.sqlite", "(1, 'one', 1)")
        #expect(try CoreDataStoreBenchmark.differences(between: original, and: same, tables: ["item"]).isEmpty)
        #expect(
            try CoreDataStoreBenchmark.differences(between: original, and: changed, tables: ["item"]) == [
                "1 rows of item in main are not in other", "1 rows of item in other are not in main",
            ])
        #expect(try CoreDataStoreBenchmark.differences(between: original, and: retyped, tables: ["item"]).count == 2)
        #expect(
            try CoreDataStoreBenchmark.differences(between: original, and: shorter, tables: ["item"]) == [
                "item has 2 rows and 1"
            ])
    }
}
