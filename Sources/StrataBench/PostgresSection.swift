import Foundation

/// The PostgreSQL repository benchmark (the package `Benchmarks/PostgresBench`): the generated
/// repository against the same statements written by hand on PostgresNIO (target: at most 1.10x)
/// and against FluentKit with FluentPostgresDriver, on one server: the three operations of the
/// `Bench` model, then records with a JSON value (`BenchJSON`) and authors with their articles by
/// eager loading (`BenchJoin`), those two without Fluent. The server is the one of
/// `STRATA_BENCH_POSTGRES_URL`, or one started for the run with `Scripts/postgres-server.sh`.
/// The package is built in release mode in its own folder, so that Strata never builds Fluent.
/// The section also measures `strata migrate --postgres` against `psql` (``PostgresMigrationCost``).
public struct PostgresSection {
    /// Target: generated / hand-written at most this.
    public static let target = 1.10

    let root: String
    let rows: Int
    let repetitions: Int
    let scratch: String
    /// The items of the migration cost's table.
    let migrationRows: Int

    /// Builds and runs the benchmark package; returns its figures.
    public func run(progress: (String) -> Void) throws -> [Figure] {
        let server = try BenchPostgresServer.start(root: root, scratch: scratch, progress: progress)
        defer { server.stop() }
        let url = server.url
        let package = (root as NSString).appendingPathComponent("Benchmarks/PostgresBench")
        let log = (scratch as NSString).appendingPathComponent("postgres-bench.log")
        progress("postgres: building Benchmarks/PostgresBench (release; Fluent's first build takes minutes)")
        let build = try Subprocess.run(
            "swift", ["build", "-c", "release", "--package-path", package, "--product", "strata-postgres-bench"], log: log)
        guard build.status == 0 else {
            throw Subprocess.Failure(description: "swift build of Benchmarks/PostgresBench failed; see \(log)")
        }
        progress("postgres: \(Format.count(rows)) rows, fastest of \(repetitions)")
        let output = (scratch as NSString).appendingPathComponent("postgres-bench.json")
        let runOutcome = try Subprocess.run(
            "/bin/sh",
            [
                "-c", "\"$0\" --url \"$1\" --rows \"$2\" --repetitions \"$3\" > \"$4\"",
                "\(package)/.build/release/strata-postgres-bench", url, String(rows), String(repetitions), output,
            ], log: log)
        guard runOutcome.status == 0, let data = FileManager.default.contents(atPath: output) else {
            throw Subprocess.Failure(description: "strata-postgres-bench failed; see \(log)")
        }
        let report = try JSONDecoder().decode(Output.self, from: data)
        var figures = [
            try PostgresMigrationCost(root: root, url: url, rows: migrationRows, repetitions: repetitions, log: log)
                .run(progress: progress)
        ]
        figures += Self.figures(of: report)
        return figures
    }

    /// The figures of `strata-postgres-bench`'s output: each operation's generated repository
    /// against hand-written PostgresNIO, then Fluent against the generated repository for the
    /// operations Fluent ran.
    static func figures(of report: Output) -> [Figure] {
        var figures: [Figure] = []
        for result in report.results {
            figures.append(
                Figure(
                    section: .postgres, name: "\(result.operation), generated repository", value: result.generated,
                    baselineName: "hand-written PostgresNIO", baseline: result.handWritten, unit: .seconds,
                    target: .ratioAtMost(Self.target), detail: "\(Format.count(result.rows)) rows"))
        }
        // Fluent runs the operations of the `sample` table only.
        for result in report.results {
            guard let fluent = result.fluent else { continue }
            figures.append(
                Figure(
                    section: .postgres, name: "\(result.operation), FluentKit + FluentPostgresDriver", value: fluent,
                    baselineName: "generated repository", baseline: result.generated, unit: .seconds,
                    detail: "\(Format.count(result.rows)) rows"))
        }
        return figures
    }

    /// What `strata-postgres-bench` prints.
    struct Output: Decodable {
        struct Result: Decodable {
            var operation: String
            var generated: Double
            var handWritten: Double
            /// Absent for the operations Fluent does not run.
            var fluent: Double?
            var rows: Int
        }
        var rows: Int
        var results: [Result]
    }
}
