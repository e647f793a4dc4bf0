import StrataSQLText

/// PostgreSQL statements for a migration: every change as `ALTER TABLE` on the existing tables
/// (`USING` for type changes), in an order where each statement sees the names it needs:
/// values are computed while tables and columns have their old names, renames come after,
/// then new tables, constraints and indexes under the names of version N.
///
/// Lock-safe (the default): what would scan or build over an existing table while holding a lock
/// that blocks its writers runs before the version's transaction instead, when the columns it
/// concerns are already at N-1 as they are at N (``isSettled(_:in:)``): indexes are built
/// `CONCURRENTLY`, a unique constraint is added over a unique index built so, and foreign keys
/// and checks are added `NOT VALID` then validated, each in a transaction of its own. A required
/// field with a default is added in one `ADD COLUMN … NOT NULL DEFAULT`, which PostgreSQL 11 and
/// later do without touching the rows. Columns are filled in batches outside the transaction
/// (``backfills(of:)``), a type change through a shadow column swapped in the transaction
/// (``typeSwaps(of:)``). Strata 0.6.0 and earlier rendered every statement in the
/// transaction (`lockSafe: false`): the checksums of that rendering stay accepted for the versions
/// databases applied then.
struct PostgresMigrationRenderer {
    let plan: MigrationPlan
    /// False for the rendering of Strata 0.6.0 and earlier: every statement in the transaction.
    var lockSafe = true
    let renderer = DDLRenderer(dialect: .postgres)
    var values: MigrationValues { MigrationValues(plan: plan, renderer: renderer) }
    /// The expand of a rolling version (``RollingExpand``; lock-safe rendering only), else nil.
    var rolling: RollingExpand? { lockSafe ? RollingExpand(plan) : nil }

    /// The statements of a rolling version's contract (``RollingExpand``), empty for another:
    /// its own, then per table the type changes swapped in (``swapStatements(_:of:)``).
    func contractStatements() -> [SQLStatement] {
        guard let rolling else { return [] }
        let stable = ContinuedTable.stableEnums(of: plan)
        let filled = plan.to.entities.compactMap { entity in
            plan.previous(of: entity).map { ContinuedTable(entity, old: $0, stableEnums: stable) }
        }.filter { !backfills(of: $0).isEmpty }
        var statements = rolling.contractStatements(renderer: renderer, filledTables: Set(filled.map(\.old.table)))
        for table in filled {
            let shadows = backfills(of: table).compactMap { backfill in
                backfill.shadow.map { TypeSwap(field: backfill.field, shadow: $0, expression: backfill.expression) }
            }
            guard !shadows.isEmpty, let swaps = typeSwaps(of: table) else { continue }
            statements += shadows.flatMap { swapStatements($0, of: table) } + swappedIndexRenames(of: table, swaps)
        }
        return statements
    }

