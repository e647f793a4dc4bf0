/// How a rolling version (`migration.rolling: true`) is applied to PostgreSQL, so that code of
/// version N-1 keeps running beside code of N until the contract (a rolling deploy):
///
/// - **Expand**, the version's migration: a field whose column is renamed gets N's column beside
///   N-1's, filled in batches and kept equal to it both ways by a trigger (a row code of N-1
///   writes sets the new column, a row code of N writes the old one); a removed field keeps its
///   column; the trigger that fills a new field's `transform`, or an optional field's NULLs, stays
///   and fills the rows code of N-1 writes. The ledger records the version as compatible with
///   code of N-1.
/// - **Contract** (`strata migrate --contract`, or first thing in the next version's migration):
///   the old columns and the triggers are dropped and the new columns get their defaults; the
///   ledger then records the version as breaking for code of N-1, as a version without `rolling`.
///
/// A change no expand keeps working for code of N-1 (a type change, a table renamed, a case code
/// of N-1 cannot read…) is an error in a rolling version (``diagnostics(for:)``). SQLite databases
/// are embedded in one application: a rolling version is applied to them whole.
struct RollingExpand {
    let plan: MigrationPlan

    /// A field whose column is renamed: N's column (`to.column`) is added beside N-1's
    /// (`from.column`) and kept equal to it until the contract drops the old one.
    struct Rename {
        /// The entity, at version N (its table keeps its name).
        let entity: Entity
        /// The field at N-1.
        let from: Field
        /// The field at N.
        let to: Field
    }

    /// The expand of `plan`, or nil when its version is not rolling.
    init?(_ plan: MigrationPlan) {
        guard plan.to.migration.rolling else { return nil }
        self.plan = plan
    }

    /// The renamed columns the expand keeps side by side, in entity and field order.
    var renames: [Rename] {
        plan.diff.changes.compactMap { change in
            guard case .fieldRenamed(let name, let from, let to) = change, from.column != to.column,
                let entity = plan.to.entity(named: name), canKeep(renamed: from, as: to, in: entity)
            else { return nil }
            return Rename(entity: entity, from: from, to: to)
        }
    }

    /// The rename of `field` (of N) in `entity` the expand keeps side by side, if any.
    func rename(of field: Field, in entity: Entity) -> Rename? {
        renames.first { $0.entity.name == entity.name && $0.to.name == field.name }
    }

    /// An index of N over a renamed column: built concurrently over N's columns once they are
    /// filled, under its name when it is new in N, else (N-1's index of that name covers the old
    /// column until the contract drops it) under ``temporaryName`` until the contract renames it.
    struct RebuiltIndex {
        let index: Index
        let isNew: Bool

        /// The name the index is built under.
        var builtName: String { isNew ? index.name : Self.temporaryName(of: index.name) }

        /// `<name>_strata_new`, within PostgreSQL's 63 bytes.
        static func temporaryName(of name: String) -> String {
            let suffix = "_strata_new"
            var base = name
            while base.utf8.count + suffix.utf8.count > 63 { base.removeLast() }
            return base + suffix
        }
    }

    /// The indexes of `entity` (at N) that cover a renamed column, in declaration order.
    func rebuiltIndexes(of entity: Entity) -> [RebuiltIndex] {
        let renamed = Set(renames.filter { $0.entity.name == entity.name }.map(\.to.name))
        guard !renamed.isEmpty else { return [] }
        let added = Set(
            plan.changes(of: entity).compactMap { change -> String? in
                if case .indexAdded(_, let index) = change { index.name } else { nil }
            })
        return entity.indexes.filter { !renamed.isDisjoint(with: $0.fields) }.map {
            RebuiltIndex(index: $0, isNew: added.contains($0.name))
        }
    }

    /// The fields of N-1 removed from `entity` whose columns stay until the contract.
    func keptColumns(of entity: Entity) -> [Field] {
        plan.diff.changes.compactMap { change in
            guard case .fieldRemoved(let name, let field) = change, name == entity.name,
                canKeep(removed: field, of: entity)
            else { return nil }
            return field
        }
    }

