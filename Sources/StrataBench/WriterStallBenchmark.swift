import Foundation
import StrataCore
import StrataIntrospection
import StrataPostgres

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writer stalls under migrations on PostgreSQL: a `post` table of `rows` rows, a writer
/// committing a primary-key `UPDATE` in a loop (the statement the generated repository's
/// chosen-field update issues: `UPDATE "post" SET "views" = $1 WHERE "id" = $2`), and one
/// migration per change kind of the `Evolution` fixture model (``WriterStallModel``) applied
/// under it by ``PostgresMigrator``. Per migration: the writer's longest write while it
/// runs (target: at most 100 ms) and its wall time, against the same writer alone for as long;
/// and, where lock-safe rendering changed the SQL, the same migration as Strata 0.6.0 rendered
/// it (every statement in the version's transaction), on a copy of the same database.
public struct WriterStallBenchmark: Sendable {
    /// Target: the writer's longest write during a migration, in seconds.
    public static let target = 0.100

    /// Rows in the `post` table.
    public var rows: Int
    /// The repository root (`Scripts/postgres-server.sh`).
    public var root: String
    /// A scratch folder (model files, the server's URL file).
    public var scratch: String
    /// The server to use (superuser URL); nil starts one (``BenchPostgresServer``).
    public var url: String?
    /// Whether to measure the SQL as rendered before lock-safety too.
    public var beforeLockSafety: Bool
    /// The migrator's lock budget (the default, as `strata migrate` has it).
    public var lockBudget: PostgresLockBudget

    /// A section over `rows` rows.
    public init(
        rows: Int, root: String, scratch: String, url: String? = nil, beforeLockSafety: Bool = true,
        lockBudget: PostgresLockBudget = .default
    ) {
        self.rows = rows
        self.root = root
        self.scratch = scratch
        self.url = url
        self.beforeLockSafety = beforeLockSafety
        self.lockBudget = lockBudget
    }

    /// Why a run could not be measured.
    public struct Failure: Error, CustomStringConvertible {
        /// What went wrong.
        public var description: String
    }

    /// Starts the server unless one is given, and measures (from synchronous code: the suite).
    public func run(progress: (String) -> Void = { _ in }) throws -> [Figure] {
        var section = self
        let server: BenchPostgresServer?
        if url == nil {
            server = try BenchPostgresServer.start(root: root, scratch: scratch, name: "stalls", progress: progress)
            section.url = server?.url
        } else {
            server = nil
        }
        defer { server?.stop() }
        return try withoutActuallyEscaping(progress) { progress in
            let tell = UncheckedSendable(value: progress)
            return try Blocking.run { [section] in try await section.measure { tell.value($0) } }
        }
    }

    /// The migrations of each variant: the current SQL, and the SQL before lock-safety (nil where
    /// it is the same).
    struct Migrations {
        var current: [StrataMigration]
        var before: [Int: StrataMigration]
    }

