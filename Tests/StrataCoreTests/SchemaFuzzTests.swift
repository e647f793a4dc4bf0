import Foundation
import StrataCore
import StrataTestSupport
import Testing

/// A deterministic fuzzer over the schema front end: it mutates the fixture schemas (bytes,
/// lines, words, and the shapes that broke things before: long names, deep nesting, aliases,
/// CRLF, a BOM) and checks that each mutant either loads, validates and renders, or fails with
/// errors that are all located in a real file, never a crash, and within the time bound.
///
/// `swift test --filter SchemaFuzzTests` runs a short pass (500 cases); a long one:
/// `STRATA_FUZZ_CASES=20000 STRATA_FUZZ_SEED=7 swift test --filter SchemaFuzzTests`.
@Suite struct SchemaFuzzTests {
    /// SplitMix64: the same seed gives the same cases on every machine.
    struct Generator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        mutating func below(_ bound: Int) -> Int { bound <= 1 ? 0 : Int(next() % UInt64(bound)) }
    }

    /// Words a mutation may put in: keys, types, values, and troublemakers.
    static let words = [
        "model:", "version:", "entities:", "enums:", "fields:", "type:", "default:", "primaryKey:", "autoincrement:",
        "unique:", "column:", "onDelete:", "renamedFrom:", "transform:", "hasMany:", "via:", "entity:", "indexes:", "table:",
        "naming:", "migration:", "allowDataLoss:", "before:", "after:", "cases:", "unknown:", "doc:", "String", "Int", "Int64",
        "Int32", "Int16", "Double", "Float", "Bool", "UUID", "Date", "Data", "Decimal", "String?", "cascade", "setNull",
        "null", "true", "~", "-1", "99999999999999999999", "1e400", "\"\"", "''", "[]", "{}", "- ", ": ", "&a", "*a", "<<: *a",
        "\t", "\u{0}", "é", "\u{FEFF}", "!!binary", "%YAML 1.1", "---", "...", "#", "?",
        String(repeating: "x", count: 300), String(repeating: "[", count: 1_100),
    ]

    /// The seed files: every valid fixture version (most cases start from one) and every bad case's files.
    static func seeds(valid: Bool) -> [(name: String, text: String)] {
        var seeds: [(String, String)] = []
        for folder in valid ? [TestPaths.models, TestPaths.schemas] : [TestPaths.bad] {
            for path in TestPaths.files(under: folder) where path.hasSuffix(".yaml") {
                if let text = try? String(contentsOf: folder.appendingPathComponent(path), encoding: .utf8) {
                    seeds.append((path, text))
                }
            }
        }
        return seeds.sorted { $0.0 < $1.0 }
    }

    /// One mutant of `text`.
    static func mutate(_ text: String, _ random: inout Generator) -> String {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        for _ in 0...random.below(3) {
            guard !lines.isEmpty else { break }
            let at = random.below(lines.count)
            switch random.below(10) {
            case 0: lines.remove(at: at)
            case 1: lines.insert(lines[random.below(lines.count)], at: at)
            case 2: lines.swapAt(at, random.below(lines.count))
            case 3: lines[at] = String(repeating: " ", count: random.below(8)) + lines[at]
            case 4: lines[at] += " " + words[random.below(words.count)]
            case 5:
                var scalars = Array(lines[at].unicodeScalars)
                if !scalars.isEmpty { scalars[random.below(scalars.count)] = Unicode.Scalar(UInt8(random.below(128))) }
                lines[at] = String(String.UnicodeScalarView(scalars))
            case 6:
                let parts = lines[at].split(separator: " ", omittingEmptySubsequences: false).map(String.init)
                var changed = parts
                changed[random.below(parts.count)] = words[random.below(words.count)]
                lines[at] = changed.joined(separator: " ")
            case 7: lines[at] = String(lines[at].prefix(random.below(lines[at].count + 1)))
            case 8: lines.insert(String(repeating: " ", count: 2 * random.below(5)) + words[random.below(words.count)], at: at)
            default: lines[at] = lines[at].replacingOccurrences(of: ":", with: random.below(2) == 0 ? "" : "::")
            }
        }
        var result = lines.joined(separator: random.below(8) == 0 ? "\r\n" : "\n")
        if random.below(20) == 0 { result = "\u{FEFF}" + result }
        return result
    }

    /// `text` with its `version:` line set to `number`, and its model name.
    static func versioned(_ text: String, _ number: Int) -> (text: String, model: String) {
        var model = "M"
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            if line.hasPrefix("version:") { return "version: \(number)" }
            if line.hasPrefix("model:") { model = line.dropFirst("model:".count).trimmingCharacters(in: .whitespaces) }
            return String(line)
        }
        return (lines.joined(separator: "\n"), model.isEmpty ? "M" : model)
    }

    @Test func mutatedSchemasLoadOrFailWithLocatedErrors() throws {
        let environment = ProcessInfo.processInfo.environment
        let cases = environment["STRATA_FUZZ_CASES"].flatMap(Int.init) ?? 500
        var random = Generator(state: environment["STRATA_FUZZ_SEED"].flatMap(UInt64.init) ?? 2026)
        let valid = Self.seeds(valid: true)
        let bad = Self.seeds(valid: false)
        try #require(!valid.isEmpty && !bad.isEmpty)
        let folder = try TestPaths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var counts = (loaded: 0, rejected: 0, slowest: Duration.zero)
        for index in 0..<cases {
            // A model of one or two versions: a mutant of a seed, after an unchanged seed or alone.
            let pool = random.below(5) == 0 ? bad : valid
            let seed = pool[random.below(pool.count)].text
            let twoVersions = random.below(2) == 0
            let first = Self.versioned(seed, 1)
            let name = first.model.allSatisfy { $0.isLetter || $0.isNumber } ? first.model : "M"
            let model = folder.appendingPathComponent("case\(index)/\(name)")
            try FileManager.default.createDirectory(at: model, withIntermediateDirectories: true)
            if twoVersions { try Data(first.text.utf8).write(to: model.appendingPathComponent("v1.yaml")) }
            // Some cases keep the seed as it is (a second version identical to the first, or a
            // valid model alone): the render path must hold too.
            let unchanged = Self.versioned(seed, twoVersions ? 2 : 1).text
            let mutant = random.below(10) == 0 ? unchanged : Self.mutate(unchanged, &random)
            try Data(mutant.utf8).write(to: model.appendingPathComponent(twoVersions ? "v2.yaml" : "v1.yaml"))
            let root = model.deletingLastPathComponent().path
            let clock = ContinuousClock()
            let start = clock.now
            let plan = Workspace.plan(schemas: root, output: root + "/Generated")
            let elapsed = clock.now - start
            counts.slowest = max(counts.slowest, elapsed)
            #expect(elapsed < .seconds(5), "case \(index) took \(elapsed)")
            let errors = plan.diagnostics.filter { $0.severity == .error }
            if errors.isEmpty {
                counts.loaded += 1
                #expect(!plan.files.isEmpty, "case \(index) loaded but rendered nothing")
            } else {
                counts.rejected += 1
                for error in errors {
                    #expect(error.location.file.hasPrefix(root), "case \(index): unlocated error \(error)")
                    #expect(error.location.line >= 1 && error.location.column >= 1, "case \(index): \(error)")
                }
            }
            try? FileManager.default.removeItem(at: model.deletingLastPathComponent())
        }
        print("schema fuzz: \(cases) cases, \(counts.loaded) loaded and rendered, \(counts.rejected) rejected with located errors, slowest \(counts.slowest)")
    }
}
