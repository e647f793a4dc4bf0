import Foundation

/// Migration cost on PostgreSQL: `strata migrate --postgres` of the TODO app from v1 to v3 over a
/// table of `rows` items, against the same SQL (`Generated/MyTODO/postgres/migrations/v2.sql`,
/// `v3.sql`) run by hand with `psql`, one transaction per version (target: at most 1.1x). Each run
/// gets two new databases seeded the same way.
struct PostgresMigrationCost {
    /// Target: strata migrate / psql at most this.
    static let target = 1.1

    let root: String
    let url: String
    let rows: Int
    let repetitions: Int
    let log: String

    func run(progress: (String) -> Void) throws -> Figure {
        let strata = (root as NSString).appendingPathComponent(".build/release/strata")
        progress("postgres: building the release strata for the migration cost")
        let build = try Subprocess.run("swift", ["build", "-c", "release", "--package-path", root, "--product", "strata"], log: log)
        guard build.status == 0 else { throw Subprocess.Failure(description: "swift build -c release --product strata failed; see \(log)") }
        let migrations = (root as NSString).appendingPathComponent("Generated/MyTODO/postgres/migrations")
        let schemas = (root as NSString).appendingPathComponent("Schemas")
        var strataTimes: [Double] = []
        var psqlTimes: [Double] = []
        for repetition in 0...repetitions {
            progress("postgres: migration v1 -> v3 over \(Format.count(rows)) items, run \(repetition + 1) of \(repetitions + 1)")
            let suffix = String(UInt32.random(in: 0...UInt32.max), radix: 16)
            let viaStrata = "strata_bench_migrate_\(suffix)"
            let viaPsql = "strata_bench_psql_\(suffix)"
            defer {
                for name in [viaStrata, viaPsql] { _ = try? psql(url, ["-c", "DROP DATABASE IF EXISTS \(name)"]) }
            }
            for name in [viaStrata, viaPsql] { try psql(url, ["-c", "CREATE DATABASE \(name)"]) }
            let seed = """
                INSERT INTO "todo_item" ("id", "title", "detail")
                SELECT gen_random_uuid(), 'item ' || g, 'detail of item ' || g FROM generate_series(1, \(rows)) AS g
                """
            // Strata's database: v1 through the ledger, then the rows.
            try check(Subprocess.run(strata, ["migrate", "--schemas", schemas, "--model", "MyTODO", "--postgres", database(viaStrata), "--to", "1"], log: log), "strata migrate --to 1")
            try psql(database(viaStrata), ["-c", seed])
            // The hand-run database: v1's SQL by psql, then the same rows.
            try psql(database(viaPsql), ["-1", "-f", "\(migrations)/v1.sql"])
            try psql(database(viaPsql), ["-c", seed])
            for name in [viaStrata, viaPsql] { try psql(database(name), ["-c", "VACUUM ANALYZE"]) }

            // Each timed run starts after a checkpoint (the seeding's writes are not flushed during
            // it), and the two take turns going first.
            var strataSeconds = 0.0
            var psqlSeconds = 0.0
            let runs: [() throws -> Void] = [
                {
                    try psql(url, ["-c", "CHECKPOINT"])
                    let timed = try Subprocess.run(strata, ["migrate", "--schemas", schemas, "--model", "MyTODO", "--postgres", database(viaStrata)], log: log)
                    try check(timed, "strata migrate --postgres")
                    strataSeconds = timed.seconds
                },
                {
                    try psql(url, ["-c", "CHECKPOINT"])
                    let start = ContinuousClock.now
                    for version in [2, 3] { try psql(database(viaPsql), ["-1", "-f", "\(migrations)/v\(version).sql"]) }
                    let elapsed = ContinuousClock.now - start
                    psqlSeconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
                },
            ]
            for run in repetition.isMultiple(of: 2) ? runs : runs.reversed() { try run() }
            if repetition > 0 {
                strataTimes.append(strataSeconds)
                psqlTimes.append(psqlSeconds)
            }
        }
        return Figure(
            section: .postgres, name: "strata migrate --postgres, TODO app v1 -> v3", value: strataTimes.min() ?? 0,
            baselineName: "psql, one transaction per version", baseline: psqlTimes.min() ?? 0, unit: .seconds,
            target: .ratioAtMost(Self.target), detail: "\(Format.count(rows)) items; both include process start and connection")
    }

    /// `url` with its database replaced by `name`.
    private func database(_ name: String) -> String {
        guard var components = URLComponents(string: url) else { return url }
        components.path = "/" + name
        return components.string ?? url
    }

    @discardableResult
    private func psql(_ target: String, _ arguments: [String]) throws -> Subprocess.Outcome {
        let outcome = try Subprocess.run("psql", ["-X", "-q", "-v", "ON_ERROR_STOP=1", "-d", target] + arguments, log: log)
        try check(outcome, "psql \(arguments.joined(separator: " "))")
        return outcome
    }

    private func check(_ outcome: Subprocess.Outcome, _ what: String) throws {
        guard outcome.status == 0 else { throw Subprocess.Failure(description: "\(what) failed (status \(outcome.status)); see \(log)") }
    }
}
