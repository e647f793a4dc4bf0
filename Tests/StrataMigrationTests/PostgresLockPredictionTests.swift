import Foundation
import StrataCore
import StrataIntrospection
import StrataPostgres
import StrataSQLText
import StrataTestSupport
import Testing

/// The lock predictions of `strata plan --dialect postgres` (``PostgresLock``) checked against
/// PostgreSQL itself: for every change kind of ``SchemaChange``, a two-version model with that one
/// change, a table of 20,000 rows at v1, and v2's rendered SQL applied by the test the way
/// `strata migrate` applies it (leading statements each on their own, the rest in one
/// transaction), observing `pg_locks` of the migrating backend, its transaction's scan and update
/// counts, and `pg_class.relfilenode` before and after.
///
/// The observations are deterministic, not sampled: a statement that can run in a transaction is
/// run in one and its backend's own `pg_locks` read before COMMIT (every lock is held to the end
/// of the transaction, so none is missed); a `CREATE INDEX CONCURRENTLY` is held in its first wait
/// by a second session's open transaction on the table (ROW EXCLUSIVE, which the build waits
/// out), while that session reads the builder's granted locks. The work a concurrent build does is
/// a scan by definition (it is not counted in a transaction).
@Suite(.serialized) struct PostgresLockPredictionTests {
    /// The models' v1 shape, changed by each case.
    struct Shape {
        var item = "Item"
        var itemKeys: [String] = []
        var fields: [(String, String)] = [
            ("id", "{ type: Int64, autoincrement: true }"), ("name", "String"), ("qty", "Int32"), ("note", "String?"),
            ("owner", "Int64"), ("status", "Status"), ("code", "{ type: String, unique: true }"), ("tag", "String"),
        ]
        var indexes = ["- { fields: [tag] }"]
        var status = "cases: [a, b, c]"
        var extra: String?
        var migration: [String] = []

        func yaml(version: Int) -> String {
            var lines = [
                "model: Locks", "version: \(version)", "enums:", "  Status:", "    type: String", "    \(status)",
                "    unknown: a", "entities:", "  Owner:", "    fields:",
                "      id: { type: Int64, autoincrement: true }",
                "      name: String", "  \(item):",
            ]
            lines += itemKeys.map { "    \($0)" }
            lines.append("    fields:")
            lines += fields.map { "      \($0.0): \($0.1)" }
            if !indexes.isEmpty { lines += ["    indexes:"] + indexes.map { "      \($0)" } }
            if let extra { lines.append(extra) }
            if !migration.isEmpty { lines += ["migration:"] + migration.map { "  \($0)" } }
            return lines.joined(separator: "\n") + "\n"
        }

        func with(_ name: String, _ spec: String) -> Shape {
            var copy = self
            if let index = fields.firstIndex(where: { $0.0 == name }) {
                copy.fields[index].1 = spec
            } else {
                copy.fields.append((name, spec))
            }
            return copy
        }

        func without(_ name: String) -> Shape {
            var copy = self
            copy.fields.removeAll { $0.0 == name }
            return copy
        }

        func changing(_ body: (inout Shape) -> Void) -> Shape {
            var copy = self
            body(&copy)
            return copy
        }
    }

    static let extraEntity = """
          Extra:
            fields:
              id: { type: Int64, autoincrement: true }
              label: String
        """