    func statements() -> [SQLStatement] {
        let to = plan.to
        var statements = values.custom(to.migration.before, "before")
        let stable = ContinuedTable.stableEnums(of: plan)
        let tables = to.entities.compactMap { entity in
            plan.previous(of: entity).map { ContinuedTable(entity, old: $0, stableEnums: stable) }
        }

        // Full-text search columns (and their triggers) that change go first: a column they are
        // computed from may go.
        // In a rolling version, one over a renamed column too: the contract drops the old column.
        let searches = plan.recreatedSearches { entity, old in rolling != nil && plan.renamesSearchedColumn(entity, old: old) }
        for (_, old) in searches where old.search != nil {
            statements += renderer.rules.dropSearch(of: old)
        }
        // 1. Indexes and constraints that go away or will be recreated, under their old names.
        for table in tables {
            let (entity, old) = (table.entity, table.old)
            for change in plan.changes(of: entity) {
                if case .indexRemoved(_, let index) = change, !keptUntilContract(index, of: old) {
                    statements.append(renderer.dropIndex(named: index.name))
                }
                if case .primaryKeyChanged = change {
                    statements.append(renderer.dropConstraint(SQLConstraintName.primaryKey(table: old.table), onTable: old.table))
                }
            }
            for (field, previous) in table.fields {
                guard let previous else { continue }
                for name in constraintsToDrop(field, previous: previous, entity: entity, old: old) {
                    statements.append(renderer.dropConstraint(name, onTable: old.table))
                }
            }
        }
        // 2. Columns: added, converted, filled, relaxed, dropped, on the old names.
        var leading: [SQLStatement] = []
        for table in tables {
            statements += columnStatements(table, leading: &leading)
        }
        let removed = values.removedEntitiesInDropOrder
        for (position, entity) in removed.enumerated() {
            // In a cycle of references: the foreign keys to tables dropped before it go first.
            for field in entity.fields {
                guard let target = field.referencedEntity, target != entity.name,
                    removed[..<position].contains(where: { $0.name == target })
                else { continue }
                statements.append(
                    renderer.dropConstraint(SQLConstraintName.foreignKey(table: entity.table, column: field.column), onTable: entity.table))
            }
        }
        for entity in removed { statements.append(renderer.dropTable(named: entity.table)) }
        // 3. Renames, with the constraints and sequences named after them.
        for table in tables {
            statements += renames(table)
        }
        // 4. New tables (references between them in a cycle added afterwards).
        let added = Set(values.addedEntities.map(\.name))
        let created = added.isEmpty ? [] : SQLSchemaRenderer.createStatements(for: to, dialect: .postgres, only: added)
        statements += created.filter { if case .addForeignKey = $0.kind { false } else { true } }
        // 5. Constraints and indexes under the names of version N; what can be is prepared
        // before the transaction (`leading`).
        for table in tables {
            statements += constraintsToAdd(table, leading: &leading)
        }
        statements += created.filter { if case .addForeignKey = $0.kind { true } else { false } }
        statements += renamedConstraints().transaction
        // Indexes marked `concurrently` are built first, outside the transaction (the planner
        // checked that their table and columns exist at N-1); lock-safe, so are the others that can be.
        for table in tables {
            for change in plan.changes(of: table.entity) {
                guard case .indexAdded(_, let index) = change, !isSwapped(index, of: table) else { continue }
                // Over a rolling version's renamed column: built once it is filled (renamedConstraints).
                if rolling?.rebuiltIndexes(of: table.entity).contains(where: { $0.index.name == index.name }) == true { continue }
                if index.isConcurrent || canBuildBeforehand(index, of: table) {
                    leading.append(renderer.createIndexConcurrently(index, of: table.entity))
                } else {
                    statements.append(renderer.createIndex(index, of: table.entity))
                }
            }
        }
        for (entity, _) in searches {
            if let search = entity.search { statements += renderer.rules.createSearch(search, of: entity, fill: true) }
        }
        // A searched column renamed: the trigger function names it.
        for table in tables where !searches.contains(where: { $0.entity.name == table.entity.name }) {
            if let search = table.entity.search, table.old.search != nil, plan.renamesSearchedColumn(table.entity, old: table.old) {
                statements.append(PostgresRules().searchFunction(search, of: table.entity))
            }
        }
        let transaction = statements + values.custom(to.migration.after, "after")
        let backfills = tables.flatMap(backfills(of:))
        let swapped = tables.flatMap(constraintSwaps(of:))
        guard !backfills.isEmpty || !swapped.isEmpty else { return leading + lockedFirst(transaction) + transaction }
        // Columns filled in batches: added with their trigger in a first transaction, filled,
        // proved NOT NULL by a check validated without blocking writes, then the version's.
        var expand = [
            renderer.beginTransaction([
                swapped.isEmpty
                    ? "The columns to fill, with the trigger that fills the rows written meanwhile."
                    : "Constraints replaced by ones that accept every stored row, validated next without blocking writes\(backfills.isEmpty ? "." : ";")",
            ] + (backfills.isEmpty || swapped.isEmpty ? [] : ["the columns to fill, with the trigger that fills the rows written meanwhile."]))
        ]
        expand += swapped.flatMap { [$0.drop, $0.add] }
        for table in tables where !backfills.isEmpty {
            let filled = backfills.filter { $0.table.entity.name == table.entity.name }
            guard !filled.isEmpty else { continue }
            let name = SQLConstraintName.backfillTrigger(table: table.old.table)
            for backfill in filled where backfill.replacesCheck {
                let name = SQLConstraintName.check(table: table.old.table, column: backfill.column)
                var drop = renderer.dropConstraint(name, onTable: table.old.table)
                if let previous = SchemaDiff.previous(of: backfill.field, in: table.old),
                    let oldCheck = renderer.addCheck(previous, of: table.old, in: plan.from)
                {
                    // NOT VALID: rows remapped before a failure no longer pass the old check.
                    drop.comments = renderer.dialect.comment("undo: " + renderer.notValid(oldCheck, name: name, table: table.old.table).sql)
                }
                expand.append(drop)
            }
            for backfill in filled where backfill.isNew || backfill.shadow != nil {
                if let shadow = backfill.shadow {
                    // Bare: the batches and the trigger fill it; its default is set once it is renamed.
                    expand.append(renderer.addBareColumn(shadow, of: table.entity, in: plan.to, onTable: table.old.table, withDefault: false))
                    continue
                }
                // A rolling version's new columns get their defaults at the contract: until then
                // the trigger tells the rows code of N-1 inserts by their NULL.
                let deferred = backfill.syncedWith != nil || rolling?.deferredDefault(backfill.field, in: table.entity) == true
                expand.append(
                    renderer.addBareColumn(
                        backfill.field, of: table.entity, in: plan.to, onTable: table.old.table, withDefault: !deferred))
            }
            for backfill in filled {
                // The old column of a renamed one loses its default, so that a row code of N
                // inserts holds NULL there until the trigger copies the new column's value.
                guard let old = backfill.syncedWith, let previous = SchemaDiff.previous(of: backfill.field, in: table.old),
                    let value = renderer.defaultValue(of: previous, in: plan.from)
                else { continue }
                var drop = renderer.setDefault(table.old.table, old, to: nil)
                drop.comments = renderer.dialect.comment("undo: " + renderer.setDefault(table.old.table, old, to: value).sql)
                expand.append(drop)
            }
            let fills = filled.filter { $0.syncedWith == nil }
            expand.append(
                renderer.createBackfillFunction(
                    name, table: table.old.table,
                    assignments: fills.map { ($0.column, $0.expression, $0.condition) },
                    syncs: filled.compactMap { backfill in backfill.syncedWith.map { (backfill.column, $0) } },
                    keptUntilContract: rolling != nil))
            expand.append(renderer.createBackfillTrigger(name, table: table.old.table))
        }
        expand.append(renderer.commitTransaction())
        var fill: [SQLStatement] = []
        var validate: [SQLStatement] = []
        for backfill in backfills {
            let table = backfill.table.old.table
            fill.append(renderer.backfill(table, set: backfill.column, to: backfill.expression, where: backfill.condition))
            if backfill.replacesCheck, let check = renderer.addCheck(backfill.field, of: backfill.table.entity, in: plan.to) {
                let name = SQLConstraintName.check(table: table, column: backfill.column)
                validate.append(renderer.notValid(check, name: name, table: table))
                validate.append(renderer.validateConstraint(name, onTable: table))
            }
            if backfill.required {
                let check = SQLConstraintName.notNull(table: table, column: backfill.column)
                validate.append(renderer.addNotNullCheck(check, table: table, column: backfill.column))
                validate.append(renderer.validateConstraint(check, onTable: table))
            }
        }
        for table in tables {
            let shadows = backfills.filter { $0.table.entity.name == table.entity.name && $0.shadow != nil }
            guard !shadows.isEmpty, let swaps = typeSwaps(of: table) else { continue }
            validate += swapProofs(of: table, swaps)
        }
        let version =
            [renderer.beginTransaction(["The version's transaction, recorded in the ledger with it."])]
            + lockedFirst(transaction) + transaction + [renderer.commitTransaction()]
        return leading + expand + swapped.map(\.validate) + fill + validate + renamedConstraints().afterFill + version
    }

