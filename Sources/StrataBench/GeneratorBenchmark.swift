import Foundation
import StrataCore
import Yams

/// Generator scale: `generate` (load, validate, diff, plan, render every output of every dialect
/// and every migration: what `strata generate` does before writing) against the YAML parse alone
/// (reading the same files and composing them with `Yams.compose` and its basic resolver, the
/// baseline the targets were set against), on synthetic models of growing size.
///
/// The generator no longer composes with Yams: `SchemaLoader.composeYAML` builds its nodes from
/// libyaml's events directly, about 4x faster. That composer is timed too and given in each
/// figure's detail; it is not the baseline, because a ratio to the generator's own first stage
/// grows every time that stage gets faster.
public struct GeneratorBenchmark: Sendable {
    /// The model sizes, in entities (each of 20 fields over 5 versions).
    public var sizes: [Int]
    /// Timed runs per size, after one warm-up (the fastest counts).
    public var repetitions: Int
    /// A scratch folder the models are written into.
    public var workDirectory: String

    /// Target: generate / parse at most this.
    public static let ratioTarget = 3.0
    /// Target: the largest model (1,000 entities) generated in under this many seconds.
    public static let largestBudget = 2.0
    /// Target: time growth over a 10x larger model at most this factor of linear.
    public static let growthTarget = 1.25

    /// A benchmark over `sizes`.
    public init(sizes: [Int] = [10, 100, 1_000], repetitions: Int = 5, workDirectory: String) {
        self.sizes = sizes
        self.repetitions = repetitions
        self.workDirectory = workDirectory
    }

    /// Why a run could not be measured.
    public struct Failure: Error, CustomStringConvertible {
        /// What went wrong.
        public var description: String
    }

    /// The times of one size.
    public struct Timing: Sendable {
        /// Entities.
        public var entities: Int
        /// Seconds to generate everything.
        public var generate: Double
        /// Seconds to read and compose the same files with `Yams.compose` and its basic resolver.
        public var parse: Double
        /// Seconds to read and compose them as the generator does (`SchemaLoader.composeYAML`).
        public var parseOwnComposer: Double
        /// The input's size in bytes.
        public var inputBytes: Int
        /// CPU seconds (user + system, all threads) of generate, and of the parse alone.
        public var generateCPU: Double
        public var parseCPU: Double
        /// CPU seconds of the generator's own compose of the same files.
        public var parseOwnComposerCPU: Double
        /// How many files generate produced, and their total size in bytes.
        public var outputFiles: Int
        /// Total bytes of the generated files.
        public var outputBytes: Int
    }

    /// Measures every size and returns the figures.
    public func run(progress: (String) -> Void = { _ in }) throws -> [Figure] {
        var timings: [Timing] = []
        for size in sizes {
            progress("generator: \(size) entities")
            timings.append(try measure(entities: size))
        }
        return Self.figures(timings)
    }

