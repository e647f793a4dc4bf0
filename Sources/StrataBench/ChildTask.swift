import Foundation
import StrataCore
import StrataRepositoryBenchmark

/// The parts of the suite that run in a child process so their peak memory is theirs alone
/// (`strata-bench child <task> …`).
public enum ChildTask {
    /// The line a child prints last: its own peak resident memory, for the parent to read.
    public static let peakPrefix = "peak-resident-bytes: "

    /// Runs the task named by `arguments[0]`, then prints ``peakPrefix`` and the process's peak
    /// resident memory; throws on unknown tasks or failures.
    public static func run(_ arguments: [String]) throws {
        try perform(arguments)
        if let peak = ownPeakResidentBytes() { print(peakPrefix + String(peak)) }
    }

    /// This process's peak resident set size: `VmHWM` of `/proc/self/status` (Linux).
    ///
    /// Not `ru_maxrss` seen by the parent: Linux carries the peak of the memory image a child
    /// replaced by `exec` (the parent's, for a spawned child) into it.
    static func ownPeakResidentBytes() -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            if fields.count >= 3, let kilobytes = Int(fields[1]), fields[2] == "kB" { return kilobytes * 1_024 }
        }
        return nil
    }

    private static func perform(_ arguments: [String]) throws {
        guard let task = arguments.first else { throw Failure(description: "child: no task") }
        let rest = Array(arguments.dropFirst())
        switch (task, rest.count) {
        case ("idle", 0):
            return
        case ("generate", 1), ("generate", 2):
            // What `strata generate` does (files rendered, compared with disk and staged as they
            // come), into the given folder or a temporary one removed afterwards.
            let output = rest.count == 2 ? rest[1] : NSTemporaryDirectory() + "strata-bench-generate-" + UUID().uuidString
            defer { if rest.count == 1 { try? FileManager.default.removeItem(atPath: output) } }
            let outcome = try Workspace.generate(schemas: rest[0], output: output)
            if outcome.hasErrors || outcome.files == 0 {
                throw Failure(description: "generate failed: \(outcome.diagnostics.prefix(3))")
            }
        case ("check", 2):
            // What `strata check` does (files rendered and compared with disk as they come), on an
            // output folder that must be current.
            let outcome = Workspace.check(schemas: rest[0], output: rest[1])
            if !outcome.isCurrent {
                throw Failure(
                    description: "check found problems: \(outcome.diagnostics.prefix(3)) \(outcome.stale.prefix(3).map(\.path))")
            }
        case ("write-model", 2):
            // The generator section's synthetic model, kept for profiling `strata generate` on it.
            guard let entities = Int(rest[0]), entities > 0 else {
                throw Failure(description: "write-model: entities must be a positive number")
            }
            print(try GeneratorBenchmark.writeModel(entities: entities, under: rest[1]))
        case ("measure", 1...):
            // A program run as this child's child: its `ru_maxrss` starts from this small process's peak.
            let outcome = try Subprocess.run(rest[0], Array(rest.dropFirst()))
            print(
                Measured(
                    status: outcome.status, seconds: outcome.seconds, cpuSeconds: outcome.cpuSeconds,
                    peak: outcome.peakResidentBytes
                ).line)
        case ("write-fetch-database", 2):
            // The memory section's 100,000-row database, kept for profiling `child fetch` on it.
            guard let rows = Int(rest[0]), rows > 0 else {
                throw Failure(description: "write-fetch-database: rows must be a positive number")
            }
            try FetchProbe.makeDatabase(at: rest[1], rows: rows)
        case ("parse", 1):
            try GeneratorBenchmark.parseOnly(folder: rest[0], with: .generator)
        case ("fetch", 2), ("fetch", 3):
            // `fetch <implementation> <database> [times]`: times > 1 for profiling the fetch itself.
            guard let implementation = FetchProbe.Implementation(rawValue: rest[0]) else {
                throw Failure(description: "child fetch: unknown implementation \(rest[0])")
            }
            let times = rest.count == 3 ? Int(rest[2]) ?? 1 : 1
            let count = try FetchProbe.fetchAll(from: rest[1], with: implementation, times: times)
            if count == 0 { throw Failure(description: "child fetch: no rows") }
        default:
            throw Failure(description: "child: unknown task \(arguments.joined(separator: " "))")
        }
    }

    /// What `measure` reports of the program it ran: one line, `measured: status seconds cpu-seconds peak-bytes`.
    struct Measured {
        var status: Int32
        var seconds: Double
        var cpuSeconds: Double
        var peak: Int

        static let prefix = "measured: "

        var line: String { Self.prefix + "\(status) \(seconds) \(cpuSeconds) \(peak)" }

        init(status: Int32, seconds: Double, cpuSeconds: Double, peak: Int) {
            self.status = status
            self.seconds = seconds
            self.cpuSeconds = cpuSeconds
            self.peak = peak
        }

        /// The last `measured:` line of a child's output.
        init?(parsing output: String) {
            guard let line = output.split(separator: "\n").last(where: { $0.hasPrefix(Self.prefix) }) else {
                return nil
            }
            let fields = line.dropFirst(Self.prefix.count).split(separator: " ")
            guard fields.count == 4, let status = Int32(fields[0]), let seconds = Double(fields[1]),
                let cpuSeconds = Double(fields[2]), let peak = Int(fields[3])
            else { return nil }
            self.init(status: status, seconds: seconds, cpuSeconds: cpuSeconds, peak: peak)
        }
    }

    /// Why a child task failed.
    public struct Failure: Error, CustomStringConvertible {
        /// What went wrong.
        public var description: String
    }
}