    /// A constraint of a settled column replaced by one that accepts every row the old one did
    /// (an enum's check when cases are only added, a foreign key whose `onDelete` changes): dropped
    /// and added `NOT VALID` in one short transaction before the version's, then validated without
    /// blocking writes. Each statement names, in a `-- undo:` comment, what puts the old one back.
    struct ConstraintSwap {
        let drop: SQLStatement
        let add: SQLStatement
        let validate: SQLStatement
    }

    /// Which constraints of `field` (continuing `previous`) are swapped (``ConstraintSwap``).
    private func swaps(_ field: Field, previous: Field, entity: Entity, old: Entity) -> (check: Bool, foreignKey: Bool) {
        guard lockSafe, let table = continuedTable(entity), isSettled(field, in: table) else { return (false, false) }
        var check = false
        if let before = renderer.allowedValues(of: previous, in: plan.from), let after = renderer.allowedValues(of: field, in: plan.to),
            before != after, previous.check == nil, field.check == nil
        {
            check = Set(before).isSubset(of: Set(after))
        }
        var foreignKey = false
        if let target = field.referencedEntity, let targetEntity = plan.to.entity(named: target),
            plan.previous(of: targetEntity)?.name == previous.referencedEntity, field.onDelete != previous.onDelete,
            referencesSettledTable(field)
        {
            foreignKey = true
        }
        return (check, foreignKey)
    }

    private func continuedTable(_ entity: Entity) -> ContinuedTable? {
        guard let old = plan.previous(of: entity) else { return nil }
        return ContinuedTable(entity, old: old, stableEnums: ContinuedTable.stableEnums(of: plan))
    }

    /// The constraint swaps of `continued`, in field order.
    func constraintSwaps(of continued: ContinuedTable) -> [ConstraintSwap] {
        var swaps: [ConstraintSwap] = []
        let (entity, old) = (continued.entity, continued.old)
        for (field, previous) in continued.fields {
            guard let previous else { continue }
            let swapped = self.swaps(field, previous: previous, entity: entity, old: old)
            if swapped.check, let oldCheck = renderer.addCheck(previous, of: old, in: plan.from),
                let newCheck = renderer.addCheck(field, of: entity, in: plan.to)
            {
                swaps.append(swap(SQLConstraintName.check(table: entity.table, column: field.column), on: entity.table, old: oldCheck, new: newCheck))
            }
            if swapped.foreignKey, let oldKey = renderer.addForeignKey(previous, of: old, in: plan.from),
                let newKey = renderer.addForeignKey(field, of: entity, in: plan.to)
            {
                swaps.append(swap(SQLConstraintName.foreignKey(table: entity.table, column: field.column), on: entity.table, old: oldKey, new: newKey))
            }
        }
        return swaps
    }

    private func swap(_ name: String, on table: String, old: SQLStatement, new: SQLStatement) -> ConstraintSwap {
        var drop = renderer.dropConstraint(name, onTable: table)
        drop.comments = renderer.dialect.comment("undo: " + old.sql)
        var add = renderer.notValid(new, name: name, table: table)
        add.comments = renderer.dialect.comment("undo: " + renderer.dropConstraint(name, onTable: table).sql + "")
        return ConstraintSwap(drop: drop, add: add, validate: renderer.validateConstraint(name, onTable: table))
    }

    /// True when the lock-safe rendering replaces the constraints of `change` before the version's
    /// transaction (``ConstraintSwap``): enum cases added, a reference's `onDelete` changed.
    func swapsConstraints(_ change: SchemaChange) -> Bool {
        switch change {
        case .enumCasesAdded(let name, _):
            var columns = 0
            for entity in plan.to.entities {
                for field in entity.fields where field.type == .enumeration(name) {
                    guard let old = plan.previous(of: entity), let previous = SchemaDiff.previous(of: field, in: old),
                        swaps(field, previous: previous, entity: entity, old: old).check
                    else { return false }
                    columns += 1
                }
            }
            return columns > 0
        case .referenceChanged(let name, let from, let to):
            guard let entity = plan.to.entity(named: name), let old = plan.previous(of: entity) else { return false }
            return swaps(to, previous: from, entity: entity, old: old).foreignKey
        default:
            return false
        }
    }

    /// True when `index` (of `old`, at N-1) covers a rolling version's renamed column or a removed
    /// one it keeps: code of N-1 still queries it, and the contract drops it with the column.
    private func keptUntilContract(_ index: Index, of old: Entity) -> Bool {
        guard let rolling, let declared = old.indexes.first(where: { $0.name == index.name }),
            let entity = plan.to.entities.first(where: { plan.previous(of: $0)?.name == old.name })
        else { return false }
        let kept = Set(rolling.renames.filter { $0.entity.name == entity.name }.map(\.from.name))
            .union(rolling.keptColumns(of: entity).map(\.name))
        return !kept.isDisjoint(with: declared.fields)
    }

