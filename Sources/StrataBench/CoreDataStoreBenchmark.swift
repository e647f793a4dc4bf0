import Foundation
import GRDB
import StrataCore
import StrataCoreDataImport
import StrataCoreDataMapping
import StrataCoreDataStore
import StrataSQLite

/// An app's first launch after adopting Strata: moving the rows of a Core Data store into a new
/// database with `CoreDataStoreImporter.importStore(at:intoDatabaseAt:)` (version recognised,
/// every row checked, counts checked, migrated to the latest version, moved into place), against
/// the same rows copied by hand: the store attached, one `INSERT … SELECT` per table in one
/// transaction, into a database created from the same model's SQLite schema, on the same file
/// system. Both copies are compared row for row.
public struct CoreDataStoreBenchmark: Sendable {
    /// Rows in the store, in all (authors, books and many-to-many pairs).
    public var rows: Int
    /// Timed runs of each, after one warm-up (the fastest counts).
    public var repetitions: Int
    /// A scratch folder for the model, the store and the databases.
    public var workDirectory: String

    /// Target: import / by hand at most this.
    public static let target = 1.2

    /// A benchmark on a store of `rows` rows.
    public init(rows: Int = 1_000_000, repetitions: Int = 3, workDirectory: String) {
        self.rows = rows
        self.repetitions = repetitions
        self.workDirectory = workDirectory
    }

    /// Why a run could not be measured.
    public struct Failure: Error, CustomStringConvertible {
        /// What went wrong.
        public var description: String
    }

    /// Writes the model and the store, times both copies, checks they are equal, returns the figures.
    public func run(progress: (String) -> Void = { _ in }) throws -> [Figure] {
        let folder = (workDirectory as NSString).appendingPathComponent("coredata-store")
        let manager = FileManager.default
        if manager.fileExists(atPath: folder) { try manager.removeItem(atPath: folder) }
        try manager.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? manager.removeItem(atPath: folder) }
        func path(_ name: String) -> String { (folder as NSString).appendingPathComponent(name) }

        let (history, mappingJSON) = try Self.importModel(into: folder)
        let migrator = try MigrationBenchmark.migrator(model: history.model, schemas: path("Schemas"))
        guard let schemaSQL = MigrationSources.sqlite(for: history).first?.sql else {
            throw Failure(description: "\(history.model) has no SQLite schema")
        }
        let importer = try CoreDataStoreImporter(mappingJSON: mappingJSON, migrator: migrator)

        let (authors, books, pairs) = CoreDataStoreBenchModel.counts(rows: rows)
        progress("coredata: writing a store of \(Format.count(rows)) rows")
        let store = path("store.sqlite")
        try CoreDataStoreBenchModel.writeStore(rows: rows, at: store)

