/// The lock a migration step takes on PostgreSQL, and how much of the table it reads or writes
/// while holding it: what a reviewer needs to know before a step runs on a busy database.
///
/// It describes the statements Strata renders for the step (`PostgresMigrationRenderer`): a
/// change is an `ALTER TABLE` on the existing table, run in the migration's transaction, so the
/// strongest lock of any statement is held until the migration commits, except what the
/// lock-safe rendering prepares before the transaction (``readBeforehand``: an index built
/// concurrently, a constraint validated under a lock that lets writes go on). The modes are
/// PostgreSQL's table-level lock modes (the "Explicit Locking" chapter of its manual):
///
/// - `ALTER TABLE` (add, drop, rename a column; `SET`/`DROP NOT NULL`; `SET DEFAULT`; `ALTER
///   TYPE`; add or drop a unique, check or primary key constraint), `DROP TABLE`, `DROP INDEX`,
///   `RENAME`: ACCESS EXCLUSIVE (no reads or writes by anyone else).
/// - adding a foreign key: SHARE ROW EXCLUSIVE on the referenced table too; dropping one (with
///   its column or table, or to replace it): ACCESS EXCLUSIVE on the referenced table too.
/// - `CREATE INDEX`: SHARE (reads go on, writes wait); `CREATE INDEX CONCURRENTLY`: SHARE UPDATE
///   EXCLUSIVE (reads and writes go on), run before the transaction.
/// - `UPDATE` of every row (a computed or filled value): ROW EXCLUSIVE, and every row written.
///
/// What the lock is held for: ``Work``. `PostgresLockPredictionTests` checks these for every change
/// kind against `pg_locks` and `pg_class.relfilenode` on a PostgreSQL server.
public struct PostgresLock: Hashable, Sendable {
    /// A PostgreSQL table lock mode, weakest first (the order of the manual's conflict table).
    public enum Mode: Int, Comparable, Sendable, CaseIterable {
        /// Taken by `UPDATE`: conflicts with SHARE and stronger (no index build meanwhile).
        case rowExclusive = 3
        /// Taken by `CREATE INDEX CONCURRENTLY`: reads and writes go on.
        case shareUpdateExclusive = 4
        /// Taken by `CREATE INDEX`: reads go on, writes wait.
        case share = 5
        /// Taken on both tables by adding a foreign key: reads go on, writes wait.
        case shareRowExclusive = 6
        /// Taken by most `ALTER TABLE` forms and `DROP`: everything else waits, reads included.
        case accessExclusive = 8

        /// The name PostgreSQL uses (`pg_locks.mode` spells it `AccessExclusiveLock`).
        public var name: String {
            switch self {
            case .rowExclusive: "ROW EXCLUSIVE"
            case .shareUpdateExclusive: "SHARE UPDATE EXCLUSIVE"
            case .share: "SHARE"
            case .shareRowExclusive: "SHARE ROW EXCLUSIVE"
            case .accessExclusive: "ACCESS EXCLUSIVE"
            }
        }

        /// The mode as `pg_locks.mode` shows it (`AccessExclusiveLock`), for tests against a server.
        public var pgLocksMode: String {
            switch self {
            case .rowExclusive: "RowExclusiveLock"
            case .shareUpdateExclusive: "ShareUpdateExclusiveLock"
            case .share: "ShareLock"
            case .shareRowExclusive: "ShareRowExclusiveLock"
            case .accessExclusive: "AccessExclusiveLock"
            }
        }

        /// True when reads of the table wait while the lock is held.
        public var blocksReads: Bool { self == .accessExclusive }

        public static func < (lhs: Mode, rhs: Mode) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// How much of the table the step touches while it holds the lock, least first.
    public enum Work: Int, Comparable, Sendable, CaseIterable {
        /// The catalog only: the lock is held for an instant (once it is granted).
        case catalogOnly
        /// Every row is read (a `NOT NULL`, check or foreign key validated; an index built).
        case scan
        /// Rows are written by an `UPDATE` (new row versions, and dead ones for VACUUM): every row,
        /// or, for a fill (a field made required), those that hold NULL; every row is an upper bound.
        case updatesRows
        /// The table and its indexes are rewritten (`ALTER COLUMN TYPE … USING`, a `serial` column added).
        case rewrite