    /// The constraints of a rolling version's renamed columns (``RollingExpand/renames``), under
    /// the new columns' names: checks and foreign keys added `NOT VALID` and validated, unique
    /// indexes built concurrently, once the columns are filled (`afterFill`); the unique
    /// constraints over those indexes in the version's transaction.
    private func renamedConstraints() -> (afterFill: [SQLStatement], transaction: [SQLStatement]) {
        var afterFill: [SQLStatement] = []
        var transaction: [SQLStatement] = []
        for rename in rolling?.renames ?? [] {
            let (entity, field) = (rename.entity, rename.to)
            if let check = renderer.addCheck(field, of: entity, in: plan.to) {
                let name = SQLConstraintName.check(table: entity.table, column: field.column)
                afterFill += [renderer.notValid(check, name: name, table: entity.table), renderer.validateConstraint(name, onTable: entity.table)]
            }
            if field.isUnique {
                afterFill.append(renderer.createIndexConcurrently(renderer.uniqueIndex(field, of: entity), of: entity))
                transaction.append(renderer.addUniqueUsingIndex(field, of: entity))
            }
            if let foreignKey = renderer.addForeignKey(field, of: entity, in: plan.to) {
                let name = SQLConstraintName.foreignKey(table: entity.table, column: field.column)
                afterFill += [renderer.notValid(foreignKey, name: name, table: entity.table), renderer.validateConstraint(name, onTable: entity.table)]
            }
        }
        for entity in plan.to.entities {
            for rebuilt in rolling?.rebuiltIndexes(of: entity) ?? [] {
                var index = rebuilt.index
                index.name = rebuilt.builtName
                afterFill.append(renderer.createIndexConcurrently(index, of: entity))
            }
        }
        return (afterFill, transaction)
    }

    /// A column of a continued table that the lock-safe rendering fills in batches, outside the
    /// version's transaction (``backfills(of:)``).
    struct Backfill {
        let table: ContinuedTable
        let field: Field
        /// True for a column new in the version (its values computed by its transform).
        let isNew: Bool
        /// The column, under its name in N-1.
        let column: String
        /// The value of a row, over its N-1 columns.
        let expression: String
        /// The rows to write, over N-1 columns (NULLs to fill, raw values to remap), or nil for all.
        let condition: String?
        /// True when the column's check is replaced around the batches (raw values remapped):
        /// dropped before them, added `NOT VALID` and validated after them.
        var replacesCheck = false
        /// For a type change applied through a shadow column (``TypeSwap``): the shadow, which
        /// ``column`` names; the column's value is ``expression``.
        var shadow: Field?
        /// For a rolling version's renamed column (new, `column`): the old column, which the
        /// trigger keeps equal to it both ways until the contract drops it.
        var syncedWith: String?
        /// True for a JSON column whose stored objects only gain members with defaults: each
        /// edit may run twice on a row (the batches, then the trigger) and code of N-1 reads
        /// the result.
        var reshapes = false
        /// True when the column becomes `NOT NULL` (a new required field, NULLs filled).
        var required: Bool { !field.isOptional && !replacesCheck && !reshapes }
    }

    /// The columns of `continued` filled in batches: a new field computed by its transform (one
    /// that reads only its own row), and
    /// an optional field made required whose NULLs are filled, on a table that keeps its key and
    /// where nothing else of the version changes the values or types its expressions may read
    /// (no `before` SQL, no type change, no other value rewritten in place).
    func backfills(of continued: ContinuedTable) -> [Backfill] {
        guard lockSafe, plan.to.migration.before == nil,
            !plan.changes(of: continued.entity).contains(where: { if case .primaryKeyChanged = $0 { true } else { false } })
        else { return [] }
        var candidates: [Backfill] = []
        let swaps = typeSwaps(of: continued)
        for (field, previous) in continued.fields {
            guard let previous else {
                if let transform = field.transform, !field.isAutoincrement, !readsOtherRows(transform) {
                    // Rolling: the trigger stays until the contract and computes only the rows
                    // that come without a value (those code of N-1 inserts).
                    candidates.append(
                        Backfill(
                            table: continued, field: field, isNew: true, column: field.column,
                            expression: values.expression(for: field, in: continued.entity),
                            condition: rolling == nil ? nil : renderer.isNull(field.column)))
                }
                continue
            }
            if rolling?.rename(of: field, in: continued.entity) != nil {
                var backfill = Backfill(
                    table: continued, field: field, isNew: true, column: field.column,
                    expression: renderer.column(previous.column), condition: renderer.isNull(field.column))
                backfill.syncedWith = previous.column
                candidates.append(backfill)
                continue
            }
            let source = plan.source(of: field, in: continued.entity)
            if plan.from.storedShape(of: previous) != plan.to.storedShape(of: field) {
                // Into a shadow column, swapped in the version's transaction; else ALTER TYPE there.
                guard let swap = swaps?.first(where: { $0.field.name == field.name }) else { return [] }
                var backfill = Backfill(
                    table: continued, field: field, isNew: false, column: swap.shadow.column, expression: swap.expression,
                    condition: nil)
                backfill.shadow = swap.shadow
                candidates.append(backfill)
                continue
            }
            guard values.changesValues(source) else { continue }
            if let remapped = remapCondition(field, previous: previous, source: source) {
                var backfill = Backfill(
                    table: continued, field: field, isNew: false, column: previous.column,
                    expression: values.expression(for: field, from: source), condition: remapped)
                backfill.replacesCheck = true
                candidates.append(backfill)
                continue
            }
            // Members added with defaults to the stored JSON objects: compatible with code of
            // N-1 and the same when run twice; renames, removals and transforms are made in the
            // version's transaction, so that code of N-1 never reads a reshaped object.
            if !source.reshape.isEmpty, source.reshape.allSatisfy({ if case .fill = $0 { true } else { false } }),
                source.fill == nil, source.remap.isEmpty, field.transform == nil, case .keep = source.conversion
            {
                var backfill = Backfill(
                    table: continued, field: field, isNew: false, column: previous.column,
                    expression: values.expression(for: field, from: source), condition: nil)
                backfill.reshapes = true
                candidates.append(backfill)
                continue
            }
            // NULLs filled, raw values remapped: the in-place changes that may run twice on a row
            // and mean the same.
            guard previous.isOptional, !field.isOptional, source.fill != nil, source.remap.isEmpty, field.transform == nil
            else { return [] }
            candidates.append(
                Backfill(
                    table: continued, field: field, isNew: false, column: previous.column,
                    expression: values.expression(for: field, from: source), condition: renderer.isNull(previous.column)))
        }
        // A computed column that reads a swapped one would compute from its old type: all in the
        // version's transaction then, as before.
        if let swaps, candidates.contains(where: { $0.isNew && Self.reads(swaps, in: $0.expression) }) {
            guard !candidates.contains(where: { $0.shadow != nil }) else { return [] }
        }
        // Computed columns first: a failing transform is undone with nothing filled in place yet.
        let computed = candidates.filter { $0.isNew || $0.shadow != nil }
        return computed + candidates.filter { !$0.isNew && $0.shadow == nil }
    }