        let imported = path("imported.sqlite")
        let byHand = path("by-hand.sqlite")
        let checked = path("by-hand-foreign-keys.sqlite")
        progress("coredata: import against the copy by hand")
        // The CPU time of the timed runs (not the warm-up's), the fastest of each.
        var cpu = [Double.infinity, Double.infinity, Double.infinity]
        var calls = [0, 0, 0]
        func timed(_ index: Int, _ body: @escaping () throws -> Void) -> () throws -> Void {
            {
                let start = Stopwatch.processCPUSeconds()
                try body()
                calls[index] += 1
                if calls[index] > 1 { cpu[index] = min(cpu[index], Stopwatch.processCPUSeconds() - start) }
            }
        }
        var copied = 0
        let times = try Stopwatch.fastest(
            repetitions: repetitions,
            prepare: { index in MigrationBenchmark.remove([imported, byHand, checked][index]) },
            [
                timed(0) {
                    guard case .imported(_, let count) = try importer.importStore(at: store, intoDatabaseAt: imported)
                    else { throw Failure(description: "the import found the database already imported") }
                    copied = count
                },
                timed(1) { try Self.copyByHand(store: store, schemaSQL: schemaSQL, into: byHand) },
                timed(2) { try Self.copyByHand(store: store, schemaSQL: schemaSQL, into: checked, foreignKeys: true) },
            ])
        guard copied == authors + books + pairs else {
            throw Failure(description: "the import copied \(copied) rows of \(authors + books + pairs)")
        }
        let differences = try Self.differences(between: imported, and: byHand, tables: Self.tables(in: byHand))
        guard differences.isEmpty else {
            throw Failure(description: "the import and the copy by hand differ: " + differences.joined(separator: "; "))
        }
        let detail =
            "\(Format.count(authors)) authors, \(Format.count(books)) books, \(Format.count(pairs)) many-to-many pairs; "
            + "both copies equal row for row; by hand with foreign keys enforced (GRDB's default): "
            + "\(Format.value(times[2], .seconds)) (\(Format.value(cpu[2], .seconds)) CPU)"
        return [
            Figure(
                section: .coredata, name: "import a Core Data store (\(Format.count(rows)) rows), CoreDataStoreImporter",
                value: times[0], baselineName: "hand-written INSERT … SELECT, one transaction", baseline: times[1],
                unit: .seconds, target: .ratioAtMost(Self.target), detail: detail),
            Figure(
                section: .coredata, name: "import a Core Data store: CPU time (user + system)",
                value: cpu[0], baselineName: "hand-written INSERT … SELECT, CPU time", baseline: cpu[1], unit: .seconds),
        ]
    }

    /// Writes `CoreDataBench.xcdatamodel` into `folder` and imports it as `strata import coredata`
    /// does into `folder/Schemas`; returns the model's history and `coredata-mapping.json`.
    static func importModel(into folder: String) throws -> (SchemaHistory, Data) {
        let bundle = (folder as NSString).appendingPathComponent("\(CoreDataStoreBenchModel.name).xcdatamodel")
        try FileManager.default.createDirectory(atPath: bundle, withIntermediateDirectories: true)
        try Data(CoreDataStoreBenchModel.contents.utf8).write(
            to: URL(fileURLWithPath: (bundle as NSString).appendingPathComponent("contents")))
        let schemas = (folder as NSString).appendingPathComponent("Schemas")
        let outcome = CoreDataImporter.run(bundle, options: .init(model: CoreDataStoreBenchModel.name))
        do {
            _ = try CoreDataImporter.write(outcome, schemas: schemas)
        } catch {
            throw Failure(description: "cannot import \(bundle): \(error) \(outcome.diagnostics.prefix(3).map { "\($0)" })")
        }
        let (history, _, diagnostics) = SchemaLoader.loadModel(named: CoreDataStoreBenchModel.name, in: schemas)
        let mappingPath = SchemaLoader.join(SchemaLoader.join(schemas, CoreDataStoreBenchModel.name), CoreDataMapping.fileName)
        guard let history, let mapping = FileManager.default.contents(atPath: mappingPath) else {
            throw Failure(description: "cannot load the imported model: \(diagnostics.prefix(3).map { "\($0)" })")
        }
        return (history, mapping)
    }

    /// The copy by hand: a new database at `path` from the model's schema, the store attached, every
    /// table copied with `INSERT … SELECT` in one transaction; SQLite's defaults (foreign keys not
    /// enforced, as the `sqlite3` shell runs a script), or GRDB's (`foreignKeys`: enforced on each row).
    static func copyByHand(store: String, schemaSQL: String, into path: String, foreignKeys: Bool = false) throws {
        var configuration = Configuration()
        configuration.foreignKeysEnabled = foreignKeys
        let queue = try DatabaseQueue(path: path, configuration: configuration)
        try queue.writeWithoutTransaction { db in
            try db.execute(sql: schemaSQL)
            try db.execute(sql: "ATTACH DATABASE ? AS store", arguments: [store])
            try db.inTransaction {
                try db.execute(sql: CoreDataStoreBenchModel.copyByHand)
                return .commit
            }
            try db.execute(sql: "DETACH DATABASE store")
        }
        try queue.close()
    }

    /// The model's tables in the database at `path` (not SQLite's, not Strata's ledger or import record).
    static func tables(in path: String) throws -> [String] {
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        return try queue.read { db in
            try String.fetchAll(
                db,
                sql: """
                    SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' \
                    AND name NOT LIKE 'strata_%' ORDER BY name
                    """)
        }
    }

    /// How the `tables` of two databases differ: a table's row count, or a row of one that the other
    /// lacks (every column compared, value and type); empty when they are equal row for row.
    public static func differences(between first: String, and second: String, tables: [String]) throws -> [String] {
        let queue = try DatabaseQueue(path: first)
        defer { try? queue.close() }
        return try queue.writeWithoutTransaction { db in
            try db.execute(sql: "ATTACH DATABASE ? AS other", arguments: [second])
            defer { try? db.execute(sql: "DETACH DATABASE other") }
            var differences: [String] = []
            for table in tables {
                let name = "\"" + table.replacingOccurrences(of: "\"", with: "\"\"") + "\""
                let counts = try Row.fetchOne(
                    db, sql: "SELECT (SELECT count(*) FROM main.\(name)), (SELECT count(*) FROM other.\(name))")
                let (left, right): (Int, Int) = (counts?[0] ?? -1, counts?[1] ?? -1)
                if left != right {
                    differences.append("\(table) has \(left) rows and \(right)")
                    continue
                }
                // Each row with its values' types, so that 1 and 1.0 or '1' differ.
                let columns: String = try db.columns(in: table, in: "main").map { column -> String in
                    let quoted = "\"" + column.name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
                    return quoted + ", typeof(" + quoted + ")"
                }.joined(separator: ", ")
                for (from, to) in [("main", "other"), ("other", "main")] {
                    let missing = try Int.fetchOne(
                        db,
                        sql: """
                            SELECT count(*) FROM (SELECT \(columns) FROM \(from).\(name) \
                            EXCEPT SELECT \(columns) FROM \(to).\(name))
                            """) ?? 0
                    if missing > 0 { differences.append("\(missing) rows of \(table) in \(from) are not in \(to)") }
                }
            }
            return differences
        }
    }
}