        /// The work in words, for reports.
        public var summary: String {
            switch self {
            case .catalogOnly: "catalog only"
            case .scan: "scans every row"
            case .updatesRows: "updates every row"
            case .rewrite: "rewrites the table"
            }
        }

        public static func < (lhs: Work, rhs: Work) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// The strongest lock the step takes on its own table (the entity's, in version N-1 for
    /// changed tables; the new table for an added entity).
    public var mode: Mode
    /// How much of the table is read or written under it.
    public var work: Work
    /// Other entities whose tables are locked too (the targets of a new foreign key), and how.
    public var referenced: [String: Mode]
    /// True for a step run outside the migration's transaction (`CREATE INDEX CONCURRENTLY`).
    public var outsideTransaction: Bool
    /// True when the rows are read before the migration's transaction, under SHARE UPDATE
    /// EXCLUSIVE (reads and writes go on): a unique index built concurrently, a constraint added
    /// `NOT VALID` then validated; ``mode`` and ``work`` are then the rest of the step's.
    public var readBeforehand: Bool
    /// True when the rows are written in batches before the migration's transaction, each
    /// committed on its own under ROW EXCLUSIVE (reads and writes of other rows go on) while a
    /// trigger keeps the application's writes in step; ``mode`` and ``work`` are then the rest
    /// of the step's.
    public var filledInBatches: Bool

    /// Creates a classification.
    public init(
        mode: Mode, work: Work, referenced: [String: Mode] = [:], outsideTransaction: Bool = false,
        readBeforehand: Bool = false, filledInBatches: Bool = false
    ) {
        self.mode = mode
        self.work = work
        self.referenced = referenced
        self.outsideTransaction = outsideTransaction
        self.readBeforehand = readBeforehand
        self.filledInBatches = filledInBatches
    }

    /// The classification in words: `ACCESS EXCLUSIVE, scans every row; SHARE ROW EXCLUSIVE on Owner`.
    public var summary: String {
        var text = "\(mode.name), \(work.summary)"
        if outsideTransaction { text += ", outside the transaction" }
        if filledInBatches { text += ", rows filled beforehand in batches under ROW EXCLUSIVE" }
        if readBeforehand { text += ", rows read beforehand under SHARE UPDATE EXCLUSIVE" }
        for (entity, mode) in referenced.sorted(by: { $0.key < $1.key }) {
            text += "; \(mode.name) on \(entity)"
        }
        return text
    }

    /// What the statements of a type or reference change do to the column, as the plan renders
    /// them (``MigrationPlan/postgresLock(of:)`` knows; without it, a type change is taken to
    /// rewrite the table and a reference change to replace its foreign key).
    public struct ColumnChange: Hashable, Sendable {
        /// `ALTER COLUMN … TYPE`: the stored type changes, and the table is rewritten.
        public var altersType: Bool
        /// The values are rewritten in place by an `UPDATE` (a transform, remapped raw values).
        public var updatesValues: Bool
        /// The column's check (an enum's values) is dropped, or added and validated.
        public var dropsCheck: Bool
        public var addsCheck: Bool
        /// The entity (name in N, or in N-1 when it is gone) whose foreign key of N-1 is dropped.
        public var dropsForeignKeyTo: String?
        /// True when a foreign key is added (and validated).
        public var addsForeignKey: Bool

        /// Creates a description.
        public init(
            altersType: Bool, updatesValues: Bool = false, dropsCheck: Bool = false, addsCheck: Bool = false,
            dropsForeignKeyTo: String? = nil, addsForeignKey: Bool = false
        ) {
            self.altersType = altersType
            self.updatesValues = updatesValues
            self.dropsCheck = dropsCheck
            self.addsCheck = addsCheck
            self.dropsForeignKeyTo = dropsForeignKeyTo
            self.addsForeignKey = addsForeignKey
        }
    }

