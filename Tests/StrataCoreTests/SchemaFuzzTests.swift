import Foundation
import Testing

@testable import StrataCore

/// Mutates the fixture schemas with a deterministic seed and runs each through loading,
/// validation, migration planning and rendering (what `lint` and `generate` do): every case must
/// end with no diagnostic or with errors that carry a location, within the time bound, and
/// never crash.
///
/// `STRATA_FUZZ_CASES` (default 500, the CI pass) and `STRATA_FUZZ_SEED` (default 1) choose the
/// run; see `Docs/Limits.md` for a long one.
@Suite struct SchemaFuzzTests {
    /// A small deterministic generator (SplitMix64), so a failing case is reproduced by its seed.
    struct SplitMix64 {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        mutating func below(_ bound: Int) -> Int { bound <= 0 ? 0 : Int(next() % UInt64(bound)) }
    }

    static let fragments = [
        ":", " ", "\n", "- ", "[", "]", "{", "}", ",", "?", "*a", "&a ", "!!str ", "'", "\"", "#", "\t", "\r\n",
        "Int64", "String?", "UUID", "Date", "unique: true", "primaryKey: true", "default: 1", "renamedFrom: x",
        "type: ", "fields:", "indexes:", "hasMany:", "enums:", "cases: [a, b]", "    ", "~", "null", "é", "\u{0}",
    ]

    /// Every fixture version file, as (model, version number, text).
    static func seeds() throws -> [String] {
        let root = TestPaths.models
        var texts: [String] = []
        let walker = FileManager.default.enumerator(atPath: root.path)
        while let relative = walker?.nextObject() as? String {
            guard relative.hasSuffix(".yaml") else { continue }
            texts.append(try String(contentsOf: root.appendingPathComponent(relative), encoding: .utf8))
        }
        return texts.sorted()
    }

    static func mutate(_ text: String, _ random: inout SplitMix64) -> String {
        var lines = text.components(separatedBy: "\n")
        for _ in 0...random.below(4) {
            guard !lines.isEmpty else { break }
            let index = random.below(lines.count)
            switch random.below(6) {
            case 0: lines.remove(at: index)
            case 1: lines.insert(lines[index], at: index)
            case 2: lines.swapAt(index, random.below(lines.count))
            case 3:
                var characters = Array(lines[index])
                let at = random.below(characters.count + 1)
                characters.insert(contentsOf: fragments[random.below(fragments.count)], at: at)
                lines[index] = String(characters)
            case 4:
                var characters = Array(lines[index])
                if !characters.isEmpty { characters.remove(at: random.below(characters.count)) }
                lines[index] = String(characters)
            default:
                lines[index] = String(repeating: " ", count: random.below(9)) + lines[index].drop { $0 == " " }
            }
        }
        return lines.joined(separator: "\n")
    }

    @Test func mutatedSchemasEndInLocatedErrorsWithinTheTimeBound() throws {
        let environment = ProcessInfo.processInfo.environment
        let cases = environment["STRATA_FUZZ_CASES"].flatMap(Int.init) ?? 500
        let seed = environment["STRATA_FUZZ_SEED"].flatMap(UInt64.init) ?? 1
        let seeds = try Self.seeds()
        try #require(!seeds.isEmpty)
        var random = SplitMix64(state: seed)
        let root = try TestPaths.temporaryFolder()
        let folder = root.appendingPathComponent("Schemas/M")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var clean = 0, rejected = 0, slowest = 0.0
        for number in 0..<cases {
            var text = Self.mutate(seeds[random.below(seeds.count)], &random)
            text = text.replacingOccurrences(of: #"(?m)^model: .*$"#, with: "model: M", options: .regularExpression)
            text = text.replacingOccurrences(of: #"(?m)^version: .*$"#, with: "version: 1", options: .regularExpression)
            try text.write(to: folder.appendingPathComponent("v1.yaml"), atomically: true, encoding: .utf8)
            let started = Date()
            let plan = Workspace.plan(schemas: root.appendingPathComponent("Schemas").path, output: root.path + "/Generated")
            let elapsed = Date().timeIntervalSince(started)
            slowest = max(slowest, elapsed)
            #expect(elapsed < 5, "case \(number) of seed \(seed) took \(elapsed) s")
            for diagnostic in plan.diagnostics where diagnostic.severity == .error {
                #expect(diagnostic.location.file.hasPrefix(root.path), "case \(number) of seed \(seed): \(diagnostic)")
            }
            if plan.hasErrors { rejected += 1 } else { clean += 1 }
        }
        print("fuzz: seed \(seed), \(cases) cases: \(clean) clean, \(rejected) located errors, 0 crashes, slowest \(String(format: "%.3f", slowest)) s")
    }
}
