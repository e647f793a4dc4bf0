import Foundation
import StrataCore
import StrataCoreDataImport
import StrataTestSupport
import Testing

/// The fuzzer's other two front ends: named-query files (`queries/*.sql`) and Core Data model
/// files (`contents` of a `.xcdatamodel`), mutated from the fixtures and the seeds in
/// `Tests/Fixtures/Fuzz`. Every mutant loads (and renders), or fails with errors located in its
/// file at a line and column; never a crash, never a bare parser code or a staging path, and
/// within the time bound.
///
/// `swift test --filter SchemaFuzzTests` runs a short pass (200 cases each); a long one:
/// `STRATA_FUZZ_CASES=20000 STRATA_FUZZ_SEED=7 swift test --filter SchemaFuzzTests`.
extension SchemaFuzzTests {
    /// The seeds of one kind: the repository's own files and the fuzz seeds, as bytes.
    static func seedFiles(_ paths: [URL], seeds folder: String) -> [Data] {
        let fuzz = TestPaths.fixtures.appendingPathComponent("Fuzz/\(folder)")
        let extra = TestPaths.files(under: fuzz).filter { !$0.hasSuffix(".md") }.map { fuzz.appendingPathComponent($0) }
        return (paths + extra).compactMap { try? Data(contentsOf: $0) }
    }

    /// Pieces a query mutation may put in.
    static let queryWords = [
        ":", ":_", ":x", ":default", ":in", ":self", ":Self", ":inout", "?", "?1", "@a", "$b", "-- name: q",
        "-- name: _", "-- param: x Int", "-- param: _ Int", "'", "\"", "(", ")", ";", "AS \"a: Int\"", "AS \"_: Int\"",
        "LEFT JOIN todo_item t ON", "IN (", "BETWEEN", "LIKE", "LIMIT", "is_done", "title", "t.", "é", "\u{0}", "--",
        "/*", "*/", "\n", "SELECT", "UPDATE todo_item SET", "WHERE priority =",
    ]

    /// Pieces a Core Data mutation may put in.
    static let xmlWords = [
        "<entity name=\"Item\">", "</entity>", "<attribute name=\"id\" attributeType=\"UUID\"/>",
        "<attribute name=\"x\" attributeType=\"String\" defaultValueString=\"&amp;\"/>",
        "<relationship name=\"r\" destinationEntity=\"Item\" toMany=\"YES\"/>", "&x;", "&amp;", "&#0;", "&#xE9;",
        "<!DOCTYPE model [<!ENTITY x \"xx\">]>", "<!ENTITY y SYSTEM \"file:///etc/hosts\">",
        "encoding=\"ISO-8859-1\"", "encoding=\"EBCDIC\"", "<![CDATA[", "]]>", "<", ">", "\"", "=", "/>",
        "attributeType=\"Integer 64\"", "optional=\"YES\"", "parentEntity=\"Item\"", "\u{FEFF}",
        String(repeating: "<a>", count: 300),
    ]

    /// One mutant of `bytes`: lines removed, repeated, swapped, cut or given a piece, a byte changed.
    static func mutateBytes(_ bytes: Data, pieces: [String], _ random: inout Generator) -> Data {
        var lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map { Data($0) }
        for _ in 0...random.below(3) {
            guard !lines.isEmpty else { break }
            let at = random.below(lines.count)
            switch random.below(8) {
            case 0: lines.remove(at: at)
            case 1: lines.insert(lines[random.below(lines.count)], at: at)
            case 2: lines.swapAt(at, random.below(lines.count))
            case 3: lines[at] = lines[at].prefix(random.below(lines[at].count + 1))
            case 4:
                if !lines[at].isEmpty { lines[at][lines[at].startIndex + random.below(lines[at].count)] = UInt8(random.below(256)) }
            case 5: lines.insert(Data(pieces[random.below(pieces.count)].utf8), at: at)
            default:
                var line = lines[at]
                line.insert(contentsOf: Data(pieces[random.below(pieces.count)].utf8), at: line.startIndex + random.below(line.count + 1))
                lines[at] = line
            }
        }
        return Data(lines.joined(separator: [UInt8(ascii: "\n")]))
    }