    /// `"column" IN (old raw values)` when `field` only has enum raw values remapped (cases
    /// removed, raw values changed) and no new value is also an old one remapped (so that a row
    /// remapped twice holds the same value), else nil.
    private func remapCondition(_ field: Field, previous: Field, source: ValueSource) -> String? {
        guard !source.remap.isEmpty, source.fill == nil, field.transform == nil, field.isOptional == previous.isOptional,
            case .keep = source.conversion, previous.check == nil, field.check == nil
        else { return nil }
        let encoding = plan.to.columnEncoding(of: field)
        let from = source.remap.compactMap { renderer.dialect.storedValue(of: $0.from, as: encoding) }
        let to = source.remap.compactMap { renderer.dialect.storedValue(of: $0.to, as: encoding) }
        guard from.count == source.remap.count, to.count == source.remap.count, Set(from).isDisjoint(with: Set(to))
        else { return nil }
        return "\(renderer.column(previous.column)) IN (\(from.map(renderer.literal).joined(separator: ", ")))"
    }

    /// True when the author's SQL may read other rows than the one it computes a value of (it
    /// has a subquery): a trigger on the row's table would not see those rows change, so such a
    /// value is computed in the version's transaction instead.
    private func readsOtherRows(_ fragment: DialectSQL) -> Bool {
        guard let sql = values.sql(fragment), let tokens = try? SQLLexer(dialect: .postgres).significantTokens(sql)
        else { return true }
        return tokens.contains { $0.isKeyword("SELECT") }
    }

    /// True when the raw values of `field` of `entity` are remapped in batches (its check
    /// replaced around them).
    private func remapsInBatches(_ field: Field, of entity: Entity) -> Bool {
        guard let table = continuedTable(entity) else { return false }
        return backfills(of: table).contains { $0.field.name == field.name && $0.replacesCheck }
    }


    /// The statement that takes, first, the locks a transaction needs on tables of N-1 that it
    /// alters after it has written their rows (an `UPDATE`, or any table after the author's SQL),
    /// or none. Otherwise an application's write waiting for one of those rows would hold the
    /// lock the `ALTER` waits for: a deadlock, which the lock timeout ends before PostgreSQL sees
    /// it, on every retry.
    private func lockedFirst(_ transaction: [SQLStatement]) -> [SQLStatement] {
        guard lockSafe,
            let firstWrite = transaction.firstIndex(where: {
                if case .update = $0.kind { return true }
                if case .custom = $0.kind { return true }
                return false
            })
        else { return [] }
        // The tables written before they are altered: those an `UPDATE` names, or every one when
        // the author's SQL writes (which tables it writes is not known).
        var written: Set<String> = []
        var authorWrites = false
        var tables: [String] = []
        let existing = Set(plan.from.entities.map(\.table))
        for statement in transaction[firstWrite...] {
            switch statement.kind {
            case .update(let table, _): written.insert(table)
            case .custom: authorWrites = true
            default:
                guard let table = Self.alteredTable(statement.kind), existing.contains(table),
                    authorWrites || written.contains(table), !tables.contains(table)
                else { continue }
                tables.append(table)
            }
        }
        guard !tables.isEmpty else { return [] }
        return [
            renderer.lockTables(
                tables,
                because: [
                    "Taken first: this version writes rows before it alters their table, and an application's",
                    "write waiting for one of those rows would otherwise hold the lock the ALTER needs.",
                ])
        ]
    }

    /// The tables the version's transaction locks before anything else (``lockedFirst(_:)``).
    func tablesLockedFirst() -> Set<String> {
        var tables: Set<String> = []
        for statement in statements() {
            if case .lockTables(let locked) = statement.kind { tables.formUnion(locked) }
        }
        return tables
    }

    /// The table of N-1 a statement takes a lock stronger than an `UPDATE`'s on, when it names one.
    private static func alteredTable(_ kind: SQLStatement.Kind) -> String? {
        switch kind {
        case .alterColumn(let table, _), .addColumn(let table, _), .dropColumn(let table, _),
            .renameColumn(let table, _, _), .renameConstraint(let table, _, _), .addConstraint(_, let table),
            .dropConstraint(_, let table), .addForeignKey(_, let table), .createIndex(_, let table),
            .dropTable(let table), .renameTable(let table, _), .addConstraintNotValid(_, let table),
            .validateConstraint(_, let table), .createTrigger(_, let table), .dropTrigger(_, let table):
            return table
        default:
            return nil
        }
    }