    /// True when the expand keeps code of N-1 working across `change`, which breaks it when
    /// applied whole (``MigrationCompatibility``).
    func keeps(_ change: SchemaChange) -> Bool {
        switch change {
        case .fieldRenamed(let name, let from, let to):
            guard let entity = plan.to.entity(named: name) else { return false }
            return from.column == to.column || canKeep(renamed: from, as: to, in: entity)
        case .fieldRemoved(let name, let field):
            return plan.to.entity(named: name).map { canKeep(removed: field, of: $0) } ?? false
        case .fieldAdded(_, let field) where field.transform != nil:
            // Filled in batches; the trigger stays and computes it for the rows N-1 inserts.
            return PostgresMigrationRenderer(plan: plan).fillsInBatches(change)
        case .becameRequired:
            // NULLs filled in batches; the trigger stays and fills the NULLs N-1 writes.
            return PostgresMigrationRenderer(plan: plan).fillsInBatches(change)
        case .typeChanged(let name, let from, let to):
            // An integer widened: both versions write the old column until the contract swaps in
            // the shadow the trigger keeps filled.
            guard Self.widensInteger(from, to: to, from: plan.from, into: plan.to), let entity = plan.to.entity(named: name),
                let old = plan.previous(of: entity)
            else { return false }
            let stable = ContinuedTable.stableEnums(of: plan)
            return PostgresMigrationRenderer(plan: plan).swapsType(of: to, in: ContinuedTable(entity, old: old, stableEnums: stable))
        default:
            return false
        }
    }

    /// What a rolling version cannot keep of `change`, appended to its reason in the error.
    func limitation(of change: SchemaChange) -> String {
        switch change {
        case .fieldRenamed:
            "a rolling version keeps a renamed column beside the old one when the field keeps its type, values, "
                + "optionality and allowed values, is not part of the primary key, not autoincremented and in no partial index"
        case .fieldRemoved:
            "a rolling version keeps a removed column until the contract when code of the new version can insert "
                + "without it: an optional field, or a required one with a default that is not unique"
        case .fieldAdded:
            "a rolling version keeps a new field when code of the version before can insert without it (optional, "
                + "or with a default) or a transform that reads its row alone fills it"
        case .becameRequired:
            "a rolling version keeps a field made required when a default, or a transform that reads its row "
                + "alone, fills its NULLs"
        case .typeChanged:
            "a rolling version keeps a type change that widens an integer (Int16 -> Int32 -> Int64) of a column that "
                + "keeps its name, is in no key, reference or check, and whose table has no table check or partial index"
        case .enumCasesAdded:
            "declare an `unknown:` case in the enum first, so that code of the version before reads a new case as it"
        default:
            "a rolling version keeps only renamed columns, removed fields, new fields filled by a transform and "
                + "NULLs filled beside the version before"
        }
    }

    /// The errors of a rolling version whose changes the expand cannot keep working for code of
    /// N-1 (at `migration.rolling`), and a warning when there is nothing to expand.
    static func diagnostics(for plan: MigrationPlan) -> [Diagnostic] {
        guard let expand = RollingExpand(plan) else { return [] }
        var bag = DiagnosticBag()
        let location = plan.to.migration.rollingLocation ?? SourceLocation.file(plan.to.file)
        let full = MigrationCompatibility(plan)
        for item in MigrationCompatibility(plan, expanded: true).breaking {
            let limitation =
                item.change.map { expand.limitation(of: $0) } ?? "Strata cannot classify the version's own SQL"
            bag.error(
                "\(plan.to.fileName) is rolling, but code of v\(plan.from.version) cannot run beside its expand: it \(item.reason) (\(limitation))",
                at: location)
        }
        if full.isCompatible {
            bag.warning(
                "migration.rolling: nothing to expand and contract, code of v\(plan.from.version) runs against \(plan.to.fileName) as it is; remove 'rolling'",
                at: location)
        }
        return bag.all
    }

