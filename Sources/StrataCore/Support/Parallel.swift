import Dispatch
import Foundation

/// Runs independent, pure jobs on every core, and returns their results in the jobs' order: the
/// output never depends on scheduling. Used where the generator's work splits naturally (one job
/// per version file, per migration, per output file).
enum Parallel {
    /// `jobs.map { $0() }`, the jobs running concurrently.
    static func map<T: Sendable>(_ jobs: [@Sendable () -> T]) -> [T] {
        guard jobs.count > 1 else { return jobs.map { $0() } }
        let results = Slots<T>(count: jobs.count)
        DispatchQueue.concurrentPerform(iterations: jobs.count) { index in
            results[index] = jobs[index]()
        }
        return results.values
    }

    /// Runs `jobs` concurrently a few at a time (`width`, by default as many as there are cores)
    /// and hands their results to `body` in the jobs' order, so that no more than a few results
    /// are held at once.
    static func forEach<T: Sendable, Failure: Error>(
        _ jobs: [@Sendable () -> T], width: Int? = nil, _ body: (T) throws(Failure) -> Void
    ) throws(Failure) {
        let width = max(1, width ?? ProcessInfo.processInfo.activeProcessorCount)
        var start = 0
        while start < jobs.count {
            let end = min(start + width, jobs.count)
            for result in map(Array(jobs[start..<end])) { try body(result) }
            start = end
        }
    }

    /// `items.map(transform)`, the transforms running concurrently.
    static func map<Item: Sendable, T: Sendable>(_ items: [Item], _ transform: @escaping @Sendable (Item) -> T) -> [T] {
        map(items.map { item in { transform(item) } })
    }
}

/// One slot per job, each written once by its own job.
private final class Slots<T>: @unchecked Sendable {
    private var slots: [T?]
    private let lock = NSLock()

    init(count: Int) { slots = Array(repeating: nil, count: count) }

    subscript(index: Int) -> T? {
        get { lock.withLock { slots[index] } }
        set { lock.withLock { slots[index] = newValue } }
    }

    /// Every result, in order (every job has run).
    var values: [T] { lock.withLock { slots.map { $0! } } }
}
