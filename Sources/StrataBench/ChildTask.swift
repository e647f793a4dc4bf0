import Foundation
import StrataCore
import StrataRepositoryBenchmark

/// The parts of the suite that run in a child process so their peak memory is theirs alone
/// (`strata-bench child <task> …`).
public enum ChildTask {
    /// Runs the task named by `arguments[0]`; throws on unknown tasks or failures.
    public static func run(_ arguments: [String]) throws {
        guard let task = arguments.first else { throw Failure(description: "child: no task") }
        let rest = Array(arguments.dropFirst())
        switch (task, rest.count) {
        case ("idle", 0):
            return
        case ("generate", 1), ("generate", 2):
            // With an output folder, the files are written too (to compare them with `strata generate`'s).
            let plan = Workspace.plan(schemas: rest[0], output: rest.count == 2 ? rest[1] : "Generated")
            if plan.hasErrors || plan.files.isEmpty { throw Failure(description: "generate failed: \(plan.diagnostics.prefix(3))") }
            if rest.count == 2 { try Workspace.write(plan) }
        case ("parse", 1):
            try GeneratorBenchmark.parseOnly(folder: rest[0])
        case ("fetch", 2):
            guard let implementation = FetchProbe.Implementation(rawValue: rest[0]) else {
                throw Failure(description: "child fetch: unknown implementation \(rest[0])")
            }
            let count = try FetchProbe.fetchAll(from: rest[1], with: implementation)
            if count == 0 { throw Failure(description: "child fetch: no rows") }
        default:
            throw Failure(description: "child: unknown task \(arguments.joined(separator: " "))")
        }
    }

    /// Why a child task failed.
    public struct Failure: Error, CustomStringConvertible {
        /// What went wrong.
        public var description: String
    }
}
