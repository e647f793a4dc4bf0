import Foundation
import StrataIntrospection

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A throwaway PostgreSQL server for the tests: `initdb` into a temporary folder, started on a
/// free port of 127.0.0.1 (and a Unix socket in the same folder), with trust authentication.
///
/// One server serves the whole test process: ``shared()`` starts it on first use and it stops
/// when the process exits (an `atexit` handler, and a watchdog shell that also covers crashes).
/// As root (CI), the server runs as the `postgres` user through `runuser`, since `initdb`
/// refuses to run as root.
public final class TestPostgresServer: Sendable {
    /// The port on 127.0.0.1.
    public let port: Int
    /// The folder holding the cluster (`data/`), the socket and the log.
    public let folder: String
    /// The folder of the PostgreSQL programs used.
    public let binaries: String

    /// The superuser's connection to the `postgres` database.
    public var url: PostgresURL {
        PostgresURL(host: "127.0.0.1", port: port, user: "postgres", database: "postgres")
    }

    /// What runs the server's programs as the `postgres` user when the tests run as root.
    private let prefix: [String]

    private init(port: Int, folder: String, binaries: String, prefix: [String]) {
        self.port = port
        self.folder = folder
        self.binaries = binaries
        self.prefix = prefix
    }

    /// A server of its own for a test that stops it (``stopImmediately()``), so that the shared
    /// server of the other tests is never touched; stopped at exit like the shared one.
    public static func dedicated() throws -> TestPostgresServer {
        try start()
    }

    /// Stops the server the way a crash or `pg_ctl -m immediate stop` does: every backend ends at
    /// once, without a clean shutdown.
    public func stopImmediately() throws {
        let stopped = try ProcessRunner.run(
            prefix + ["\(binaries)/pg_ctl", "-D", "\(folder)/data", "-m", "immediate", "-w", "stop"])
        guard stopped.status == 0 else { throw StartError(description: "pg_ctl stop failed:\n\(stopped.output)") }
    }

    /// Starts the server again after ``stopImmediately()``, on the same port (it recovers from
    /// its write-ahead log as after a crash).
    public func restart() throws {
        let started = try ProcessRunner.run(
            prefix + [
                "\(binaries)/pg_ctl", "-D", "\(folder)/data", "-o", Self.options(port: port, folder: folder), "-l",
                "\(folder)/server.log", "-w", "-t", "60", "start",
            ])
        guard started.status == 0 else { throw StartError(description: "pg_ctl start failed:\n\(started.output)") }
    }

    static func options(port: Int, folder: String) -> String {
        "-p \(port) -k \(folder) -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off -c max_connections=200"
    }

    private static let startup = Startup()

    /// The server of this test process, started on first use. Throws when it cannot start
    /// (programs missing, initdb or pg_ctl failing), with the reason.
    public static func shared() async throws -> TestPostgresServer {
        try await startup.server()
    }

    /// True when the tests run in CI (`CI=true`), where a database that cannot start is a failure.
    public static var isCI: Bool {
        let value = ProcessInfo.processInfo.environment["CI"]?.lowercased()
        return value == "true" || value == "1"
    }

    /// Creates a new empty database with a unique name, runs `body` with a session to it, then
    /// closes the session and drops the database.
    public func withDatabase<T: Sendable>(_ body: (PostgresSession) async throws -> T) async throws -> T {
        let name = "strata_test_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        let admin = try await PostgresSession.connect(to: url)
        do {
            try await admin.execute("CREATE DATABASE \(name)")
        } catch {
            try? await admin.close()
            throw error
        }
        let result: Result<T, any Error>
        do {
            let session = try await PostgresSession.connect(to: url.database(name))
            do {
                result = .success(try await body(session))
            } catch {
                result = .failure(error)
            }
            try? await session.close()
        } catch {
            result = .failure(error)
        }
        try? await admin.execute("DROP DATABASE IF EXISTS \(name)")
        try? await admin.close()
        return try result.get()
    }

    /// Runs `psql` on a database of this server, with `ON_ERROR_STOP` so the first error fails it.
    public func psql(database: String = "postgres", arguments: [String]) throws -> ProcessRunner.Result {
        let psql = ProcessRunner.locate("\(binaries)/psql") ?? ProcessRunner.locate("psql") ?? "psql"
        return try ProcessRunner.run(
            [
                psql, "-X", "-q", "-v", "ON_ERROR_STOP=1", "-h", "127.0.0.1", "-p", String(port), "-U", "postgres",
                "-d", database,
            ]
                + arguments)
    }