    /// Measures on the server of ``url``.
    public func measure(progress: @Sendable (String) -> Void = { _ in }) async throws -> [Figure] {
        guard let url else { throw Failure(description: "no PostgreSQL server") }
        let loadAtStart = Self.loadAverage()
        let cpuAtStart = Stopwatch.processCPUSeconds()
        let sectionStart = ContinuousClock.now
        let migrations = try loadMigrations()
        let admin = try await PostgresSession.connect(url: url)
        let suffix = String(UInt32.random(in: 0...UInt32.max), radix: 16)
        let template = "strata_bench_stalls_\(suffix)"
        let lockSafe = template + "_after"
        let before = template + "_before"
        var created: [String] = []
        do {
            progress("stalls: seeding \(Format.count(rows)) posts at version 1")
            try await admin.execute("CREATE DATABASE \(template)")
            created.append(template)
            try await seed(database(template, of: url), migrations: migrations.current)
            for name in [lockSafe] + (beforeLockSafety ? [before] : []) {
                try await admin.execute("CREATE DATABASE \(name) TEMPLATE \(template)")
                created.append(name)
            }
            var figures: [Figure] = []
            let measured = try await chain(
                database(lockSafe, of: url), migrations: migrations.current, label: "lock-safe", progress: progress)
            var befores: [Int: Run] = [:]
            if beforeLockSafety {
                let old = migrations.current.map { migrations.before[$0.version] ?? $0 }
                befores = try await chain(
                    database(before, of: url), migrations: old, label: "before lock-safety", progress: progress,
                    measuring: Set(migrations.before.keys))
            }
            for (offset, change) in WriterStallModel.changes.enumerated() {
                let version = offset + 2
                guard let run = measured[version] else { continue }
                figures.append(
                    Figure(
                        section: .stalls, name: "v\(version) \(change.kind): longest write\(run.failedName)", value: run.stall,
                        baselineName: "same writer, no migration", baseline: run.baselineStall, unit: .seconds,
                        target: .valueAtMost(Self.target), detail: run.detail(change.source)))
                if let old = befores[version] {
                    figures.append(
                        Figure(
                            section: .stalls,
                            name: "v\(version) \(change.kind): longest write, SQL before lock-safety\(old.failedName)",
                            value: old.stall, baselineName: "same writer, no migration", baseline: old.baselineStall,
                            unit: .seconds, detail: old.detail(change.source)))
                }
            }
            let runs = Array(measured.values)
            let loadAtEnd = Self.loadAverage()
            figures.append(
                Figure(
                    section: .stalls, name: "all \(runs.count) migrations: longest write", value: runs.map(\.stall).max() ?? 0,
                    baselineName: "same writer, no migration", baseline: runs.map(\.baselineStall).max() ?? 0, unit: .seconds,
                    target: .valueAtMost(Self.target),
                    detail: "\(Format.count(rows)) posts; "
                        + "\(runs.filter { $0.migrationFailure != nil }.count) migrations failed under the writer; load average (1, 5, 15 min) at start \(loadAtStart), at end \(loadAtEnd); "
                        + "section \(Format.value(Stopwatch.seconds(ContinuousClock.now - sectionStart), .seconds)) wall, "
                        + "\(Format.value(Stopwatch.processCPUSeconds() - cpuAtStart, .seconds)) CPU in this process"))
            await drop(created, admin)
            try? await admin.close()
            return figures
        } catch {
            await drop(created, admin)
            try? await admin.close()
            throw error
        }
    }

    private func drop(_ databases: [String], _ admin: PostgresSession) async {
        for name in databases.reversed() { try? await admin.execute("DROP DATABASE IF EXISTS \(name) WITH (FORCE)") }
    }

    /// The model files written under the scratch folder, loaded; their PostgreSQL migrations.
    func loadMigrations() throws -> Migrations {
        let schemas = (scratch as NSString).appendingPathComponent("stalls/Schemas")
        let folder = (schemas as NSString).appendingPathComponent(WriterStallModel.name)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for file in WriterStallModel.versions {
            try Data(file.text.utf8).write(to: URL(fileURLWithPath: (folder as NSString).appendingPathComponent(file.name)))
        }
        let (history, _, diagnostics) = SchemaLoader.loadModel(named: WriterStallModel.name, in: schemas)
        guard let history, !diagnostics.contains(where: { $0.severity == .error }) else {
            throw Failure(description: "the stall model does not load: \(diagnostics.prefix(3).map { "\($0)" })")
        }
        let current = MigrationSources.postgres(for: history).map { StrataMigration($0) }
        guard current.count == WriterStallModel.changes.count + 1 else {
            throw Failure(description: "the stall model has \(current.count) migrations, expected \(WriterStallModel.changes.count + 1)")
        }
        var before: [Int: StrataMigration] = [:]
        for plan in Generator.migrationPlans(for: history) {
            guard let sql = MigrationSQLRenderer.postgresFileBeforeLockSafety(for: plan) else { continue }
            before[plan.to.version] = StrataMigration(version: plan.to.version, sql: sql)
        }
        return Migrations(current: current, before: before)
    }

    /// Version 1 through the migrator, then the rows.
    private func seed(_ url: PostgresURL, migrations: [StrataMigration]) async throws {
        let session = try await PostgresSession.connect(to: url)
        do {
            try await PostgresMigrator(model: WriterStallModel.name, migrations: migrations)
                .migrate(session.connection, to: 1)
            for statement in WriterStallModel.seed(rows: rows) { try await session.execute(statement) }
            try await session.execute("VACUUM ANALYZE")
            try? await session.close()
        } catch {
            try? await session.close()
            throw error
        }
    }

