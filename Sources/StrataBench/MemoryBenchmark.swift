import Foundation
import StrataRepositoryBenchmark

/// Peak resident memory, each measured part in a child process of its own (this executable,
/// `strata-bench child …`), which reports its own peak (`VmHWM`; `ru_maxrss` from `wait4` where
/// there is no `/proc`):
///
/// - `generate` of the 1,000-entity synthetic model, and `check` of its current output, against the
///   YAML parse alone of the same files, composed as the generator composes them;
/// - fetching every row of a 100,000-row database file into Swift values with the generated
///   repository, against raw SQLite (the same values, read by hand), and a GRDB Codable record
///   against the generated repository.
///
/// Every child also holds what any Swift process holds (runtime, Foundation): the `idle` child's
/// peak, reported with each figure.
public struct MemoryBenchmark: Sendable {
    /// Entities of the model generated.
    public var entities: Int
    /// Rows fetched.
    public var rows: Int
    /// Children per measurement (the smallest peak counts).
    public var repetitions: Int
    /// A scratch folder.
    public var workDirectory: String
    /// The executable that runs `child` commands (this one).
    public var executable: String

    /// A benchmark.
    public init(entities: Int = 1_000, rows: Int = 100_000, repetitions: Int = 2, workDirectory: String, executable: String) {
        self.entities = entities
        self.rows = rows
        self.repetitions = repetitions
        self.workDirectory = workDirectory
        self.executable = executable
    }

    /// Why a child failed.
    public struct Failure: Error, CustomStringConvertible {
        /// What went wrong.
        public var description: String
    }

    /// Measures and returns the figures.
    public func run(progress: (String) -> Void = { _ in }) throws -> [Figure] {
        let idle = try peak(["idle"])
        let floor = "a child that does nothing peaks at \(Format.bytes(idle))"

        progress("memory: generate \(Format.count(entities)) entities")
        let schemas = try GeneratorBenchmark.writeModel(entities: entities, under: workDirectory)
        let folder = (schemas as NSString).appendingPathComponent(SyntheticModel.name)
        let generate = try peak(["generate", schemas])
        let parse = try peak(["parse", folder])
        // `check` against a current output folder, as CI runs it.
        let output = (workDirectory as NSString).appendingPathComponent("memory-check/Generated")
        try? FileManager.default.removeItem(atPath: output)
        defer { try? FileManager.default.removeItem(atPath: output) }
        _ = try peak(["generate", schemas, output])
        let check = try peak(["check", schemas, output])

        progress("memory: fetch \(Format.count(rows)) rows")
        let database = (workDirectory as NSString).appendingPathComponent("memory-fetch.sqlite")
        MigrationBenchmark.remove(database)
        defer { MigrationBenchmark.remove(database) }
        try FetchProbe.makeDatabase(at: database, rows: rows)
        let generated = try peak(["fetch", FetchProbe.Implementation.generated.rawValue, database])
        let raw = try peak(["fetch", FetchProbe.Implementation.raw.rawValue, database])
        let codable = try peak(["fetch", FetchProbe.Implementation.codable.rawValue, database])

        return [
            Figure(
                section: .memory, name: "peak RSS, generate \(Format.count(entities)) entities x 20 fields x 5 versions",
                value: Double(generate), baselineName: "peak RSS, YAML parse alone (the generator's composer)", baseline: Double(parse), unit: .bytes,
                detail: floor),
            Figure(
                section: .memory, name: "peak RSS, check \(Format.count(entities)) entities (Generated/ current)",
                value: Double(check), baselineName: "peak RSS, YAML parse alone (the generator's composer)", baseline: Double(parse), unit: .bytes,
                detail: floor),
            Figure(
                section: .memory, name: "peak RSS, fetch all \(Format.count(rows)) rows, generated repository",
                value: Double(generated), baselineName: "peak RSS, raw SQLite C API", baseline: Double(raw), unit: .bytes,
                detail: floor),
            Figure(
                section: .memory, name: "peak RSS, fetch all \(Format.count(rows)) rows, GRDB Codable record",
                value: Double(codable), baselineName: "peak RSS, generated repository", baseline: Double(generated),
                unit: .bytes, detail: floor),
        ]
    }

    /// The smallest peak of `repetitions` children running `child arguments…`.
    private func peak(_ arguments: [String]) throws -> Int {
        var best = Int.max
        for _ in 0..<max(1, repetitions) {
            let log = (workDirectory as NSString).appendingPathComponent("child.log")
            try? FileManager.default.removeItem(atPath: log)
            let outcome = try Subprocess.run(executable, ["child"] + arguments, log: log)
            guard outcome.status == 0 else {
                let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
                throw Failure(description: "child \(arguments.joined(separator: " ")) failed (\(outcome.status)): \(text)")
            }
            let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            let reported = text.split(separator: "\n").last { $0.hasPrefix(ChildTask.peakPrefix) }
                .flatMap { Int($0.dropFirst(ChildTask.peakPrefix.count)) }
            best = min(best, reported ?? outcome.peakResidentBytes)
        }
        return best
    }
}