    /// The whole database as `pg_dump` prints it (schema and rows), without the lines that
    /// differ between two dumps of the same database (`\restrict` keys): equal dumps mean a
    /// database left byte-for-byte as it was, as far as SQL can see.
    public func dump(database: String) throws -> String {
        let pgDump = ProcessRunner.locate("\(binaries)/pg_dump") ?? ProcessRunner.locate("pg_dump") ?? "pg_dump"
        let output = try ProcessRunner.check([
            pgDump, "--no-password", "-h", "127.0.0.1", "-p", String(port), "-U", "postgres", "-d", database,
        ])
        return output.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.hasPrefix("\\restrict") && !$0.hasPrefix("\\unrestrict") }
            .joined(separator: "\n")
    }

    // MARK: Starting and stopping

    /// Starts the server once; later callers get the same server or the same failure.
    private actor Startup {
        private var outcome: Result<TestPostgresServer, StartError>?

        func server() throws -> TestPostgresServer {
            if let outcome { return try outcome.get() }
            let result: Result<TestPostgresServer, StartError>
            do {
                result = .success(try TestPostgresServer.start())
            } catch let error as StartError {
                result = .failure(error)
            } catch {
                result = .failure(StartError(description: "\(error)"))
            }
            outcome = result
            return try result.get()
        }
    }

    /// Why the server could not start.
    public struct StartError: Error, CustomStringConvertible, Sendable {
        /// The reason, with the programs' output.
        public var description: String
    }

    private static func start() throws -> TestPostgresServer {
        guard let binaries = findBinaries() else {
            throw StartError(
                description:
                    "PostgreSQL is not installed: no initdb and pg_ctl in /usr/lib/postgresql/*/bin or PATH (apt-get install postgresql)"
            )
        }
        let asRoot = getuid() == 0
        let prefix: [String]
        if asRoot {
            guard let runuser = ProcessRunner.locate("runuser") else {
                throw StartError(description: "running as root, but runuser is missing")
            }
            prefix = [runuser, "-u", "postgres", "--"]
        } else {
            prefix = []
        }
        let base = FileManager.default.temporaryDirectory.path
        let folder = "\(base)/strata-postgres-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        if asRoot {
            guard let user = getpwnam("postgres") else {
                throw StartError(description: "running as root, but there is no postgres user to run the server as")
            }
            guard chown(folder, user.pointee.pw_uid, user.pointee.pw_gid) == 0 else {
                throw StartError(description: "cannot give \(folder) to the postgres user")
            }
        }
        chmod(folder, 0o700)
        let data = "\(folder)/data"
        let initdb = try ProcessRunner.run(
            prefix + [
                "\(binaries)/initdb", "-D", data, "-A", "trust", "-U", "postgres", "-E", "UTF8", "--locale=C",
                "--no-sync",
            ])
        guard initdb.status == 0 else {
            throw StartError(description: "initdb failed (\(initdb.status)):\n\(initdb.output)")
        }
        var lastFailure = ""
        for _ in 0..<5 {
            let port = try freePort()
            let options = Self.options(port: port, folder: folder)
            let started = try ProcessRunner.run(
                prefix + [
                    "\(binaries)/pg_ctl", "-D", data, "-o", options, "-l", "\(folder)/server.log", "-w", "-t", "60",
                    "start",
                ])
            if started.status == 0 {
                let server = TestPostgresServer(port: port, folder: folder, binaries: binaries, prefix: prefix)
                server.arrangeStop(prefix: prefix)
                return server
            }
            lastFailure =
                started.output + ((try? String(contentsOfFile: "\(folder)/server.log", encoding: .utf8)) ?? "")
        }
        try? FileManager.default.removeItem(atPath: folder)
        throw StartError(description: "pg_ctl could not start PostgreSQL:\n\(lastFailure)")
    }

    /// The folder with initdb and pg_ctl: the newest /usr/lib/postgresql/N/bin, else PATH.
    private static func findBinaries() -> String? {
        let root = "/usr/lib/postgresql"
        let versions = ((try? FileManager.default.contentsOfDirectory(atPath: root)) ?? [])
            .compactMap { name in Int(name).map { ($0, "\(root)/\(name)/bin") } }
            .sorted { $0.0 > $1.0 }
        for (_, folder) in versions where FileManager.default.isExecutableFile(atPath: "\(folder)/initdb") {
            return folder
        }
        if let initdb = ProcessRunner.locate("initdb"), ProcessRunner.locate("pg_ctl") != nil {
            return (initdb as NSString).deletingLastPathComponent
        }
        return nil
    }

    /// A port of 127.0.0.1 that was free a moment ago.
    private static func freePort() throws -> Int {
        let socketFD = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socketFD >= 0 else { throw StartError(description: "cannot open a socket to find a free port") }
        defer { close(socketFD) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socketFD, $0, length) }
        }
        guard bound == 0 else { throw StartError(description: "cannot bind a socket to find a free port") }
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socketFD, $0, &length) }
        }
        guard named == 0 else { throw StartError(description: "cannot read the port of a socket") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Stops the server when the process exits: at `exit`, and from a watchdog that waits for
    /// this process to disappear (a crash, a signal) before stopping the server and removing its folder.
    private func arrangeStop(prefix: [String]) {
        let stop = (prefix + ["\(binaries)/pg_ctl", "-D", "\(folder)/data", "-m", "immediate", "-w", "stop"])
            .map(Self.shellQuoted).joined(separator: " ")
        let script = """
            while [ -d /proc/\(getpid()) ]; do sleep 1; done
            \(stop) >/dev/null 2>&1
            rm -rf \(Self.shellQuoted(folder))
            """
        _ = try? ProcessRunner.start(["sh", "-c", script])
        ExitStop.register(command: "\(stop) >/dev/null 2>&1; rm -rf \(Self.shellQuoted(folder))")
    }

    static func shellQuoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}

/// The commands run at process exit to stop the servers (atexit takes a C function, so they live
/// here): the shared server's, and those of servers a test started for itself.
private enum ExitStop {
    nonisolated(unsafe) static var commands: [String] = []
    static let lock = NSLock()

    static func register(command text: String) {
        let first = lock.withLock {
            commands.append(text)
            return commands.count == 1
        }
        guard first else { return }
        atexit {
            let commands = ExitStop.lock.withLock {
                defer { ExitStop.commands = [] }
                return ExitStop.commands
            }
            for command in commands { _ = try? ProcessRunner.run(["sh", "-c", command]) }
        }
    }
}