    /// The statements of the contract: per table of N, the trigger and its function dropped,
    /// the old columns of renamed fields and the kept columns of removed ones dropped, and the
    /// defaults of the new columns set.
    func contractStatements(renderer: DDLRenderer, filledTables: Set<String>) -> [SQLStatement] {
        var statements: [SQLStatement] = []
        for entity in plan.to.entities {
            guard let old = plan.previous(of: entity), old.table == entity.table else { continue }
            let table = entity.table
            let renamed = renames.filter { $0.entity.name == entity.name }
            if !renamed.isEmpty || filledTables.contains(table) {
                let trigger = SQLConstraintName.backfillTrigger(table: table)
                statements.append(renderer.dropTrigger(trigger, onTable: table))
                statements.append(renderer.dropFunction(trigger))
            }
            for rename in renamed {
                statements.append(renderer.dropColumn(rename.from.column, fromTable: table))
            }
            for field in keptColumns(of: entity) {
                statements.append(renderer.dropColumn(field.column, fromTable: table))
            }
            // N-1's index went with its column; the one built beside it takes its name.
            for rebuilt in rebuiltIndexes(of: entity) where !rebuilt.isNew {
                statements.append(renderer.renameIndex(rebuilt.builtName, to: rebuilt.index.name))
            }
            // Defaults left off until now, so that the trigger could tell the rows N-1 wrote.
            for field in entity.fields where rename(of: field, in: entity) != nil || deferredDefault(field, in: entity)
            {
                if let value = renderer.defaultValue(of: field, in: plan.to) {
                    statements.append(renderer.setDefault(table, field.column, to: value))
                }
            }
        }
        return statements
    }

    /// True when `field`, new in `entity` and filled by its transform, gets its default only at
    /// the contract: until then a row code of N-1 inserts must reach the trigger with NULL.
    func deferredDefault(_ field: Field, in entity: Entity) -> Bool {
        guard let old = plan.previous(of: entity), SchemaDiff.previous(of: field, in: old) == nil,
            field.transform != nil
        else { return false }
        return keeps(.fieldAdded(entity: entity.name, field))
    }

    /// True when `from` (of `old`) to `to` (of `new`) widens an integer column (`SMALLINT` to
    /// `INTEGER` or `BIGINT`, `INTEGER` to `BIGINT`), keeping its optionality: code of N binds
    /// and reads the old column's values unchanged (PostgreSQL casts its wider parameters on
    /// assignment, refusing a value the old type cannot hold), so it runs against the old
    /// column until the contract swaps in the new one.
    static func widensInteger(_ from: Field, to: Field, from old: Schema, into new: Schema) -> Bool {
        let ranks: [ScalarType: Int] = [.int16: 1, .int32: 2, .int64: 3, .int: 3]
        guard case .scalar(let a) = from.type, case .scalar(let b) = to.type, let before = ranks[a], let after = ranks[b],
            from.isOptional == to.isOptional, to.transform == nil
        else { return false }
        return before < after && old.storageType(of: from) != new.storageType(of: to)
    }

    private func canKeep(renamed from: Field, as to: Field, in entity: Entity) -> Bool {
        guard let old = plan.previous(of: entity), old.table == entity.table, plan.to.migration.before == nil,
            !entity.primaryKeyFields.contains(where: { $0.name == to.name }), !to.isAutoincrement,
            !from.isAutoincrement,
            to.transform == nil, from.isOptional == to.isOptional,
            plan.from.storedShape(of: from) == plan.to.storedShape(of: to),
            !plan.changes(of: entity).contains(where: { if case .primaryKeyChanged = $0 { true } else { false } }),
            // A partial index's condition names columns: it is not rewritten.
            !entity.indexes.contains(where: { $0.fields.contains(to.name) && $0.condition != nil }),
            !old.indexes.contains(where: { $0.fields.contains(from.name) && $0.condition != nil })
        else { return false }
        let renderer = DDLRenderer(dialect: .postgres)
        let values = MigrationValues(plan: plan, renderer: renderer)
        return !values.changesValues(plan.source(of: to, in: entity))
            && renderer.allowedValues(of: from, in: plan.from) == renderer.allowedValues(of: to, in: plan.to)
            && from.check == to.check
    }

    private func canKeep(removed field: Field, of entity: Entity) -> Bool {
        guard let old = plan.previous(of: entity), old.table == entity.table,
            !old.primaryKeyFields.contains(where: { $0.name == field.name })
        else { return false }
        return field.isOptional || (field.defaultValue != nil || field.sqlDefault != nil) && !field.isUnique
    }
}
