import Foundation
import GRDB
import StrataCore
import StrataSQLite

/// Migration cost on SQLite files: a large table through an in-place migration (`ADD COLUMN`) and
/// through a rebuild, and the TODO app's v1 -> v3, each applied by `SQLiteMigrator` with Strata's
/// generated SQL against the same change written by hand, on copies of the same seeded file.
public struct MigrationBenchmark: Sendable {
    /// Rows in each seeded table.
    public var rows: Int
    /// Timed runs per variant, after one warm-up (the fastest counts).
    public var repetitions: Int
    /// A scratch folder for the database files.
    public var workDirectory: String
    /// The folder holding `MyTODO/v1.yaml` … (the repository's `Schemas`).
    public var schemasDirectory: String

    /// Target: Strata / hand-written at most this.
    public static let target = 1.1

    /// A benchmark on `rows` rows.
    public init(rows: Int = 1_000_000, repetitions: Int = 3, workDirectory: String, schemasDirectory: String) {
        self.rows = rows
        self.repetitions = repetitions
        self.workDirectory = workDirectory
        self.schemasDirectory = schemasDirectory
    }

    /// Why a run could not be measured.
    public struct Failure: Error, CustomStringConvertible {
        /// What went wrong.
        public var description: String
    }

    /// Seeds the databases, measures the three migrations, and returns their figures.
    public func run(progress: (String) -> Void = { _ in }) throws -> [Figure] {
        let folder = (workDirectory as NSString).appendingPathComponent("migration")
        let manager = FileManager.default
        if manager.fileExists(atPath: folder) { try manager.removeItem(atPath: folder) }
        try manager.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? manager.removeItem(atPath: folder) }
        func path(_ name: String) -> String { (folder as NSString).appendingPathComponent(name) }

        let benchSchemas = path("Schemas")
        let modelFolder = (benchSchemas as NSString).appendingPathComponent(MigrationBenchModel.name)
        try manager.createDirectory(atPath: modelFolder, withIntermediateDirectories: true)
        for file in MigrationBenchModel.versions {
            try Data(file.text.utf8).write(to: URL(fileURLWithPath: (modelFolder as NSString).appendingPathComponent(file.name)))
        }
        let bench = try Self.migrator(model: MigrationBenchModel.name, schemas: benchSchemas)
        let todo = try Self.migrator(model: "MyTODO", schemas: schemasDirectory)
        let count = Format.count(rows)

        progress("migration: seeding \(count) events")
        let eventsV1 = path("events-v1.sqlite")
        try seedEvents(at: eventsV1, migrator: bench)
        let eventsV2 = path("events-v2.sqlite")
        try manager.copyItem(atPath: eventsV1, toPath: eventsV2)
        try Self.withPool(eventsV2) { pool in try bench.migrate(pool, to: 2) }

        progress("migration: add column")
        let trial = path("trial.sqlite")
        let addColumn = try compare(
            seed: eventsV1, trial: trial, table: "event",
            strata: { pool in try bench.migrate(pool, to: 2) },
            byHand: { pool in try Self.runByHand(pool, [MigrationBenchModel.handAddColumn], foreignKeysOff: false) })

        // The same SQL through a tool that keeps a ledger too: GRDB's DatabaseMigrator.
        let addColumnWithGRDB = try compare(
            seed: eventsV1, trial: trial, table: "event",
            strata: { pool in try Self.runWithGRDBMigrator(pool, [MigrationBenchModel.handAddColumn]) },
            byHand: { pool in try Self.runByHand(pool, [MigrationBenchModel.handAddColumn], foreignKeysOff: false) }
        ).strata

        progress("migration: rebuild")
        let rebuild = try compare(
            seed: eventsV2, trial: trial, table: "event",
            strata: { pool in try bench.migrate(pool, to: 3) },
            byHand: { pool in try Self.runByHand(pool, [MigrationBenchModel.handRebuild], foreignKeysOff: true) })
        try manager.removeItem(atPath: eventsV1)
        try manager.removeItem(atPath: eventsV2)