    /// The lock the step for `change` takes on PostgreSQL (see the type's documentation);
    /// `preparedBeforehand` when the lock-safe rendering runs it before the transaction, and
    /// `column` what a type or reference change does (``MigrationPlan/postgresLock(of:)`` knows both).
    public static func of(
        _ change: SchemaChange, preparedBeforehand: Bool = false, column: ColumnChange? = nil, filledInBatches: Bool = false,
        swapsConstraints: Bool = false
    ) -> PostgresLock {
        switch change {
        case .enumCasesAdded where swapsConstraints:
            // The check dropped and added NOT VALID in a short transaction, then validated.
            return PostgresLock(mode: .accessExclusive, work: .catalogOnly, outsideTransaction: true, readBeforehand: true)
        case .referenceChanged(let entity, let from, _) where swapsConstraints:
            // Dropping the foreign key locks its target as strongly; the new one is validated beforehand.
            var referenced: [String: Mode] = [:]
            if let target = from.referencedEntity, target != entity { referenced[target] = .accessExclusive }
            return PostgresLock(
                mode: .accessExclusive, work: .catalogOnly, referenced: referenced, outsideTransaction: true,
                readBeforehand: true)
        case .fieldAdded(let entity, let field) where filledInBatches:
            // ADD COLUMN and its trigger, the batches, then NOT NULL over a check validated beforehand.
            var lock = of(change)
            lock.work = field.isUnique || field.check != nil || field.referencedEntity != nil ? .scan : .catalogOnly
            lock.filledInBatches = true
            lock.readBeforehand = !field.isOptional
            lock.referenced = referencedEntities([field], besides: entity)
            return lock
        case .enumCasesRemoved where filledInBatches, .enumRawValueChanged where filledInBatches:
            // The check dropped, the rows remapped in batches, the new check validated beforehand.
            return PostgresLock(mode: .accessExclusive, work: .catalogOnly, readBeforehand: true, filledInBatches: true)
        case .typeChanged where filledInBatches:
            // Into a shadow column added with the backfill trigger and filled in batches, its
            // constraints proved on it beforehand; swapped for the old column in the transaction.
            return PostgresLock(mode: .accessExclusive, work: .catalogOnly, readBeforehand: preparedBeforehand, filledInBatches: true)
        case .jsonReshaped where filledInBatches:
            // Members added with defaults, set in batches with the backfill trigger; nothing left
            // for the transaction.
            return PostgresLock(mode: .rowExclusive, work: .catalogOnly, outsideTransaction: true, filledInBatches: true)
        case .becameRequired where filledInBatches:
            return PostgresLock(mode: .accessExclusive, work: .catalogOnly, readBeforehand: true, filledInBatches: true)
        case .becameRequired where preparedBeforehand:
            // A check proving NOT NULL, validated beforehand: SET NOT NULL does not scan.
            return PostgresLock(mode: .accessExclusive, work: .catalogOnly, readBeforehand: true)
        case .entityAdded(let entity):
            // CREATE TABLE: the new table is empty and unseen; its foreign keys lock their targets.
            return PostgresLock(
                mode: .accessExclusive, work: .catalogOnly,
                referenced: referencedEntities(entity.fields, besides: entity.name))
        case .entityRemoved(let entity):
            // DROP TABLE drops its foreign keys: their targets are locked as strongly.
            return PostgresLock(
                mode: .accessExclusive, work: .catalogOnly,
                referenced: referencedEntities(entity.fields, besides: entity.name, mode: .accessExclusive))
        case .fieldRemoved(let entity, let field):
            return PostgresLock(
                mode: .accessExclusive, work: .catalogOnly,
                referenced: referencedEntities([field], besides: entity, mode: .accessExclusive))
        case .entityRenamed, .fieldRenamed, .becameOptional, .defaultChanged, .uniqueRemoved, .indexRemoved:
            return PostgresLock(mode: .accessExclusive, work: .catalogOnly)
        case .fieldAdded(let entity, let field):
            // ADD COLUMN with a constant default is catalog only (PostgreSQL 11 and later), a
            // required one too (`NOT NULL DEFAULT` in one statement); a serial's nextval()
            // default is volatile and rewrites the table.
            var work = Work.catalogOnly
            if field.isAutoincrement { work = .rewrite }
            if field.transform != nil { work = max(work, .updatesRows) }
            if field.isUnique || field.check != nil || field.referencedEntity != nil {
                work = max(work, .scan)
            }
            if case .enumeration = field.type { work = max(work, .scan) }
            return PostgresLock(
                mode: .accessExclusive, work: work, referenced: referencedEntities([field], besides: entity))
        case .becameRequired(_, let field):
            // Missing values filled from the default (an UPDATE), then SET NOT NULL scans.
            return PostgresLock(
                mode: .accessExclusive, work: field.defaultValue != nil || field.transform != nil ? .updatesRows : .scan
            )
        case .uniqueAdded where preparedBeforehand:
            // ADD CONSTRAINT … UNIQUE USING INDEX over the index built concurrently beforehand.
            return PostgresLock(mode: .accessExclusive, work: .catalogOnly, readBeforehand: true)
        case .uniqueAdded, .primaryKeyChanged:
            return PostgresLock(mode: .accessExclusive, work: .scan)
        case .referenceChanged(let entity, _, let to) where preparedBeforehand,
            .typeChanged(let entity, _, let to) where preparedBeforehand:
            // ADD CONSTRAINT … NOT VALID, then VALIDATE CONSTRAINT, each in its own transaction.
            return PostgresLock(
                mode: .shareRowExclusive, work: .catalogOnly, referenced: referencedEntities([to], besides: entity),
                outsideTransaction: true, readBeforehand: true)
        case .referenceChanged(let entity, let from, let to), .typeChanged(let entity, let from, let to):
            var isReference = false
            if case .referenceChanged = change { isReference = true }
            let column =
                column
                ?? ColumnChange(
                    altersType: !isReference, dropsForeignKeyTo: from.referencedEntity,
                    addsForeignKey: isReference || to.referencedEntity != nil)
            // A type that changes under the same storage (an enum and its raw type, a key and a
            // reference to it) leaves the rows where they are: only checks, keys, UPDATEs.
            var mode = Mode.accessExclusive
            if !column.altersType, !column.dropsCheck, !column.addsCheck, column.dropsForeignKeyTo == nil {
                // Only a foreign key added (SHARE ROW EXCLUSIVE), or only an UPDATE.
                if column.addsForeignKey { mode = .shareRowExclusive } else if column.updatesValues { mode = .rowExclusive }
            }
            var work = Work.catalogOnly
            if column.altersType {
                work = .rewrite
            } else if column.updatesValues {
                work = .updatesRows
            } else if column.addsCheck || column.addsForeignKey {
                work = .scan
            }
            var referenced = column.addsForeignKey ? referencedEntities([to], besides: entity) : [:]
            if let dropped = column.dropsForeignKeyTo, dropped != entity { referenced[dropped] = .accessExclusive }
            return PostgresLock(mode: mode, work: work, referenced: referenced)
        case .searchChanged(_, _, let to):
            // The column is added (catalog only), then computed for every row by an UPDATE.
            return PostgresLock(mode: .accessExclusive, work: to == nil ? .catalogOnly : .updatesRows)
        case .indexAdded(_, let index):
            return index.isConcurrent || preparedBeforehand
                ? PostgresLock(mode: .shareUpdateExclusive, work: .scan, outsideTransaction: true)
                : PostgresLock(mode: .share, work: .scan)
        case .enumCasesAdded:
            // The check constraint of every column of the enum is replaced and validated.
            return PostgresLock(mode: .accessExclusive, work: .scan)
        case .enumCasesRemoved, .enumRawValueChanged:
            // Stored raw values are rewritten (an UPDATE), then the new check is validated.
            return PostgresLock(mode: .accessExclusive, work: .updatesRows)
        case .jsonReshaped(_, _, let edits):
            // Each stored object rewritten by an UPDATE (ROW EXCLUSIVE: readers and writers of
            // other rows go on); nothing to do when only members inside arrays are dropped.
            return PostgresLock(mode: .rowExclusive, work: edits.isEmpty ? .catalogOnly : .updatesRows)
        }
    }

