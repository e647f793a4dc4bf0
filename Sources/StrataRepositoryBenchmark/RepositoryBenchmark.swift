import Foundation

/// The repository benchmark: the generated repository against raw SQLite (the floor) and a GRDB
/// Codable record (what a user writes by hand), on the same rows, in one run.
///
/// Reusable: `strata-repository-bench` prints ``report(_:rows:repetitions:)`` of ``run(rows:repetitions:)``; another
/// benchmark driver can call `run` and read the numbers.
public enum RepositoryBenchmark {
    /// The operations measured.
    public enum Operation: String, CaseIterable, Sendable {
        case insert = "insert all (one transaction)"
        case fetchAll = "fetch all"
        case fetchFiltered = "filtered + sorted fetch"
    }

    /// The times of one operation: the fastest of the runs (timing noise from other processes only ever
    /// adds time, so the minimum is the steadiest estimate of each implementation's own cost).
    public struct Result: Sendable {
        /// The operation.
        public var operation: Operation
        /// (a) The generated repository, in seconds.
        public var generated: Double
        /// (b) Hand-written raw SQLite C API, in seconds.
        public var raw: Double
        /// (c) A GRDB Codable record, in seconds.
        public var codable: Double
        /// How many rows the operation returned (fetches) or wrote (insert).
        public var rows: Int

        /// Generated / raw: the cost of the generated layer over the floor (target: at most 1.10).
        public var generatedOverRaw: Double { generated / raw }
        /// Codable / generated: how much faster the generated code is than the hand-written record.
        public var codableOverGenerated: Double { codable / generated }
    }

    /// Runs every operation `repetitions` times per implementation (after one warm-up) and
    /// returns the fastest time of each. The implementations take turns within each repetition, so that a
    /// change in machine load affects all three alike. Inserts start from an empty database each time.
    public static func run(rows count: Int = 100_000, repetitions: Int = 5) throws -> [Result] {
        let rows = BenchRows.make(count: count)
        let contenders = [
            Contender(GeneratedImplementation.self, rows: rows),
            Contender(RawSQLiteImplementation.self, rows: rows),
            Contender(CodableImplementation.self, rows: rows),
        ]
        var times = Array(repeating: [Operation: [Double]](), count: contenders.count)
        var returned: [Operation: Int] = [.insert: rows.count]
        var filled: [Filled?] = Array(repeating: nil, count: contenders.count)
        for repetition in 0...repetitions {
            for index in contenders.indices {
                let database = try contenders[index].make()
                let elapsed = try time { try database.insertAll() }
                if repetition > 0 { times[index][.insert, default: []].append(elapsed) }
                filled[index] = database
            }
        }
        for operation in [Operation.fetchAll, .fetchFiltered] {
            for repetition in 0...repetitions {
                for index in contenders.indices {
                    guard let database = filled[index] else { continue }
                    var count = 0
                    let elapsed = try time {
                        count = try operation == .fetchAll ? database.fetchAll() : database.fetchFiltered()
                    }
                    if repetition > 0 { times[index][operation, default: []].append(elapsed) }
                    if index == 0 { returned[operation] = count }
                }
            }
        }
        return Operation.allCases.map { operation in
            Result(
                operation: operation,
                generated: fastest(times[0][operation] ?? []),
                raw: fastest(times[1][operation] ?? []),
                codable: fastest(times[2][operation] ?? []),
                rows: returned[operation] ?? 0
            )
        }
    }

    /// A table of the results for people.
    public static func report(_ results: [Result], rows: Int, repetitions: Int) -> String {
        func ms(_ seconds: Double) -> String { String(format: "%9.1f ms", seconds * 1_000) }
        func ratio(_ value: Double) -> String { String(format: "%6.2fx", value) }
        var lines = [
            "Repository benchmark: \(rows) rows of 10 fields (UUID, String, String?, Int, Double, Bool, enum, Date, Data, Int32),",
            "in-memory SQLite, fastest of \(repetitions) runs after a warm-up, implementations taking turns.",
            "",
            "operation                       generated          raw      Codable  generated/raw  Codable/generated",
        ]
        for result in results {
            lines.append(
                result.operation.rawValue.padding(toLength: 28, withPad: " ", startingAt: 0)
                    + ms(result.generated) + ms(result.raw) + ms(result.codable) + "        "
                    + ratio(result.generatedOverRaw) + "             " + ratio(result.codableOverGenerated)
            )
        }
        let worst = results.map(\.generatedOverRaw).max() ?? 0
        lines.append("")
        lines.append(
            String(format: "worst generated/raw: %.2fx (target <= 1.10x): %@", worst, worst <= 1.10 ? "met" : "NOT met")
        )
        return lines.joined(separator: "\n")
    }

    /// A database of one implementation, with the operations bound to it.
    private struct Filled {
        var insertAll: () throws -> Void
        var fetchAll: () throws -> Int
        var fetchFiltered: () throws -> Int
    }

    /// One implementation: makes empty databases holding its converted rows.
    private struct Contender {
        var make: () throws -> Filled

        init<I: BenchImplementation>(_ type: I.Type, rows: [Sample]) {
            let input = I.prepare(rows)
            make = {
                let implementation = try I()
                return Filled(
                    insertAll: { try implementation.insertAll(input) },
                    fetchAll: { try implementation.fetchAll() },
                    fetchFiltered: { try implementation.fetchFiltered() }
                )
            }
        }
    }

    private static func time(_ body: () throws -> Void) throws -> Double {
        let clock = ContinuousClock()
        let start = clock.now
        try body()
        let elapsed = clock.now - start
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }

    private static func fastest(_ values: [Double]) -> Double {
        values.min() ?? 0
    }
}