    /// True when the lock-safe rendering runs the statements of `change` before the version's
    /// transaction (``PostgresLock`` reports them so).
    func runsBeforehand(_ change: SchemaChange) -> Bool {
        func continued(_ name: String) -> ContinuedTable? {
            guard let entity = plan.to.entity(named: name), let old = plan.previous(of: entity) else { return nil }
            return ContinuedTable(entity, old: old, stableEnums: ContinuedTable.stableEnums(of: plan))
        }
        switch change {
        case .becameRequired(let name, let field):
            // NOT NULL proved by a check validated beforehand.
            guard let table = continued(name), SchemaDiff.previous(of: field, in: table.old) != nil else { return false }
            return isSettled(field, in: table)
        case .indexAdded(let name, let index):
            // Or over a shadow column, built concurrently before the version's transaction too.
            return continued(name).map { index.isConcurrent || canBuildBeforehand(index, of: $0) || isSwapped(index, of: $0) } ?? false
        case .uniqueAdded(let name, let field):
            return continued(name).map { isSettled(field, in: $0) } ?? false
        case .typeChanged(let name, _, let to) where continued(name).map({ swapsType(of: to, in: $0) }) ?? false:
            // Into a shadow column: its constraints proved on it beforehand, when it has some.
            guard let table = continued(name) else { return false }
            return swapProvesBeforehand(to, in: table)
        case .referenceChanged(let name, let from, let to), .typeChanged(let name, let from, let to):
            // A type change that prepares something beforehand is a key becoming a reference.
            guard to.referencedEntity != nil, let table = continued(name) else { return false }
            return isSettled(to, in: table) && from.referencedEntity == nil && referencesSettledTable(to)
        default:
            return false
        }
    }

    /// True when the lock-safe rendering fills the column of `change` in batches before the
    /// version's transaction (``backfills(of:)``).
    func fillsInBatches(_ change: SchemaChange) -> Bool {
        let (name, field): (String, Field)
        switch change {
        case .fieldAdded(let entity, let added): (name, field) = (entity, added)
        case .becameRequired(let entity, let required): (name, field) = (entity, required)
        case .typeChanged(let entity, _, let changed): (name, field) = (entity, changed)
        case .fieldRenamed(let entity, _, let renamed) where rolling != nil: (name, field) = (entity, renamed)
        case .jsonReshaped(let entity, let reshaped, _): (name, field) = (entity, reshaped)
        case .enumCasesRemoved(let enumName, _), .enumRawValueChanged(let enumName, _, _, _):
            // Every column of the enum on a kept table remapped in batches (or swapped for a
            // shadow column filled so, when the raw type changes).
            var columns = 0
            for entity in plan.to.entities {
                for field in entity.fields where field.type == .enumeration(enumName) {
                    guard let table = continuedTable(entity),
                        remapsInBatches(field, of: entity) || swapsType(of: field, in: table)
                    else { return false }
                    columns += 1
                }
            }
            return columns > 0
        default: return false
        }
        guard let entity = plan.to.entity(named: name), let old = plan.previous(of: entity) else { return false }
        let table = ContinuedTable(entity, old: old, stableEnums: ContinuedTable.stableEnums(of: plan))
        return backfills(of: table).contains { $0.field.name == field.name }
    }

    /// True when statements on `field` can run before the version's transaction: lock-safe
    /// rendering, no `before` SQL of the author's (it may change the rows), and the column at N-1
    /// as it is at N: same table and column name, same storage type, values the version keeps.
    private func isSettled(_ field: Field, in table: ContinuedTable) -> Bool {
        guard lockSafe, plan.to.migration.before == nil, table.old.table == table.entity.table,
            field.transform == nil, let previous = SchemaDiff.previous(of: field, in: table.old)
        else { return false }
        return previous.column == field.column && plan.from.storedShape(of: previous) == plan.to.storedShape(of: field)
            && !values.changesValues(plan.source(of: field, in: table.entity))
    }

    /// True when a full index added to a continued table covers only settled columns.
    private func canBuildBeforehand(_ index: Index, of table: ContinuedTable) -> Bool {
        guard index.condition == nil else { return false }
        return index.fields.allSatisfy { name in table.entity.field(named: name).map { isSettled($0, in: table) } ?? false }
    }

    /// True when the table `field` references is at N-1 under the same name, with its key settled.
    private func referencesSettledTable(_ field: Field) -> Bool {
        guard let target = field.referencedEntity.flatMap(plan.to.entity(named:)),
            let old = plan.previous(of: target), old.table == target.table
        else { return false }
        let continued = ContinuedTable(target, old: old, stableEnums: [])
        return target.primaryKeyFields.allSatisfy { isSettled($0, in: continued) }
    }

    /// The old constraints of a continued field that do not survive as they are.
    private func constraintsToDrop(_ field: Field, previous: Field, entity: Entity, old: Entity) -> [String] {
        // A rolling version's renamed column keeps its constraints until the contract drops it.
        if rolling?.rename(of: field, in: entity) != nil { return [] }
        var names: [String] = []
        let checkBefore = renderer.allowedValues(of: previous, in: plan.from)
        let checkAfter = renderer.allowedValues(of: field, in: plan.to)
        let swapped = swaps(field, previous: previous, entity: entity, old: old)
        if checkBefore != nil && checkBefore != checkAfter && !swapped.check && !remapsInBatches(field, of: entity) {
            names.append(SQLConstraintName.check(table: old.table, column: previous.column))
        }
        if previous.isUnique && !field.isUnique {
            names.append(SQLConstraintName.unique(table: old.table, column: previous.column))
        }
        if previous.referencedEntity != nil && referenceChanges(field, previous: previous) && !swapped.foreignKey {
            names.append(SQLConstraintName.foreignKey(table: old.table, column: previous.column))
        }
        return names
    }

