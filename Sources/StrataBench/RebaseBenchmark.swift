import Foundation
import StrataCore

/// `strata rebase` at scale: in a git repository made for the run, a branch that added 5
/// versions of the synthetic model (a field in every entity each) rebased onto a target that
/// added 5 others (`Rebase.run`, in process: reading the three sides from git, five three-way
/// merges, checking the result, writing versions, `strata.lock` and `Generated/`), against
/// `strata generate` of the rebased model into an empty output folder (`Workspace.generate`),
/// which the rebase does as its last step.
public struct RebaseBenchmark: Sendable {
    /// Entities of the synthetic model.
    public var entities: Int
    /// Timed runs of each, after one warm-up (the fastest counts).
    public var repetitions: Int
    /// A scratch folder for the repository.
    public var workDirectory: String

    /// Target: rebase / generate at most this.
    public static let target = 3.0
    /// Versions each side adds.
    public static let addedVersions = 5

    /// A benchmark on the synthetic model of `entities` entities.
    public init(entities: Int = 1_000, repetitions: Int = 3, workDirectory: String) {
        self.entities = entities
        self.repetitions = repetitions
        self.workDirectory = workDirectory
    }

    /// Why a run could not be measured.
    public struct Failure: Error, CustomStringConvertible {
        /// What went wrong.
        public var description: String
    }

    /// Version `number` of one side: the synthetic model's v1 with a field per added version in
    /// every entity (`<prefix>2`, `<prefix>3`, …).
    static func version(_ number: Int, base: String, prefix: String) -> String {
        var fields = ""
        if number >= 2 {
            for added in 2...number { fields += "      \(prefix)\(added): Int?\n" }
        }
        return base.replacingOccurrences(of: "version: 1\n", with: "version: \(number)\n")
            .replacingOccurrences(of: "      payload: Data?\n", with: "      payload: Data?\n" + fields)
    }

    /// Builds the repository, times both, checks the rebased model, returns the figures.
    public func run(progress: (String) -> Void = { _ in }) throws -> [Figure] {
        let root = (workDirectory as NSString).appendingPathComponent("rebase-\(entities)")
        let manager = FileManager.default
        if manager.fileExists(atPath: root) { try manager.removeItem(atPath: root) }
        let schemas = (root as NSString).appendingPathComponent("Schemas")
        let output = (root as NSString).appendingPathComponent("Generated")
        let folder = (schemas as NSString).appendingPathComponent(SyntheticModel.name)
        try manager.createDirectory(atPath: folder, withIntermediateDirectories: true)
        progress(
            "rebase: a repository of the synthetic model (\(Format.count(entities)) entities), two branches of \(Self.addedVersions) versions"
        )
        let base = SyntheticModel(entities: entities, versions: 1).text(ofVersion: 1)
        func git(_ arguments: String...) throws {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["git", "-C", root] + arguments
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            process.waitUntilExit()
            guard process.terminationStatus == 0 else {
                throw Failure(description: "git \(arguments.joined(separator: " ")) failed")
            }
        }
        func write(_ number: Int, prefix: String) throws {
            try Data(Self.version(number, base: base, prefix: prefix).utf8).write(
                to: URL(fileURLWithPath: (folder as NSString).appendingPathComponent("v\(number).yaml")))
        }
        try git("init", "-q", "-b", "main")
        try git("config", "user.name", "strata-bench")
        try git("config", "user.email", "bench@example.com")
        try git("config", "commit.gpgsign", "false")
        try Data("Generated/\n".utf8).write(
            to: URL(fileURLWithPath: (root as NSString).appendingPathComponent(".gitignore")))
        try write(1, prefix: "")
        try git("add", "-A")
        try git("commit", "-q", "-m", "base")
        try git("branch", "feature")
        for number in 2...(1 + Self.addedVersions) { try write(number, prefix: "main") }
        try git("add", "-A")
        try git("commit", "-q", "-m", "main")
        try git("checkout", "-q", "feature")
        for number in 2...(1 + Self.addedVersions) { try write(number, prefix: "branch") }
        try git("add", "-A")
        try git("commit", "-q", "-m", "feature")

        func reset() throws {
            try git("checkout", "-q", "-f", "feature")
            try git("clean", "-q", "-f", "-d", "-x", "--", "Schemas", "Generated")
        }
        var outcome = Rebase.Outcome()
        let generatedOutput = (workDirectory as NSString).appendingPathComponent("rebase-\(entities)-generate")
        let times = try Stopwatch.fastest(
            repetitions: repetitions,
            [
                {
                    try reset()
                    outcome = try Rebase.run(schemas: schemas, output: output, onto: "main", directory: root)
                },
                {
                    if manager.fileExists(atPath: generatedOutput) { try manager.removeItem(atPath: generatedOutput) }
                    // The rebased model, as the rebase just wrote it.
                    let generated = try Workspace.generate(schemas: schemas, output: generatedOutput)
                    if generated.hasErrors { throw Failure(description: "the rebased model does not generate") }
                },
            ])
        guard !outcome.hasErrors, outcome.replayed.count == Self.addedVersions else {
            let first = outcome.diagnostics.prefix(3).map { "\($0)" }.joined(separator: "\n")
            throw Failure(description: "the rebase did not replay \(Self.addedVersions) versions:\n\(first)")
        }
        return [
            Figure(
                section: .rebase,
                name:
                    "rebase \(Self.addedVersions) versions onto \(Self.addedVersions) (\(Format.count(entities)) entities)",
                value: times[0], baselineName: "strata generate of the rebased model", baseline: times[1],
                unit: .seconds,
                target: .ratioAtMost(Self.target),
                detail: "\(1 + 2 * Self.addedVersions) versions after the rebase; fastest of \(repetitions)")
        ]
    }
}