    /// What one migration did to the writer.
    struct Run: Sendable {
        var stall: Double
        var wall: Double
        var processCPU: Double
        var backendCPU: Double?
        var writes: Int
        var failedWrites: Int
        var firstFailure: String?
        var baselineStall: Double
        var baselineWrites: Int
        /// Why the migration failed under the writer (it was then applied with the writer stopped).
        var migrationFailure: String?

        var failedName: String { migrationFailure == nil ? "" : " (migration FAILED under the writer)" }

        func detail(_ source: String) -> String {
            var text = "\(source); migration \(Format.value(wall, .seconds)) wall"
            if let migrationFailure {
                text = "\(source); the migration FAILED under the writer after \(Format.value(wall, .seconds)) "
                    + "(\(migrationFailure)) and was applied again with the writer stopped"
            }
            if let backendCPU { text += ", \(Format.value(backendCPU, .seconds)) CPU in its server process" }
            text += ", \(Format.value(processCPU, .seconds)) CPU in this process; \(writes) writes during it"
            if failedWrites > 0 { text += " (\(failedWrites) failed: \(firstFailure ?? "?"))" }
            text += ", \(baselineWrites) alone"
            return text
        }
    }

    /// Applies versions 2, 3, … one at a time under the writer; the versions in `measuring` (all
    /// when nil) are measured, each followed by the writer alone for as long, the others only applied.
    private func chain(
        _ url: PostgresURL, migrations: [StrataMigration], label: String, progress: @Sendable (String) -> Void,
        measuring: Set<Int>? = nil
    ) async throws -> [Int: Run] {
        let session = try await PostgresSession.connect(to: url)
        let writer: PostgresSession
        do {
            writer = try await PostgresSession.connect(to: url)
        } catch {
            try? await session.close()
            throw error
        }
        do {
            let runs = try await chain(
                session, writer, migrations: migrations, label: label, progress: progress, measuring: measuring)
            try? await session.close()
            try? await writer.close()
            return runs
        } catch {
            try? await session.close()
            try? await writer.close()
            throw error
        }
    }

    private func chain(
        _ session: PostgresSession, _ writer: PostgresSession, migrations: [StrataMigration], label: String,
        progress: @Sendable (String) -> Void, measuring: Set<Int>?
    ) async throws -> [Int: Run] {
        let migrator = PostgresMigrator(model: WriterStallModel.name, migrations: migrations, lockBudget: lockBudget)
        // Versions applied with no writer wait longer than deadlock_timeout (1 s), after which
        // PostgreSQL cancels an autovacuum that holds the table (the big updates start one).
        let unhurried = PostgresMigrator(
            model: WriterStallModel.name, migrations: migrations,
            lockBudget: PostgresLockBudget(lockTimeout: .seconds(2), totalWait: .seconds(120), holdLimit: nil))
        let backendText = try await session.textRows(sql: "SELECT pg_backend_pid()::text").first?.first ?? nil
        let backend = backendText.flatMap { Int32($0) }
        var runs: [Int: Run] = [:]
        for (offset, change) in WriterStallModel.changes.enumerated() {
            let version = offset + 2
            guard measuring?.contains(version) ?? true else {
                try await unhurried.migrate(session.connection, to: version)
                continue
            }
            progress("stalls (\(label)): v\(version) \(change.kind)")
            let log = WriteLog()
            let writing = Task { await Self.write(writer, rows: rows, log: log) }
            try? await Task.sleep(for: .milliseconds(100))
            let cpuStart = Stopwatch.processCPUSeconds()
            let backendStart = backend.flatMap(Self.cpuSeconds(ofProcess:))
            let start = ContinuousClock.now
            var migrationFailure: String?
            do {
                try await migrator.migrate(session.connection, to: version)
                // A rolling version's contract, which the next version would run first.
                try await migrator.contract(session.connection)
            } catch {
                migrationFailure = String(describing: error).replacingOccurrences(of: "\n", with: " ")
            }
            let end = ContinuousClock.now
            let backendEnd = backend.flatMap(Self.cpuSeconds(ofProcess:))
            let cpu = Stopwatch.processCPUSeconds() - cpuStart
            log.stop()
            await writing.value
            let during = log.summary(from: start, to: end)
            let wall = Stopwatch.seconds(end - start)
            if migrationFailure != nil {
                progress("stalls (\(label)): v\(version) failed under the writer; applying it with the writer stopped")
                do {
                    try await unhurried.migrate(session.connection, to: version)
                    try await unhurried.contract(session.connection)
                } catch {
                    throw Failure(description: "v\(version) (\(change.kind), \(label)) failed: \(error)")
                }
            }

            // The writer alone, for as long (at least 200 ms, at most 60 s).
            let alone = WriteLog()
            let aloneWriting = Task { await Self.write(writer, rows: rows, log: alone) }
            try? await Task.sleep(for: .milliseconds(100))
            let aloneStart = ContinuousClock.now
            try? await Task.sleep(for: .seconds(min(max(wall, 0.2), 60)))
            let aloneEnd = ContinuousClock.now
            alone.stop()
            await aloneWriting.value
            let baseline = alone.summary(from: aloneStart, to: aloneEnd)

            runs[version] = Run(
                stall: during.longest, wall: wall, processCPU: cpu,
                backendCPU: backendStart.flatMap { start in backendEnd.map { $0 - start } }, writes: during.count,
                failedWrites: during.failed, firstFailure: during.firstFailure, baselineStall: baseline.longest,
                baselineWrites: baseline.count, migrationFailure: migrationFailure)
        }
        return runs
    }