    /// One change kind: v1 and v2, and whether the change is expected to be prepared beforehand.
    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var v1: String
        var v2: String
        var testDescription: String { name }
    }

    static let cases: [Case] = {
        let base = Shape()
        func make(_ name: String, _ v1: Shape, _ v2: Shape) -> Case {
            Case(name: name, v1: v1.yaml(version: 1), v2: v2.yaml(version: 2))
        }
        func make(_ name: String, _ v2: Shape) -> Case { make(name, base, v2) }
        return [
            make(
                "entityAdded",
                base.changing {
                    $0.extra = "  Extra:\n    fields:\n      id: { type: Int64, autoincrement: true }\n      item: Item"
                }),
            make(
                "entityRemoved", base.changing { $0.extra = Self.extraEntity },
                base.changing { $0.migration = ["allowDataLoss: [Extra]"] }),
            make(
                "entityRemoved (with a reference)",
                base.changing { $0.extra = Self.extraEntity + "\n      item: Item?" },
                base.changing { $0.migration = ["allowDataLoss: [Extra]"] }),
            make(
                "entityRenamed", base.changing { $0.indexes = [] },
                base.changing {
                    $0.item = "Thing"; $0.itemKeys = ["renamedFrom: Item"]; $0.indexes = []
                }),
            make("fieldAdded (optional)", base.with("extra", "String?")),
            make("fieldAdded (required, default)", base.with("rank", "{ type: Int32, default: 0 }")),
            make("fieldAdded (transform)", base.with("double", #"{ type: Int32, transform: "qty * 2" }"#)),
            make("fieldAdded (reference)", base.with("boss", "Owner?")),
            make("fieldAdded (enum, default)", base.with("state", "{ type: Status, default: a }")),
            make("fieldAdded (unique)", base.with("serial", "{ type: String?, unique: true }")),
            make("fieldRemoved", base.without("note").changing { $0.migration = ["allowDataLoss: [Item.note]"] }),
            make(
                "fieldRemoved (reference)", base.with("boss", "Owner?"),
                base.changing { $0.migration = ["allowDataLoss: [Item.boss]"] }),
            make("fieldRenamed", base.without("note").with("remark", "{ type: String?, renamedFrom: note }")),
            make("typeChanged (Int32 to Int64)", base.with("qty", "Int64")),
            // Into a shadow column filled in batches, its index and unique constraint built over it
            // concurrently, swapped in the transaction.
            make("typeChanged (String to Int32, transform, indexed)", base.with("tag", #"{ type: Int32, transform: "length(tag)" }"#)),
            make(
                "typeChanged (String to Int64, transform, unique)",
                base.with("code", #"{ type: Int64, unique: true, transform: "CAST(substr(code, 2) AS BIGINT)" }"#)),
            // Optional, no constraint, no index: nothing to prove beforehand.
            make("typeChanged (String? to Int64?, transform)", base.with("note", #"{ type: Int64?, transform: "length(note)" }"#)),
            make("typeChanged (enum to String)", base.with("status", "String")),
            make(
                "typeChanged (String to enum, transform)", base.with("tag", "String"),
                base.with("tag", #"{ type: Status, transform: "'a'" }"#)),
            make("typeChanged (key to reference)", base.with("owner", "Owner")),
            // `before` SQL may change the rows: nothing is prepared before the transaction.
            make(
                "typeChanged (key to reference, in the transaction)",
                base.with("owner", "Owner").changing { $0.migration = [#"before: "SELECT 1""#] }),
            make("becameRequired", base.with("note", #"{ type: String, default: "" }"#)),
            make("becameOptional", base.with("name", "String?")),
            make("defaultChanged", base.with("qty", "{ type: Int32, default: 5 }")),
            make("uniqueAdded", base.with("name", "{ type: String, unique: true }")),
            make("uniqueRemoved", base.with("code", "String")),
            make(
                "referenceChanged", base.with("owner", "Owner"),
                base.with("owner", "{ type: Owner, onDelete: cascade }")),
            make("typeChanged (reference to key)", base.with("owner", "Owner"), base.with("owner", "Int64")),
            make(
                "primaryKeyChanged", base.with("id", "Int64"),
                base.with("id", "Int64").changing { $0.itemKeys = ["primaryKey: [id, code]"] }),
            make("indexAdded", base.changing { $0.indexes.append("- { fields: [name] }") }),
            make("indexRemoved", base.changing { $0.indexes = [] }),
            make("enumCasesAdded", base.changing { $0.status = "cases: [a, b, c, d]" }),
            make(
                "enumCasesRemoved",
                base.changing {
                    $0.status = "cases: [a, b]"; $0.migration = ["allowDataLoss: [Status.c]"]
                }),
            make(
                "enumRawValueChanged", base.changing { $0.status = "cases: { a: a, b: b, c: c }" },
                base.changing { $0.status = "cases: { a: a, b: bee, c: c }" }),
        ]
    }()

    /// PostgreSQL's table lock modes, weakest first.
    static let modes = [
        "AccessShareLock", "RowShareLock", "RowExclusiveLock", "ShareUpdateExclusiveLock", "ShareLock",
        "ShareRowExclusiveLock", "ExclusiveLock", "AccessExclusiveLock",
    ]

    static func strongest(_ modes: [String]) -> String? {
        modes.max { Self.modes.firstIndex(of: $0) ?? -1 < Self.modes.firstIndex(of: $1) ?? -1 }
    }

    static func rank(_ mode: String?) -> Int { mode.flatMap { modes.firstIndex(of: $0) } ?? -1 }

    /// What one unit (a leading statement, or the version's transaction) did: the strongest mode
    /// it held on each table (by oid), and whether it scanned or updated the table.
    struct Unit {
        var leading: Bool
        /// A batch of a backfill (rows written under ROW EXCLUSIVE, committed on their own).
        var batched = false
        var modes: [String: String] = [:]
        var scanned: Set<String> = []
        var updated: Set<String> = []

        func work(on oid: String, rewritten: Bool) -> PostgresLock.Work? {
            guard modes[oid] != nil else { return nil }
            if rewritten { return .rewrite }
            if updated.contains(oid) { return .updatesRows }
            return scanned.contains(oid) ? .scan : .catalogOnly
        }
    }

    /// The granted relation locks of backend `pid` (own backend: `pg_backend_pid()`), strongest per oid.
    static func locks(_ session: PostgresSession, pid: String) async throws -> [String: String] {
        let rows = try await session.textRows(
            sql:
                "SELECT relation::oid::text, mode FROM pg_locks WHERE pid = \(pid) AND locktype = 'relation' AND granted"
        )
        var modes: [String: [String]] = [:]
        for row in rows { if let oid = row[0], let mode = row[1] { modes[oid, default: []].append(mode) } }
        return modes.compactMapValues(strongest)
    }

    /// The scans and updated rows of each table in `oids` that `session`'s backend has counted and
    /// not yet reported (`pg_stat_get_xact_*`: they include earlier transactions until the
    /// backend reports them, so a transaction's own are the difference from its start).
    static func counts(_ session: PostgresSession, oids: [String]) async throws -> [String: (scans: Int, updates: Int)]
    {
        var counts: [String: (scans: Int, updates: Int)] = [:]
        for oid in oids {
            let row = try await session.textRows(
                sql: "SELECT pg_stat_get_xact_numscans(\(oid))::text, pg_stat_get_xact_tuples_updated(\(oid))::text")
            let cells = row.first ?? []
            counts[oid] = (Int((cells.first ?? nil) ?? "0") ?? 0, Int((cells.last ?? nil) ?? "0") ?? 0)
        }
        return counts
    }

    /// Runs `statements` in a transaction of `session` and reads, before COMMIT, the locks its
    /// backend holds and which tables the transaction scanned and updated.
    static func observeTransaction(
        _ statements: [String], _ session: PostgresSession, leading: Bool, oids: [String]
    ) async throws -> Unit {
        try await session.execute("BEGIN")
        do {
            let start = try await counts(session, oids: oids)
            for statement in statements { try await session.execute(statement) }
            var unit = Unit(leading: leading)
            unit.modes = try await locks(session, pid: "pg_backend_pid()")
            for (oid, end) in try await counts(session, oids: oids) {
                if end.scans > start[oid]?.scans ?? 0 { unit.scanned.insert(oid) }
                if end.updates > start[oid]?.updates ?? 0 { unit.updated.insert(oid) }
            }
            try await session.execute("COMMIT")
            return unit
        } catch {
            try? await session.execute("ROLLBACK")
            throw error
        }
    }

    /// Runs a `CREATE INDEX CONCURRENTLY` on `session` while `blocker` keeps it in its first wait,
    /// and returns the locks it held there.
    static func observeConcurrentBuild(
        _ statement: String, session: PostgresSession, blocker: PostgresSession, table: String
    ) async throws -> Unit {
        let pid = String(try await session.backendPID())
        try await blocker.execute("BEGIN")
        try await blocker.execute("LOCK TABLE \"\(table)\" IN ROW EXCLUSIVE MODE")
        async let build: Void = session.execute(statement)
        var unit = Unit(leading: true)
        var observed: Result<[String: String], any Error> = .success([:])
        do {
            var waiting = false
            for _ in 0..<500 {
                let count = try await blocker.textRows(
                    sql: "SELECT count(*)::text FROM pg_locks WHERE pid = \(pid) AND NOT granted")
                if count.first?.first == "1" {
                    waiting = true
                    break
                }
                try await Task.sleep(for: .milliseconds(20))
            }
            #expect(waiting, "the concurrent build never waited for the open transaction: \(statement)")
            observed = .success(try await locks(blocker, pid: pid))
        } catch {
            observed = .failure(error)
        }
        try await blocker.execute("ROLLBACK")
        try await build
        unit.modes = try observed.get()
        // A concurrent build reads every row, outside any transaction the test could count in.
        unit.scanned = Set(unit.modes.keys)
        return unit
    }

    /// The locks of several steps of one version together: the strongest mode and work, every
    /// referenced table, outside the transaction only if all are.
    static func together(_ locks: [PostgresLock]) -> PostgresLock {
        var result = locks[0]
        for lock in locks.dropFirst() {
            result.mode = max(result.mode, lock.mode)
            result.work = max(result.work, lock.work)
            result.referenced.merge(lock.referenced, uniquingKeysWith: max)
            result.outsideTransaction = result.outsideTransaction && lock.outsideTransaction
            result.readBeforehand = result.readBeforehand || lock.readBeforehand
        }
        return result
    }

    /// Table oids and relfilenodes of the user tables.
    static func relfilenodes(_ session: PostgresSession) async throws -> [String: (table: String, node: String)] {
        let rows = try await session.textRows(
            sql:
                "SELECT oid::text, relname::text, relfilenode::text FROM pg_class WHERE relkind = 'r' AND relnamespace = 'public'::regnamespace"
        )
        var result: [String: (table: String, node: String)] = [:]
        for row in rows { if let oid = row[0], let name = row[1], let node = row[2] { result[oid] = (name, node) } }
        return result
    }

    /// The table (at v1, or new at v2) a step concerns.
    static func table(of change: SchemaChange, in plan: MigrationPlan) -> String? {
        switch change {
        case .entityRemoved(let entity): return entity.table
        case .enumCasesAdded(let name, _), .enumCasesRemoved(let name, _), .enumRawValueChanged(let name, _, _, _):
            return plan.from.entities.first { $0.fields.contains { $0.type == .enumeration(name) } }?.table
        default:
            guard let entity = change.entityName.flatMap(plan.to.entity(named:)) else { return nil }
            return plan.previous(of: entity)?.table ?? entity.table
        }
    }

    /// What was seen for one case, against what `plan` said.
    struct Finding: CustomStringConvertible {
        var kind: String
        var predicted: PostgresLock
        var mode: String?
        var work: PostgresLock.Work
        var outside: Bool
        var readBeforehand: Bool
        var referenced: [String: String]
        var description: String {
            var text = "\(mode ?? "no lock"), \(work.summary)\(outside ? ", outside the transaction" : "")"
            if readBeforehand { text += ", rows read beforehand under ShareUpdateExclusiveLock" }
            for (entity, mode) in referenced.sorted(by: { $0.key < $1.key }) { text += "; \(mode) on \(entity)" }
            return text
        }
    }

    @Test("the lock plan predicts is the lock PostgreSQL takes", arguments: cases)
    func predictionMatchesPostgres(_ testCase: Case) async throws {
        let server = try await TestPostgresServer.forTest()
        let (history, _) = try Models.temporary("Locks", versions: [testCase.v1, testCase.v2])
        let plan = try #require(Generator.migrationPlans(for: history).last)
        #expect(!plan.diagnostics.contains { $0.severity == .error }, "\(plan.diagnostics)")
        try #require(!plan.steps.isEmpty, "\(testCase.name): no step")
        // A change that brings another one (a field made required with a default changes the
        // default too): the steps' locks together, as the version's transaction holds them.
        let step = plan.steps[0]
        let predicted = Self.together(plan.steps.map(plan.postgresLock(of:)))
        let sources = MigrationSources.postgres(for: history)
        try #require(sources.count == 2)
        let script = try PostgresMigrationScript(SQLScriptSplitter.statements(sources[1].sql, dialect: .postgres))
        let tableName = try #require(Self.table(of: step.change, in: plan))

        try await server.withDatabase { session in
            try await session.executeScript(sources[0].sql, inTransaction: true)
            try await session.execute(#"INSERT INTO "owner" ("name") SELECT 'O' || n FROM generate_series(1, 10) AS n"#)
            try await session.execute(
                """
                INSERT INTO "item" ("id", "name", "qty", "note", "owner", "status", "code", "tag")
                SELECT n, 'N' || n, n, CASE WHEN n % 2 = 0 THEN NULL ELSE 'x' || n END, 1 + n % 10,
                  (ARRAY['a', 'b', 'c'])[1 + n % 3], 'C' || n, 'T' || (n % 100) FROM generate_series(1, 20000) AS n
                """)
            if plan.from.entity(named: "Extra") != nil {
                try await session.execute(
                    #"INSERT INTO "extra" ("label") SELECT 'L' || n FROM generate_series(1, 20000) AS n"#)
            }
            try await session.execute("ANALYZE")
            let before = try await Self.relfilenodes(session)
            let oids = Array(before.keys)
            let blocker = try await PostgresSession.connect(to: session.url)
            var units: [Unit] = []
            do {
                for step in script.steps {
                    switch step {
                    case .own(let step):
                        if case .buildIndex = step.kind {
                            units.append(
                                try await Self.observeConcurrentBuild(
                                    step.statement, session: session, blocker: blocker, table: tableName))
                        } else {
                            units.append(
                                try await Self.observeTransaction([step.statement], session, leading: true, oids: oids))
                        }
                    case .transaction(let statements):
                        units.append(try await Self.observeTransaction(statements, session, leading: true, oids: oids))
                    case .backfill(let backfill):
                        // In one batch, as the migrator would in batches of at least the table's rows.
                        let key = try await session.textRows(sql: backfill.keyQuery).map {
                            PostgresBackfill.KeyColumn(name: $0[0] ?? "", type: $0[1] ?? "")
                        }
                        var unit = try await Self.observeTransaction(
                            [backfill.batch(key: key, after: nil, size: 1_000_000)], session, leading: true, oids: oids)
                        unit.batched = true
                        units.append(unit)
                    }
                }
                units.append(try await Self.observeTransaction(script.transaction, session, leading: false, oids: oids))
            } catch {
                try? await blocker.close()
                throw error
            }
            // A table the version creates: its oid, by its name at v2.
            if let created = try await session.textRows(sql: "SELECT to_regclass('\"\(tableName)\"')::oid::text").first?
                .first ?? nil,
                before[created] == nil
            {
                try await blocker.close()
                return try await compare(
                    testCase, predicted, plan, units, tableOid: created, rewritten: [], before: before)
            }
            try await blocker.close()
            let after = try await Self.relfilenodes(session)
            let rewritten = Set(before.keys.filter { after[$0] != nil && after[$0]?.node != before[$0]?.node })
            let tableOid = try #require(
                before.first { $0.value.table == tableName }?.key, "no table \(tableName) at v1")
            try await compare(
                testCase, predicted, plan, units, tableOid: tableOid, rewritten: rewritten, before: before)
        }
    }

    func compare(
        _ testCase: Case, _ predicted: PostgresLock, _ plan: MigrationPlan, _ units: [Unit], tableOid: String,
        rewritten: Set<String>, before: [String: (table: String, node: String)]
    ) async throws {
        let isRewritten = rewritten.contains(tableOid)
        let filledInBatches = units.contains { $0.batched && $0.updated.contains(tableOid) }
        let onTable = units.filter { $0.modes[tableOid] != nil && !$0.batched }
        let mode = Self.strongest(onTable.compactMap { $0.modes[tableOid] })
        let sue = Self.rank("ShareUpdateExclusiveLock")
        let readUnderSUE = onTable.contains { Self.rank($0.modes[tableOid]) <= sue && $0.scanned.contains(tableOid) }
        let stronger = onTable.filter { Self.rank($0.modes[tableOid]) > sue }
        let readBeforehand = readUnderSUE && !stronger.isEmpty
        let counted = readBeforehand ? stronger : onTable
        let work = counted.compactMap { $0.work(on: tableOid, rewritten: isRewritten) }.max() ?? .catalogOnly
        let outside = !onTable.isEmpty && onTable.allSatisfy(\.leading)
        #expect(
            filledInBatches == predicted.filledInBatches,
            "\(testCase.name): filled in batches: \(filledInBatches) / plan: \(predicted.summary)")
        // Other tables of v1: the strongest lock any unit took on them.
        var referenced: [String: String] = [:]
        for (oid, table) in before where oid != tableOid {
            guard let strongest = Self.strongest(units.compactMap { $0.modes[oid] }) else { continue }
            let entity =
                plan.from.entities.first { $0.table == table.table }
                .map { old in plan.to.entities.first { plan.previous(of: $0)?.name == old.name }?.name ?? old.name }
                ?? table.table
            referenced[entity] = strongest
        }
        let finding = Finding(
            kind: testCase.name, predicted: predicted, mode: mode, work: work, outside: outside,
            readBeforehand: readBeforehand, referenced: referenced)
        print(
            "lock prediction | \(testCase.name) | \(plan.steps.map(\.change.summary).joined(separator: "; ")) | plan: \(predicted.summary) | PostgreSQL: \(finding)"
        )
        #expect(mode == predicted.mode.pgLocksMode, "\(testCase.name): \(finding) / plan: \(predicted.summary)")
        #expect(work == predicted.work, "\(testCase.name): \(finding) / plan: \(predicted.summary)")
        #expect(isRewritten == (predicted.work == .rewrite), "\(testCase.name): \(finding)")
        #expect(outside == predicted.outsideTransaction, "\(testCase.name): \(finding) / plan: \(predicted.summary)")
        #expect(readBeforehand == predicted.readBeforehand, "\(testCase.name): \(finding) / plan: \(predicted.summary)")
        // Referenced tables: the predicted mode, and nothing above ROW SHARE (a key check's
        // `FOR KEY SHARE`) on a table the plan does not name.
        for (entity, mode) in referenced {
            if let expected = predicted.referenced[entity] {
                #expect(
                    mode == expected.pgLocksMode,
                    "\(testCase.name): on \(entity): \(finding) / plan: \(predicted.summary)")
            } else {
                #expect(
                    Self.rank(mode) <= Self.rank("RowShareLock"),
                    "\(testCase.name): \(mode) on \(entity) / plan: \(predicted.summary)")
            }
        }
        for entity in predicted.referenced.keys where referenced[entity] == nil {
            Issue.record("\(testCase.name): no lock seen on \(entity) / plan: \(predicted.summary)")
        }
    }
}