    /// Writes the model of `entities` entities and times generate and parse, taking turns.
    public func measure(entities: Int) throws -> Timing {
        let schemas = try Self.writeModel(entities: entities, under: workDirectory)
        let output = (workDirectory as NSString).appendingPathComponent("generator-\(entities)/Generated")
        let check = Workspace.plan(schemas: schemas, output: output)
        if check.hasErrors {
            let first = check.diagnostics.prefix(3).map { "\($0)" }.joined(separator: "\n")
            throw Failure(description: "the synthetic model of \(entities) entities does not generate:\n\(first)")
        }
        let folder = (schemas as NSString).appendingPathComponent(SyntheticModel.name)
        let inputBytes = try Self.versionFiles(in: folder).reduce(0) { total, path in
            total + ((try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0)
        }
        var files = 0
        var bytes = 0
        let times = try Stopwatch.fastest(
            repetitions: repetitions,
            [
                {
                    let plan = Workspace.plan(schemas: schemas, output: output)
                    files = plan.files.count
                    bytes = plan.files.reduce(0) { $0 + $1.contents.utf8.count }
                },
                { try Self.parseOnly(folder: folder) },
                { try Self.parseOnly(folder: folder, with: .generator) },
            ])
        // CPU time, fastest of the same number of runs: the wall-time ratio rests on rendering in
        // parallel, so a busy machine reads it differently; CPU time does not.
        var cpu = (generate: Double.infinity, parse: Double.infinity, own: Double.infinity)
        for _ in 0..<max(1, repetitions) {
            cpu.generate = min(cpu.generate, Stopwatch.cpuTime { _ = Workspace.plan(schemas: schemas, output: output) })
            cpu.parse = min(cpu.parse, try Stopwatch.cpuTime { try Self.parseOnly(folder: folder) })
            cpu.own = min(cpu.own, try Stopwatch.cpuTime { try Self.parseOnly(folder: folder, with: .generator) })
        }
        return Timing(
            entities: entities, generate: times[0], parse: times[1], parseOwnComposer: times[2], inputBytes: inputBytes,
            generateCPU: cpu.generate, parseCPU: cpu.parse, parseOwnComposerCPU: cpu.own, outputFiles: files,
            outputBytes: bytes)
    }

    /// Writes the synthetic model of `entities` entities under `directory` and returns its schemas folder.
    public static func writeModel(entities: Int, under directory: String) throws -> String {
        let schemas = (directory as NSString).appendingPathComponent("generator-\(entities)/Schemas")
        try SyntheticModel(entities: entities).write(into: schemas)
        return schemas
    }

    /// Which YAML composer a parse runs.
    public enum Composer: Sendable {
        /// `Yams.compose` with the basic resolver (scalars typed later, when read): the baseline.
        case yams
        /// `SchemaLoader.composeYAML`: libyaml's events into the generator's own nodes, what
        /// `generate` runs first.
        case generator
    }

    /// The parse: read every version file of the model folder and compose its YAML nodes with
    /// `composer`. Returns how many documents were not empty.
    @discardableResult
    public static func parseOnly(folder: String, with composer: Composer = .yams) throws -> Int {
        var documents = 0
        for path in try versionFiles(in: folder) {
            guard let data = FileManager.default.contents(atPath: path) else {
                throw Failure(description: "cannot read \(path)")
            }
            let text = String(decoding: data, as: UTF8.self)
            let composed =
                switch composer {
                case .yams: try Yams.compose(yaml: text, .basic) != nil
                case .generator: SchemaLoader.composeYAML(text)
                }
            if composed { documents += 1 }
        }
        return documents
    }

    /// The `vN.yaml` files of a model folder, sorted.
    static func versionFiles(in folder: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder)
            .filter { $0.hasSuffix(".yaml") }
            .sorted()
            .map { (folder as NSString).appendingPathComponent($0) }
    }

    /// The figures of a run: per size generate against parse; the largest size against its time
    /// budget; growth between the last two sizes against linear.
    static func figures(_ timings: [Timing]) -> [Figure] {
        var figures: [Figure] = []
        for timing in timings {
            figures.append(
                Figure(
                    section: .generator,
                    name: "generate \(Format.count(timing.entities)) entities x 20 fields x 5 versions",
                    value: timing.generate, baselineName: "YAML parse alone (read + Yams.compose)", baseline: timing.parse,
                    unit: .seconds, target: .ratioAtMost(ratioTarget),
                    detail: "\(Format.bytes(timing.inputBytes)) of YAML -> \(timing.outputFiles) files, \(Format.bytes(timing.outputBytes)); "
                        + "the generator's own composer: \(Format.value(timing.parseOwnComposer, .seconds)) "
                        + "(generate \(Format.ratio(timing.generate / timing.parseOwnComposer)) of that)"))
            figures.append(
                Figure(
                    section: .generator,
                    name: "generate \(Format.count(timing.entities)) entities: CPU time (user + system)",
                    value: timing.generateCPU, baselineName: "YAML parse alone, CPU time", baseline: timing.parseCPU,
                    unit: .seconds, target: .ratioAtMost(ratioTarget),
                    detail: "wall \(Format.value(timing.generate, .seconds)) on \(ProcessInfo.processInfo.activeProcessorCount) cores; "
                        + "the generator's own composer: \(Format.value(timing.parseOwnComposerCPU, .seconds)) CPU "
                        + "(generate \(Format.ratio(timing.generateCPU / timing.parseOwnComposerCPU)) of that)"))
        }
        if let largest = timings.last, largest.entities >= 1_000 {
            figures.append(
                Figure(
                    section: .generator, name: "generate \(Format.count(largest.entities)) entities: time budget",
                    value: largest.generate, baselineName: "the budget", baseline: largestBudget, unit: .seconds,
                    target: .valueBelow(largestBudget)))
        }
        if timings.count >= 2 {
            let small = timings[timings.count - 2]
            let large = timings[timings.count - 1]
            let scale = Double(large.entities) / Double(small.entities)
            figures.append(
                Figure(
                    section: .generator,
                    name: "growth of generate, \(Format.count(small.entities)) -> \(Format.count(large.entities)) entities",
                    value: large.generate / small.generate, baselineName: "linear", baseline: scale, unit: .factor,
                    target: .ratioAtMost(growthTarget),
                    detail: String(format: "parse alone grows %.1fx", large.parse / small.parse)))
        }
        return figures
    }
}
