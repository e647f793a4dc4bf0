import Foundation

/// The PostgreSQL server of a bench section: the one of `STRATA_BENCH_POSTGRES_URL`, or one started
/// for the section with `Scripts/postgres-server.sh` (stopped by ``stop()``).
struct BenchPostgresServer {
    /// The superuser's URL.
    let url: String
    /// The cluster folder of a server this run started, nil for a given one.
    private let started: String?
    private let script: String

    /// Uses `STRATA_BENCH_POSTGRES_URL`, or starts a server (its files under `scratch`, named `name`).
    static func start(root: String, scratch: String, name: String = "postgres", progress: (String) -> Void) throws
        -> BenchPostgresServer
    {
        let script = (root as NSString).appendingPathComponent("Scripts/postgres-server.sh")
        if let given = ProcessInfo.processInfo.environment["STRATA_BENCH_POSTGRES_URL"], !given.isEmpty {
            return BenchPostgresServer(url: given, started: nil, script: script)
        }
        progress("\(name): starting a PostgreSQL server")
        let folderFile = (scratch as NSString).appendingPathComponent("\(name)-folder")
        let urlFile = (scratch as NSString).appendingPathComponent("\(name)-url")
        let outcome = try Subprocess.run(
            "/bin/sh", ["-c", "STRATA_PG_FOLDER_FILE=\"$0\" \"$1\" start > \"$2\"", folderFile, script, urlFile])
        guard outcome.status == 0, let text = try? String(contentsOfFile: urlFile, encoding: .utf8) else {
            throw Subprocess.Failure(description: "could not start a PostgreSQL server with \(script)")
        }
        let started = try? String(contentsOfFile: folderFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        return BenchPostgresServer(url: text.trimmingCharacters(in: .whitespacesAndNewlines), started: started, script: script)
    }

    /// Stops the server if this run started it.
    func stop() {
        if let started { _ = try? Subprocess.run(script, ["stop", started]) }
    }
}