    /// The writer: primary-key updates of random rows, one per transaction, until `log` is stopped.
    static func write(_ session: PostgresSession, rows: Int, log: WriteLog) async {
        var state = UInt64(0x9E37_79B9_7F4A_7C15) ^ UInt64.random(in: 0...UInt64.max)
        while !log.stopped {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let index = Int((state >> 17) % UInt64(max(rows, 1))) + 1
            let views = Int32(truncatingIfNeeded: state >> 40) & 0xFFFF
            guard let id = UUID(uuidString: WriterStallModel.rowID(index)) else { return }
            let start = ContinuousClock.now
            do {
                _ = try await session.rows("UPDATE \"post\" SET \"views\" = \(views) WHERE \"id\" = \(id)")
                log.record(start: start, end: ContinuousClock.now, failure: nil)
            } catch {
                log.record(start: start, end: ContinuousClock.now, failure: "\(error)")
            }
        }
    }

    /// The writes of one window, kept by the writer task and read after it stopped.
    final class WriteLog: @unchecked Sendable {
        private let lock = NSLock()
        private var isStopped = false
        private var writes: [(start: ContinuousClock.Instant, end: ContinuousClock.Instant, failure: String?)] = []

        var stopped: Bool { lock.withLock { isStopped } }
        func stop() { lock.withLock { isStopped = true } }
        func record(start: ContinuousClock.Instant, end: ContinuousClock.Instant, failure: String?) {
            lock.withLock { writes.append((start, end, failure)) }
        }

        /// The writes that overlap `from...to`: their count, the longest, the failed ones.
        func summary(from: ContinuousClock.Instant, to: ContinuousClock.Instant) -> (
            count: Int, longest: Double, failed: Int, firstFailure: String?
        ) {
            let overlapping = lock.withLock { writes.filter { $0.start < to && $0.end > from } }
            let failures = overlapping.compactMap(\.failure)
            return (
                overlapping.count, overlapping.map { Stopwatch.seconds($0.end - $0.start) }.max() ?? 0, failures.count,
                failures.first.map { String($0.prefix(200)) }
            )
        }
    }

    /// `uptime`'s load average: `1.23 0.98 0.75` (1, 5 and 15 minutes).
    static func loadAverage() -> String {
        var loads = [Double](repeating: 0, count: 3)
        guard getloadavg(&loads, 3) == 3 else { return "unknown" }
        return loads.map { String(format: "%.2f", $0) }.joined(separator: " ")
    }

    /// The CPU time (user + system) of a process of this machine so far, from `/proc/PID/stat`;
    /// nil where it cannot be read (another machine's server, no procfs).
    static func cpuSeconds(ofProcess pid: Int32) -> Double? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = text.lastIndex(of: ")")
        else { return nil }
        // After "pid (comm)": state is field 3; utime and stime are fields 14 and 15.
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
        return ticks > 0 ? (user + system) / ticks : nil
    }

    /// `url` with its database replaced by `name`.
    private func database(_ name: String, of url: String) throws -> PostgresURL {
        var parsed = try PostgresURL(parsing: url)
        parsed.database = name
        return parsed
    }
}