    /// True when a reference's constraint must be replaced (another target, action or key type).
    private func referenceChanges(_ field: Field, previous: Field) -> Bool {
        guard let target = field.referencedEntity, let targetEntity = plan.to.entity(named: target) else { return true }
        return plan.previous(of: targetEntity)?.name != previous.referencedEntity || field.onDelete != previous.onDelete
            || plan.from.storedShape(of: previous) != plan.to.storedShape(of: field)
    }

    /// The column statements of `continued`, in the transaction; a `NOT NULL` over a settled
    /// column is proved beforehand (`leading`) by a check validated without blocking writes.
    private func columnStatements(_ continued: ContinuedTable, leading: inout [SQLStatement]) -> [SQLStatement] {
        var statements: [SQLStatement] = []
        let (entity, old) = (continued.entity, continued.old)
        let table = old.table
        let backfills = backfills(of: continued)
        let backfilled = Set(backfills.map(\.field.name))
        var triggerDropped = false
        for (field, previous) in continued.fields {
            if let backfill = backfills.first(where: { $0.field.name == field.name }), let shadow = backfill.shadow {
                // A rolling version's shadow is swapped in by the contract.
                if rolling != nil { continue }
                // Filled into its shadow column before this transaction: swapped for it here.
                let swap = TypeSwap(field: field, shadow: shadow, expression: backfill.expression)
                var swapped = swapStatements(swap, of: continued)
                if !triggerDropped {
                    // Right after the first old column is dropped (under ACCESS EXCLUSIVE): the
                    // trigger writes the shadow columns, which are renamed next.
                    let trigger = SQLConstraintName.backfillTrigger(table: table)
                    swapped.insert(contentsOf: [renderer.dropTrigger(trigger, onTable: table), renderer.dropFunction(trigger)], at: 1)
                    triggerDropped = true
                }
                statements += swapped
                continue
            }
            if let backfill = backfills.first(where: { $0.field.name == field.name }) {
                // Added and filled before this transaction; proved NOT NULL by a validated check.
                let column = backfill.column
                if backfill.required {
                    statements.append(renderer.setNotNull(table, column))
                    statements.append(renderer.dropConstraint(SQLConstraintName.notNull(table: table, column: column), onTable: table))
                }
                // A renamed column's default is set by the contract.
                if let previous, backfill.syncedWith == nil,
                    renderer.defaultValue(of: previous, in: plan.from) != renderer.defaultValue(of: field, in: plan.to)
                {
                    statements.append(renderer.setDefault(table, column, to: renderer.defaultValue(of: field, in: plan.to)))
                }
                continue
            }
            guard let previous else {
                // A required column with a default: in one statement, without a scan.
                if lockSafe, !field.isOptional, !field.isAutoincrement, field.transform == nil,
                    renderer.defaultValue(of: field, in: plan.to) != nil || field.sqlDefault != nil
                {
                    statements.append(renderer.addRequiredColumn(field, of: entity, in: plan.to, onTable: table))
                    continue
                }
                // New column: added nullable with its default, computed, then made required.
                statements.append(renderer.addBareColumn(field, of: entity, in: plan.to, onTable: table))
                if field.transform != nil {
                    statements.append(renderer.update(table, set: field.column, to: values.expression(for: field, in: entity)))
                }
                if !field.isOptional && !field.isAutoincrement { statements.append(renderer.setNotNull(table, field.column)) }
                continue
            }
            let column = previous.column
            let source = plan.source(of: field, in: entity)
            let newDefault = renderer.defaultValue(of: field, in: plan.to)
            let oldDefault = DDLRenderer(dialect: .postgres).defaultValue(of: previous, in: plan.from)
            let typeChanges = plan.from.storedShape(of: previous) != plan.to.storedShape(of: field)
            if typeChanges {
                if oldDefault != nil { statements.append(renderer.setDefault(table, column, to: nil)) }
                statements.append(
                    renderer.alterType(table, column, to: field, in: plan.to, using: values.expression(for: field, from: source)))
                if let newDefault { statements.append(renderer.setDefault(table, column, to: newDefault)) }
            } else {
                if values.changesValues(source) {
                    let condition = source.fill != nil && source.remap.isEmpty && field.transform == nil ? renderer.isNull(column) : nil
                    statements.append(renderer.update(table, set: column, to: values.expression(for: field, from: source), where: condition))
                }
                if oldDefault != newDefault { statements.append(renderer.setDefault(table, column, to: newDefault)) }
            }
            if previous.isOptional && !field.isOptional {
                if isSettled(field, in: continued) {
                    let check = SQLConstraintName.notNull(table: table, column: column)
                    leading.append(renderer.addNotNullCheck(check, table: table, column: column))
                    leading.append(renderer.validateConstraint(check, onTable: table))
                    statements.append(renderer.setNotNull(table, column))
                    statements.append(renderer.dropConstraint(check, onTable: table))
                } else {
                    statements.append(renderer.setNotNull(table, column))
                }
            }
            if !previous.isOptional && field.isOptional { statements.append(renderer.dropNotNull(table, column)) }
        }
        if rolling == nil, backfills.contains(where: { $0.shadow != nil }), let swaps = typeSwaps(of: continued) {
            statements += swappedIndexRenames(of: continued, swaps)
        }
        // A rolling version's trigger keeps code of N-1 working until the contract drops it.
        if !backfilled.isEmpty && rolling == nil && !triggerDropped {
            let trigger = SQLConstraintName.backfillTrigger(table: table)
            statements.append(renderer.dropTrigger(trigger, onTable: table))
            statements.append(renderer.dropFunction(trigger))
        }
        let keptUntilContract = Set(rolling?.keptColumns(of: entity).map(\.name) ?? [])
        for previous in old.fields where !continued.keptFields.contains(previous.name) && !keptUntilContract.contains(previous.name) {
            statements.append(renderer.dropColumn(previous.column, fromTable: table))
        }
        return statements
    }

