import Foundation
import StrataTestSupport
import Testing

@testable import StrataBench

/// The compile benchmark's package: what each target holds and depends on. No building and no
/// timing here: benchmarks are `strata-bench`.
@Suite struct CompilePackageTests {
    @Test func threeTargetsEachWithItsDatabasesCode() throws {
        let work = TestScratch.path("strata-compile").path
        defer { try? FileManager.default.removeItem(atPath: work) }
        let benchmark = CompileBenchmark(root: "/strata", work: work, entities: 3)
        let lines = try benchmark.writePackage()

        func files(_ target: String) throws -> [String] {
            try FileManager.default.contentsOfDirectory(atPath: "\(work)/Sources/\(target)").sorted()
        }
        func lineCount(_ target: String) throws -> Int {
            try files(target).reduce(0) { total, name in
                let text = try String(contentsOfFile: "\(work)/Sources/\(target)/\(name)", encoding: .utf8)
                return total + text.utf8.filter { $0 == UInt8(ascii: "\n") }.count
            }
        }
        #expect(
            try files(CompileBenchmark.generatedTarget) == [
                "SyntheticDatabase.swift", "SyntheticMigrations.swift", "SyntheticModels.swift", "SyntheticRecords.swift",
                "SyntheticRepositories.swift",
            ])
        #expect(try files(CompileBenchmark.structsTarget) == ["SyntheticModels.swift"])
        #expect(
            try files(CompileBenchmark.postgresTarget) == [
                "SyntheticModels.swift", "SyntheticPostgresDatabase.swift", "SyntheticPostgresMigrations.swift",
                "SyntheticPostgresRepositories.swift", "SyntheticRecords.swift",
            ])
        // The line counts the figures report, in the order SQLite, structs, PostgreSQL.
        #expect(
            lines == [
                try lineCount(CompileBenchmark.generatedTarget), try lineCount(CompileBenchmark.structsTarget),
                try lineCount(CompileBenchmark.postgresTarget),
            ])
        #expect(lines[1] < lines[0] && lines[1] < lines[2])

        // Each target depends on its database's runtime only: the SQLite ones never build PostgresNIO.
        let manifest = try String(contentsOfFile: "\(work)/Package.swift", encoding: .utf8)
        #expect(manifest.contains(#".target(name: "GeneratedModel", dependencies: [.product(name: "StrataSQLite", package: "Strata")])"#))
        #expect(manifest.contains(#".target(name: "StructsOnly", dependencies: [.product(name: "StrataSQLite", package: "Strata")])"#))
        #expect(
            manifest.contains(
                #".target(name: "GeneratedPostgresModel", dependencies: [.product(name: "StrataPostgres", package: "Strata")])"#))
        #expect(manifest.contains(#"path: "/strata""#))
    }
}