    @Test func mutatedQueryFilesLoadOrFailWithLocatedErrors() throws {
        let environment = ProcessInfo.processInfo.environment
        let cases = environment["STRATA_FUZZ_CASES"].flatMap(Int.init) ?? 200
        var random = Generator(state: environment["STRATA_FUZZ_SEED"].flatMap(UInt64.init) ?? 2027)
        let seeds = Self.seedFiles(
            [
                TestPaths.schemas.appendingPathComponent("MyTODO/queries/items.sql"),
                TestPaths.bad.appendingPathComponent("named-queries/M/queries/bad.sql"),
            ], seeds: "queries")
        try #require(seeds.count >= 3)
        let sandbox = try NamedQueryTests.Sandbox()
        defer { try? FileManager.default.removeItem(at: sandbox.root) }
        var counts = (loaded: 0, located: 0, slowest: Duration.zero)
        for index in 0..<cases {
            let seed = seeds[random.below(seeds.count)]
            let mutant = random.below(10) == 0 ? seed : Self.mutateBytes(seed, pieces: Self.queryWords, &random)
            try sandbox.queries("")
            try mutant.write(to: URL(fileURLWithPath: sandbox.badFile))
            let start = ContinuousClock.now
            let (history, _, diagnostics) = SchemaLoader.loadModel(named: "MyTODO", in: sandbox.schemas)
            let errors = diagnostics.filter { $0.severity == .error }
            if errors.isEmpty, let history {
                let files = StrataCore.Generator.files(for: history, databases: [.sqlite])
                counts.loaded += 1
                // A parameter is always a usable argument label: none is written `_`.
                for file in files where file.path.hasSuffix(".swift") {
                    #expect(!file.contents.contains("bind(_)") && !file.contents.contains("(_: "), "case \(index)")
                }
            } else {
                counts.located += 1
            }
            let elapsed = ContinuousClock.now - start
            counts.slowest = max(counts.slowest, elapsed)
            #expect(elapsed < .seconds(5), "case \(index) took \(elapsed)")
            for error in errors {
                #expect(error.location.file == sandbox.badFile, "case \(index): \(error)")
                #expect(error.location.line >= 1 && error.location.column >= 1, "case \(index): \(error)")
            }
        }
        print("query fuzz: \(cases) cases, \(counts.loaded) loaded and rendered, \(counts.located) rejected with located errors, slowest \(counts.slowest)")
    }

    @Test func mutatedCoreDataModelsImportOrFailWithLocatedErrors() throws {
        let environment = ProcessInfo.processInfo.environment
        let cases = environment["STRATA_FUZZ_CASES"].flatMap(Int.init) ?? 200
        var random = Generator(state: environment["STRATA_FUZZ_SEED"].flatMap(UInt64.init) ?? 2028)
        let coreData = TestPaths.fixtures.appendingPathComponent("CoreData")
        let fixtures = TestPaths.files(under: coreData).filter { $0.hasSuffix("/contents") }
            .map { coreData.appendingPathComponent($0) }
        let seeds = Self.seedFiles(fixtures, seeds: "coredata")
        try #require(seeds.count >= 5)
        let folder = try TestPaths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var counts = (imported: 0, located: 0, slowest: Duration.zero)
        for index in 0..<cases {
            let seed = seeds[random.below(seeds.count)]
            let mutant = random.below(10) == 0 ? seed : Self.mutateBytes(seed, pieces: Self.xmlWords, &random)
            let model = folder.appendingPathComponent("case\(index)/Fuzz.xcdatamodel")
            try FileManager.default.createDirectory(at: model, withIntermediateDirectories: true)
            let contents = model.appendingPathComponent("contents").path
            try mutant.write(to: URL(fileURLWithPath: contents))
            let start = ContinuousClock.now
            let outcome = CoreDataImporter.run(model.path, options: .init())
            var diagnostics = outcome.diagnostics
            if !outcome.hasErrors, random.below(4) == 0 {
                // Through lint and the staging folder too, now and then.
                let schemas = folder.appendingPathComponent("case\(index)/Schemas").path
                do {
                    _ = try CoreDataImporter.write(outcome, schemas: schemas)
                } catch {
                    if case .problems(let problems) = error { diagnostics += problems }
                }
            }
            let elapsed = ContinuousClock.now - start
            counts.slowest = max(counts.slowest, elapsed)
            #expect(elapsed < .seconds(5), "case \(index) took \(elapsed)")
            let errors = diagnostics.filter { $0.severity == .error }
            if errors.isEmpty { counts.imported += 1 } else { counts.located += 1 }
            for error in errors {
                #expect(error.location.file.hasPrefix(model.deletingLastPathComponent().path), "case \(index): \(error)")
                #expect(error.location.line >= 1 && error.location.column >= 1, "case \(index): \(error)")
                #expect(!error.message.contains("XML parser error"), "case \(index): a bare parser code: \(error)")
                #expect(!error.message.contains(".strata-import-"), "case \(index): the staging folder: \(error)")
            }
            try? FileManager.default.removeItem(at: model.deletingLastPathComponent())
        }
        print("Core Data fuzz: \(cases) cases, \(counts.imported) imported, \(counts.located) rejected with located errors, slowest \(counts.slowest)")
    }
}