    private static func referencedEntities(_ fields: [Field], besides own: String, mode: Mode = .shareRowExclusive) -> [String: Mode] {
        var locked: [String: Mode] = [:]
        for field in fields {
            if let target = field.referencedEntity, target != own { locked[target] = mode }
        }
        return locked
    }
}

extension MigrationPlan {
    /// The lock `step` takes on PostgreSQL, and the work done under it (``PostgresLock``), as this
    /// plan's migration renders it: lock-safe, some steps are prepared before the transaction.
    public func postgresLock(of step: MigrationStep) -> PostgresLock {
        postgresLock(of: step, tablesLockedFirst: PostgresMigrationRenderer(plan: self).tablesLockedFirst())
    }

    /// ``postgresLock(of:)`` of every step, in order (the migration rendered once for all).
    public func postgresLocks() -> [PostgresLock] {
        let lockedFirst = PostgresMigrationRenderer(plan: self).tablesLockedFirst()
        return steps.map { postgresLock(of: $0, tablesLockedFirst: lockedFirst) }
    }

    /// The lock of `step`; `tablesLockedFirst` are the tables (N-1 names) the version's
    /// transaction locks in ACCESS EXCLUSIVE mode before anything else, so every step on them in
    /// the transaction holds that lock.
    func postgresLock(of step: MigrationStep, tablesLockedFirst: Set<String>) -> PostgresLock {
        let renderer = PostgresMigrationRenderer(plan: self)
        var lock = PostgresLock.of(
            step.change, preparedBeforehand: renderer.runsBeforehand(step.change),
            column: postgresColumnChange(step.change), filledInBatches: renderer.fillsInBatches(step.change),
            swapsConstraints: renderer.swapsConstraints(step.change))
        if !lock.outsideTransaction, let table = tableAtStart(of: step.change), tablesLockedFirst.contains(table) {
            lock.mode = max(lock.mode, .accessExclusive)
        }
        return lock
    }

