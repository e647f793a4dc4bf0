import Foundation

/// The repository benchmark: the generated repository against raw SQLite (the floor) and a GRDB
/// Codable record (what a user writes by hand), on the same rows, in one run.
///
/// Reusable: `strata-repository-bench` prints ``report(_:)`` of ``run(rows:repetitions:)``; another
/// benchmark driver can call `run` and read the numbers.
public enum RepositoryBenchmark {
    /// The operations measured.
    public enum Operation: String, CaseIterable, Sendable {
        case insert = "insert all (one transaction)"
        case fetchAll = "fetch all"
        case fetchFiltered = "filtered + sorted fetch"
    }

    /// The median times of one operation.
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

        /// Generated / raw: the cost of the generated layer over the floor (target: at most 1.15).
        public var generatedOverRaw: Double { generated / raw }
        /// Codable / generated: how much faster the generated code is than the hand-written record.
        public var codableOverGenerated: Double { codable / generated }
    }

    /// Runs every operation `repetitions` times per implementation (after one warm-up) and
    /// returns the medians. Inserts start from an empty database each time.
    public static func run(rows count: Int = 100_000, repetitions: Int = 5) throws -> [Result] {
        let rows = BenchRows.make(count: count)
        let generated = try measure(GeneratedImplementation.self, rows: rows, repetitions: repetitions)
        let raw = try measure(RawSQLiteImplementation.self, rows: rows, repetitions: repetitions)
        let codable = try measure(CodableImplementation.self, rows: rows, repetitions: repetitions)
        return Operation.allCases.map { operation in
            Result(
                operation: operation,
                generated: generated.times[operation] ?? 0,
                raw: raw.times[operation] ?? 0,
                codable: codable.times[operation] ?? 0,
                rows: generated.rows[operation] ?? 0
            )
        }
    }

    /// A table of the results for people.
    public static func report(_ results: [Result], rows: Int) -> String {
        func ms(_ seconds: Double) -> String { String(format: "%9.1f ms", seconds * 1_000) }
        func ratio(_ value: Double) -> String { String(format: "%6.2fx", value) }
        var lines = [
            "Repository benchmark: \(rows) rows of 10 fields (UUID, String, String?, Int, Double, Bool, enum, Date, Data, Int32),",
            "in-memory SQLite, median of the runs.",
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
            String(format: "worst generated/raw: %.2fx (target <= 1.15x): %@", worst, worst <= 1.15 ? "met" : "NOT met")
        )
        return lines.joined(separator: "\n")
    }

    private struct Measured {
        var times: [Operation: Double] = [:]
        var rows: [Operation: Int] = [:]
    }

    private static func measure<I: BenchImplementation>(
        _ type: I.Type,
        rows: [Measurement],
        repetitions: Int
    ) throws -> Measured {
        var measured = Measured()
        let input = I.prepare(rows)
        var insertTimes: [Double] = []
        var filled: I?
        for _ in 0...repetitions {
            let implementation = try I()
            insertTimes.append(try time { try implementation.insertAll(input) })
            filled = implementation
        }
        measured.times[.insert] = median(insertTimes.dropFirst())
        measured.rows[.insert] = rows.count
        guard let filled else { return measured }
        var fetchCount = 0
        measured.times[.fetchAll] = median(
            try (0...repetitions).map { _ in try time { fetchCount = try filled.fetchAll() } }.dropFirst())
        measured.rows[.fetchAll] = fetchCount
        measured.times[.fetchFiltered] = median(
            try (0...repetitions).map { _ in try time { fetchCount = try filled.fetchFiltered() } }.dropFirst())
        measured.rows[.fetchFiltered] = fetchCount
        return measured
    }

    private static func time(_ body: () throws -> Void) throws -> Double {
        let clock = ContinuousClock()
        let start = clock.now
        try body()
        let elapsed = clock.now - start
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }

    private static func median(_ values: some Collection<Double>) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return 0 }
        return sorted.count % 2 == 1
            ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    }
}
