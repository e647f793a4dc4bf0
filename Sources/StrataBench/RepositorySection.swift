import StrataRepositoryBenchmark

/// The repository benchmark (`StrataRepositoryBenchmark`, also `strata-repository-bench`) as
/// figures of the suite: generated against raw SQLite (target at most 1.10x), and GRDB Codable
/// against generated; then the query benchmark (``QueryBenchmark``: a join, a grouped count and
/// authors with their articles by eager loading, against the same SQL on the C API, target at
/// most 1.10x) and the full-text search benchmark (``SearchBenchmark``: a ranked FTS5 search
/// against the same query on the C API, target at most 1.10x) and the JSON benchmark
/// (``JSONBenchmark``: records with a JSON value against the C API and `JSONDecoder`) and the
/// array benchmark (``ArrayBenchmark``: records with array fields, the same way).
public enum RepositorySection {
    /// Target: generated / raw at most this.
    public static let target = 1.10

    /// Runs the repository benchmark on `rows` rows, `repetitions` runs per operation.
    public static func run(rows: Int, repetitions: Int) throws -> [Figure] {
        let results = try RepositoryBenchmark.run(rows: rows, repetitions: repetitions)
        var figures: [Figure] = []
        for result in results {
            figures.append(
                Figure(
                    section: .repository, name: "\(result.operation.rawValue), generated repository",
                    value: result.generated, baselineName: "raw SQLite C API", baseline: result.raw, unit: .seconds,
                    target: .ratioAtMost(target), detail: "\(Format.count(result.rows)) rows"))
        }
        for result in results {
            figures.append(
                Figure(
                    section: .repository, name: "\(result.operation.rawValue), GRDB Codable record",
                    value: result.codable, baselineName: "generated repository", baseline: result.generated,
                    unit: .seconds, detail: "\(Format.count(result.rows)) rows"))
        }
        for result in try QueryBenchmark.run(articles: rows, repetitions: repetitions) {
            figures.append(
                targeted(
                    result.operation.rawValue, result.generated, against: "the same SQL on the raw SQLite C API", result.raw,
                    detail: "\(Format.count(rows)) articles by \(Format.count(max(1, rows / 100))) authors; \(Format.count(result.rows)) rows read"))
        }
        let search = try SearchBenchmark.run(documents: rows, repetitions: repetitions)
        figures.append(
            targeted(
                "full-text search of two words (ranked)", search.generated, against: "the same FTS5 query on the raw SQLite C API",
                search.raw, detail: "\(Format.count(rows)) documents (FTS5, porter); \(Format.count(search.rows)) found"))
        let json = try JSONBenchmark.run(accounts: rows, repetitions: repetitions)
        figures.append(
            targeted(
                "fetch all records with a JSON value", json.generated, against: "the C API decoding with JSONDecoder", json.raw,
                detail: "\(Format.count(json.rows)) records; a JSON object of 6 members and an array"))
        let arrays = try ArrayBenchmark.run(posts: rows, repetitions: repetitions)
        figures.append(
            targeted(
                "fetch all records with two array fields", arrays.generated, against: "the C API decoding with JSONDecoder",
                arrays.raw, detail: "\(Format.count(arrays.rows)) records; [String] and [Int], 0 to 4 elements (JSON arrays)"))
        return figures
    }

    /// A figure of the generated repository against a hand-written baseline, with the target.
    private static func targeted(_ operation: String, _ generated: Double, against baseline: String, _ raw: Double, detail: String)
        -> Figure
    {
        Figure(
            section: .repository, name: "\(operation), generated repository", value: generated, baselineName: baseline,
            baseline: raw, unit: .seconds, target: .ratioAtMost(target), detail: detail)
    }
}