    /// The N-1 name of the table a change concerns, when it concerns one that exists there.
    private func tableAtStart(of change: SchemaChange) -> String? {
        if case .entityRemoved(let entity) = change { return entity.table }
        return change.entityName.flatMap(to.entity(named:)).flatMap(previous(of:))?.table
    }

    /// What the PostgreSQL migration does to the column of a type or reference change (as
    /// `PostgresMigrationRenderer.columnStatements` and `constraintsToAdd` render it).
    private func postgresColumnChange(_ change: SchemaChange) -> PostgresLock.ColumnChange? {
        let (name, old, new): (String, Field, Field)
        switch change {
        case .typeChanged(let entity, let from, let to), .referenceChanged(let entity, let from, let to): (name, old, new) = (entity, from, to)
        default: return nil
        }
        guard let entity = to.entity(named: name) else { return nil }
        let renderer = DDLRenderer(dialect: .postgres)
        let altersType = from.storedShape(of: old) != to.storedShape(of: new)
        let checkBefore = renderer.allowedValues(of: old, in: from)
        let checkAfter = renderer.allowedValues(of: new, in: to)
        // The target of N-1's foreign key, by its name in N when it is kept.
        let oldTarget = old.referencedEntity.map { target in
            to.entities.first { previous(of: $0)?.name == target }?.name ?? target
        }
        let replacesKey = oldTarget != nil && (oldTarget != new.referencedEntity || old.onDelete != new.onDelete || altersType)
        return PostgresLock.ColumnChange(
            altersType: altersType,
            updatesValues: !altersType && MigrationValues(plan: self, renderer: renderer).changesValues(source(of: new, in: entity)),
            dropsCheck: checkBefore != nil && checkBefore != checkAfter, addsCheck: checkAfter != nil && checkAfter != checkBefore,
            dropsForeignKeyTo: replacesKey || (oldTarget != nil && new.referencedEntity == nil) ? oldTarget : nil,
            addsForeignKey: new.referencedEntity != nil && (oldTarget == nil || replacesKey))
    }
}