    private func renames(_ continued: ContinuedTable) -> [SQLStatement] {
        let (entity, old) = (continued.entity, continued.old)
        var statements: [SQLStatement] = []
        if old.table != entity.table { statements.append(renderer.renameTable(old.table, to: entity.table)) }
        let keyChanges = plan.changes(of: entity).contains { if case .primaryKeyChanged = $0 { true } else { false } }
        if old.table != entity.table && !keyChanges {
            statements += rename(SQLConstraintName.primaryKey(table: old.table), SQLConstraintName.primaryKey(table: entity.table), entity)
        }
        for (field, previous) in continued.fields {
            // A rolling version's renamed column was added beside the old one.
            guard let previous, rolling?.rename(of: field, in: entity) == nil else { continue }
            if previous.column != field.column {
                statements.append(renderer.renameColumn(previous.column, to: field.column, onTable: entity.table))
            }
            guard old.table != entity.table || previous.column != field.column else { continue }
            let dropped = Set(constraintsToDrop(field, previous: previous, entity: entity, old: old))
            let kept: [(String, String)] = [
                previous.isUnique ? (SQLConstraintName.unique(table: old.table, column: previous.column), SQLConstraintName.unique(table: entity.table, column: field.column)) : nil,
                renderer.allowedValues(of: previous, in: plan.from) != nil || previous.check != nil
                    ? (SQLConstraintName.check(table: old.table, column: previous.column), SQLConstraintName.check(table: entity.table, column: field.column)) : nil,
                previous.referencedEntity != nil
                    ? (SQLConstraintName.foreignKey(table: old.table, column: previous.column), SQLConstraintName.foreignKey(table: entity.table, column: field.column)) : nil,
            ].compactMap { $0 }
            for (oldName, newName) in kept where !dropped.contains(oldName) {
                statements += rename(oldName, newName, entity)
            }
            if previous.isAutoincrement && field.isAutoincrement {
                let oldSequence = "\(old.table)_\(previous.column)_seq"
                let newSequence = "\(entity.table)_\(field.column)_seq"
                if oldSequence != newSequence { statements.append(renderer.renameSequence(oldSequence, to: newSequence)) }
            }
        }
        return statements
    }

    private func rename(_ oldName: String, _ newName: String, _ entity: Entity) -> [SQLStatement] {
        guard oldName != newName, let statement = renderer.renameConstraint(oldName, to: newName, onTable: entity.table) else { return [] }
        return [statement]
    }

    /// The constraints `continued` gains, in the transaction; those over settled columns whose
    /// name is new go to `leading` instead, added `NOT VALID` then validated (checks, foreign
    /// keys) or over a unique index built concurrently (unique constraints, then added in the
    /// transaction without a scan).
    private func constraintsToAdd(_ continued: ContinuedTable, leading: inout [SQLStatement]) -> [SQLStatement] {
        let entity = continued.entity
        var statements: [SQLStatement] = []
        func add(_ statement: SQLStatement, named name: String, beforehand: Bool) {
            guard beforehand else { return statements.append(statement) }
            leading.append(renderer.notValid(statement, name: name, table: entity.table))
            leading.append(renderer.validateConstraint(name, onTable: entity.table))
        }
        if plan.changes(of: entity).contains(where: { if case .primaryKeyChanged = $0 { true } else { false } }) {
            statements.append(renderer.addPrimaryKey(of: entity))
        }
        let swappedFields = Set(backfills(of: continued).filter { $0.shadow != nil }.map(\.field.name))
        for (field, previous) in continued.fields where !swappedFields.contains(field.name) {
            // A rolling version's renamed column gets its constraints after it is filled.
            if rolling?.rename(of: field, in: entity) != nil { continue }
            let oldCheck = previous.flatMap { renderer.allowedValues(of: $0, in: plan.from) }
            // A field's own check is added with the field (it cannot change between versions).
            let addsOwnCheck = field.check != nil && previous == nil
            let settled = previous != nil && isSettled(field, in: continued)
            let swapped = previous.map { swaps(field, previous: $0, entity: entity, old: continued.old) } ?? (check: false, foreignKey: false)
            if !swapped.check, !remapsInBatches(field, of: entity), addsOwnCheck
                || renderer.allowedValues(of: field, in: plan.to) != nil && (previous == nil || oldCheck != renderer.allowedValues(of: field, in: plan.to)),
                let check = renderer.addCheck(field, of: entity, in: plan.to)
            {
                // A check whose name N-1 already used is dropped in the transaction: replaced there too.
                add(
                    check, named: SQLConstraintName.check(table: entity.table, column: field.column),
                    beforehand: settled && oldCheck == nil && previous?.check == nil)
            }
            if field.isUnique && !(previous?.isUnique ?? false) {
                if settled {
                    leading.append(renderer.createIndexConcurrently(renderer.uniqueIndex(field, of: entity), of: entity))
                    statements.append(renderer.addUniqueUsingIndex(field, of: entity))
                } else {
                    statements.append(renderer.addUnique(field, of: entity))
                }
            }
            if !swapped.foreignKey, field.referencedEntity != nil && (previous == nil || previous?.referencedEntity == nil || referenceChanges(field, previous: previous!)),
                let foreignKey = renderer.addForeignKey(field, of: entity, in: plan.to)
            {
                add(
                    foreignKey, named: SQLConstraintName.foreignKey(table: entity.table, column: field.column),
                    beforehand: settled && previous?.referencedEntity == nil && referencesSettledTable(field))
            }
        }
        return statements
    }
}
