import Foundation
import StrataCore

/// The largest allowed input: `strata lint` and `strata generate` (the release binary) on the
/// synthetic model whose one version file is as large as ``Limits/versionFileBytes`` allows,
/// held to the bounds of `Docs/SchemaReference.md` ("Limits"): lint < 2 s, generate < 5 s, and
/// peak resident memory above the process's baseline (the same command on a one-entity model)
/// at most 20 times the input's size.
///
/// Each command runs as a grandchild (`strata-bench child measure strata …`): its `ru_maxrss`
/// then starts from the small child's peak instead of this process's (see ``Subprocess/Outcome``).
public struct LargestInputBenchmark: Sendable {
    /// The `strata` executable (release).
    public var strata: String
    /// Runs per command (the fastest time and the smallest peak count).
    public var repetitions: Int
    /// A scratch folder.
    public var workDirectory: String
    /// The executable that runs `child` commands (this one).
    public var executable: String

    /// Time bounds, in seconds.
    public static let lintBudget = 2.0
    public static let generateBudget = 5.0
    /// Peak memory above the baseline, as a multiple of the input's size.
    public static let memoryRatio = 20.0

    /// A benchmark.
    public init(strata: String, repetitions: Int = 2, workDirectory: String, executable: String) {
        self.strata = strata
        self.repetitions = repetitions
        self.workDirectory = workDirectory
        self.executable = executable
    }

    /// One command's figures: the fastest wall and CPU time, the smallest peak.
    struct Run {
        var seconds = Double.infinity
        var cpuSeconds = Double.infinity
        var peak = Int.max
    }

    /// Measures and returns the figures.
    public func run(progress: (String) -> Void = { _ in }) throws -> [Figure] {
        let model = SyntheticModel.largest(fittingIn: Limits.versionFileBytes)
        progress("memory: largest allowed input, \(Format.count(model.entities)) entities")
        let schemas = (workDirectory as NSString).appendingPathComponent("largest/Schemas")
        let folder = try model.write(into: schemas)
        let input = try FileManager.default.attributesOfItem(atPath: folder + "/v1.yaml")[.size] as? Int ?? 0
        let small = (workDirectory as NSString).appendingPathComponent("smallest/Schemas")
        try SyntheticModel(entities: 1, versions: 1).write(into: small)

        var figures: [Figure] = []
        let what = "largest allowed input (\(Format.bytes(input)), \(Format.count(model.entities)) entities)"
        for (command, budget) in [("lint", Self.lintBudget), ("generate", Self.generateBudget)] {
            let large = try measure(command, schemas: schemas)
            let baseline = try measure(command, schemas: small)
            let above = max(0, large.peak - baseline.peak)
            figures.append(
                Figure(
                    section: .memory, name: "\(command), \(what): time", value: large.seconds,
                    baselineName: "the bound",
                    baseline: budget, unit: .seconds, target: .valueBelow(budget),
                    detail: "CPU (user + system) \(Format.value(large.cpuSeconds, .seconds)) on "
                        + "\(ProcessInfo.processInfo.activeProcessorCount) cores; release `strata`, fastest of \(repetitions)"
                ))
            figures.append(
                Figure(
                    section: .memory, name: "\(command), \(what): peak RSS above baseline", value: Double(above),
                    baselineName: "the input's size", baseline: Double(input), unit: .bytes,
                    target: .ratioAtMost(Self.memoryRatio),
                    detail:
                        "peak RSS \(Format.bytes(large.peak)) (\(Format.ratio(Double(large.peak) / Double(max(1, input)))) the input) "
                        + "less the baseline \(Format.bytes(baseline.peak)), `strata \(command)` on a one-entity model")
            )
        }
        return figures
    }

    /// `strata <command>` on `schemas`, `repetitions` times in grandchildren.
    private func measure(_ command: String, schemas: String) throws -> Run {
        var arguments = [command, "--schemas", schemas]
        if command == "generate" {
            arguments += [
                "--output", (SchemaLoader.parent(of: schemas) as NSString).appendingPathComponent("Generated"),
            ]
        }
        var best = Run()
        for _ in 0..<max(1, repetitions) {
            if command == "generate" {
                // Every run writes every file, as the first `generate` of a model does.
                try? FileManager.default.removeItem(atPath: arguments[arguments.count - 1])
            }
            let log = (workDirectory as NSString).appendingPathComponent("measure.log")
            try? FileManager.default.removeItem(atPath: log)
            // `--`: the arguments are the measured command's, not options of `child`.
            let outcome = try Subprocess.run(executable, ["child", "--", "measure", strata] + arguments, log: log)
            let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            guard outcome.status == 0, let measured = ChildTask.Measured(parsing: text), measured.status == 0 else {
                throw MemoryBenchmark.Failure(
                    description: "strata \(arguments.joined(separator: " ")) failed: \(text.suffix(2_000))")
            }
            best.seconds = min(best.seconds, measured.seconds)
            best.cpuSeconds = min(best.cpuSeconds, measured.cpuSeconds)
            best.peak = min(best.peak, measured.peak)
        }
        return best
    }

    /// The release `strata` next to this executable (`swift run -c release strata-bench` builds
    /// only the bench), built there first when it is missing.
    public static func strataExecutable(root: String, benchExecutable: String, progress: (String) -> Void) throws
        -> String
    {
        let folder = SchemaLoader.parent(of: benchExecutable)
        let strata = SchemaLoader.join(folder, "strata")
        if FileManager.default.isExecutableFile(atPath: strata) { return strata }
        // <scratch>/<triple>/release/strata-bench: build into the same scratch folder.
        let scratch = SchemaLoader.parent(of: SchemaLoader.parent(of: folder))
        progress("memory: building the release strata into \(scratch)")
        let log = (scratch as NSString).appendingPathComponent("strata-bench-build.log")
        let outcome = try Subprocess.run(
            "swift",
            ["build", "-c", "release", "--product", "strata", "--scratch-path", scratch, "--package-path", root],
            log: log)
        guard outcome.status == 0, FileManager.default.isExecutableFile(atPath: strata) else {
            throw MemoryBenchmark.Failure(description: "cannot build the release strata (see \(log))")
        }
        return strata
    }
}