        progress("migration: seeding \(count) TODO items at v1")
        let todoV1 = path("mytodo-v1.sqlite")
        try seedTODOItems(at: todoV1, migrator: todo)
        progress("migration: MyTODO v1 -> v3")
        let history = try compare(
            seed: todoV1, trial: trial, table: "todo_item",
            strata: { pool in try todo.migrate(pool) },
            byHand: { pool in try Self.runByHand(pool, [MyTODOByHand.v2, MyTODOByHand.v3], foreignKeysOff: false) })
        let withoutChecks = try compare(
            seed: todoV1, trial: trial, table: nil,
            strata: { pool in try Self.runByHand(pool, MyTODOByHand.withoutChecks, foreignKeysOff: false) },
            byHand: { _ in }
        ).strata

        return [
            Figure(
                section: .migration, name: "add column in place (\(count) rows), Strata via SQLiteMigrator",
                value: addColumn.strata, baselineName: "hand-written ALTER TABLE ADD COLUMN", baseline: addColumn.byHand,
                unit: .seconds, target: .ratioAtMost(Self.target),
                detail: "ADD COLUMN label TEXT NOT NULL DEFAULT '' (constant time in SQLite: this measures the runner's bookkeeping); "
                    + "the same SQL through GRDB's DatabaseMigrator: \(Format.value(addColumnWithGRDB, .seconds))"),
            Figure(
                section: .migration, name: "rebuild, optional -> required (\(count) rows), Strata via SQLiteMigrator",
                value: rebuild.strata, baselineName: "hand-written 12-step rebuild", baseline: rebuild.byHand,
                unit: .seconds, target: .ratioAtMost(Self.target), detail: "note: String? -> String, NULLs filled with ''"),
            Figure(
                section: .migration, name: "MyTODO v1 -> v3 (\(count) rows), Strata via SQLiteMigrator",
                value: history.strata, baselineName: "hand-written ALTERs + index", baseline: history.byHand,
                unit: .seconds, target: .ratioAtMost(Self.target),
                detail: "2 ADD COLUMN with CHECK + CREATE INDEX; without the CHECKs by hand: "
                    + Format.value(withoutChecks, .seconds)),
        ]
    }

    /// A migrator for the model folder `model` under `schemas`, with the generator's SQLite migrations.
    static func migrator(model: String, schemas: String) throws -> SQLiteMigrator {
        let (history, _, diagnostics) = SchemaLoader.loadModel(named: model, in: schemas)
        guard let history else {
            throw Failure(description: "cannot load \(model) from \(schemas): \(diagnostics.prefix(3).map { "\($0)" })")
        }
        let migrations = MigrationSources.sqlite(for: history).map {
            StrataMigration(
                version: $0.version, sql: $0.sql, checksum: $0.checksum, legacyChecksum: $0.legacyChecksum,
                dateColumns: $0.dateColumns)
        }
        return SQLiteMigrator(model: model, migrations: migrations)
    }

    /// Opens a file database the way generated `<Model>Database(path:)` does (a `DatabasePool`),
    /// runs `body`, and closes it.
    @discardableResult
    static func withPool<T>(_ path: String, _ body: (DatabasePool) throws -> T) throws -> T {
        let pool = try DatabasePool(path: path)
        defer { try? pool.close() }
        return try body(pool)
    }

    /// Hand-written migrations, the way one runs them without a tool: each script in its own
    /// immediate transaction; for a rebuild, foreign keys off around it and
    /// `PRAGMA foreign_key_check` before the commit, as sqlite.org's procedure says.
    static func runByHand(_ pool: DatabasePool, _ scripts: [String], foreignKeysOff: Bool) throws {
        try pool.writeWithoutTransaction { db in
            if foreignKeysOff { try db.execute(sql: "PRAGMA foreign_keys = OFF") }
            for script in scripts {
                try db.inTransaction(.immediate) {
                    try db.execute(sql: script)
                    if foreignKeysOff, try Row.fetchOne(db, sql: "PRAGMA foreign_key_check") != nil {
                        throw Failure(description: "foreign key violation")
                    }
                    return .commit
                }
            }
            if foreignKeysOff { try db.execute(sql: "PRAGMA foreign_keys = ON") }
        }
    }

    /// The hand-written scripts as GRDB users register them: one `DatabaseMigrator` migration each,
    /// recorded in `grdb_migrations`.
    static func runWithGRDBMigrator(_ pool: DatabasePool, _ scripts: [String]) throws {
        var migrator = DatabaseMigrator()
        for (offset, script) in scripts.enumerated() {
            migrator.registerMigration("step \(offset + 1)") { db in try db.execute(sql: script) }
        }
        try migrator.migrate(pool)
    }

    /// Times `strata` and `byHand` on fresh copies of `seed`, taking turns, and checks that both
    /// leave `table` with the same columns and every row.
    private func compare(
        seed: String, trial: String, table: String?,
        strata: @escaping (DatabasePool) throws -> Void,
        byHand: @escaping (DatabasePool) throws -> Void
    ) throws -> (strata: Double, byHand: Double) {
        var pool: DatabasePool?
        var shapes: [Int: String] = [:]
        func finish(_ index: Int?) throws {
            if let current = pool, let index, let table {
                let shape = try current.read { db in
                    let columns = try Row.fetchAll(db, sql: "PRAGMA table_info(\(quoted(table)))").map { row in
                        "\(row["name"] as String? ?? "?") \(row["type"] as String? ?? "") \(row["notnull"] as Int? ?? 0) \(row["dflt_value"] as String? ?? "-") \(row["pk"] as Int? ?? 0)"
                    }
                    let count = try Int.fetchOne(db, sql: "SELECT count(*) FROM \(quoted(table))") ?? 0
                    return columns.joined(separator: ", ") + " | \(count) rows"
                }
                shapes[index] = shape
            }
            try pool?.close()
            pool = nil
        }
        var last: Int?
        let times = try Stopwatch.fastest(
            repetitions: repetitions,
            prepare: { index in
                try finish(last)
                last = index
                try Self.copy(seed, to: trial)
                pool = try DatabasePool(path: trial)
                // Open the connections before the clock starts.
                _ = try pool?.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master") }
            },
            [
                { if let pool { try strata(pool) } },
                { if let pool { try byHand(pool) } },
            ])
        try finish(last)
        Self.remove(trial)
        if table != nil, shapes[0] != shapes[1] {
            throw Failure(
                description: "Strata's and the hand-written migration differ:\n  Strata: \(shapes[0] ?? "-")\n  by hand: \(shapes[1] ?? "-")")
        }
        if let table, let shape = shapes[0], !shape.hasSuffix("| \(rows) rows") {
            throw Failure(description: "\(table) lost rows: \(shape)")
        }
        return (times[0], times[1])
    }

    private func quoted(_ name: String) -> String { "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }

    /// Copies a closed database file over `destination` (removing its journal files).
    static func copy(_ source: String, to destination: String) throws {
        remove(destination)
        try FileManager.default.copyItem(atPath: source, toPath: destination)
    }

    static func remove(_ path: String) {
        for suffix in ["", "-wal", "-shm", "-journal"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }

    /// `rows` events at version 1 of MigrationBench, in one transaction.
    private func seedEvents(at path: String, migrator: SQLiteMigrator) throws {
        Self.remove(path)
        try Self.withPool(path) { pool in
            try migrator.migrate(pool, to: 1)
            try pool.write { db in
                let statement = try db.makeStatement(sql: MigrationBenchModel.insertSQL)
                var state: UInt64 = 0x9E37_79B9_7F4A_7C15
                for index in 0..<rows {
                    state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                    let random = state >> 17
                    let note: String? = index % 3 == 0 ? nil : "note \(index)"
                    try statement.execute(arguments: [
                        index + 1, "event \(random % 100_000)", Int(random % 1_000), Double(random % 1_000_000) / 1_000,
                        note, 1_700_000_000 + Double(index),
                    ])
                }
            }
        }
    }

    /// `rows` TODO items at version 1 of MyTODO, in one transaction.
    private func seedTODOItems(at path: String, migrator: SQLiteMigrator) throws {
        Self.remove(path)
        try Self.withPool(path) { pool in
            try migrator.migrate(pool, to: 1)
            try pool.write { db in
                let statement = try db.makeStatement(sql: MyTODOByHand.insertSQL)
                for index in 0..<rows {
                    var bytes = [UInt8](repeating: 0, count: 16)
                    withUnsafeBytes(of: UInt64(index).bigEndian) { bytes.replaceSubrange(8..<16, with: $0) }
                    bytes[6] = 0x40
                    bytes[8] = (bytes[8] & 0x3F) | 0x80
                    try statement.execute(arguments: [Data(bytes), "item \(index)", index % 4 == 0 ? "details of \(index)" : ""])
                }
            }
        }
    }
}
