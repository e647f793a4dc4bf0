import StrataStorage

/// SQLite statements for a migration: `ALTER TABLE` where SQLite can change a table in place
/// (add a column, rename a column, add or drop an index), otherwise the table rebuild that
/// sqlite.org documents: create the new table, copy every row through the transforms, drop the
/// old table, rename the new one, recreate its indexes. The runner executes the script in one
/// transaction with foreign keys off and runs `PRAGMA foreign_key_check` before committing.
struct SQLiteMigrationRenderer {
    let plan: MigrationPlan
    let renderer: DDLRenderer
    var values: MigrationValues { MigrationValues(plan: plan, renderer: renderer) }

    /// The renderer of the migration into `plan.to`, Date literals in `sqliteDateFormat`.
    init(plan: MigrationPlan, sqliteDateFormat: SQLiteDateFormat) {
        self.plan = plan
        self.renderer = DDLRenderer(dialect: .sqlite, sqliteDateFormat: sqliteDateFormat)
    }

    /// The prefix of the new table during a rebuild.
    static let rebuildPrefix = "strata_new_"

    func statements() -> [SQLStatement] {
        let to = plan.to
        var statements = values.custom(to.migration.before, "before")
        let continued = to.entities.compactMap { entity in plan.previous(of: entity).map { (entity, $0) } }
        let rebuilt = continued.filter { needsRebuild($0.0, previous: $0.1) }
        let rebuiltNames = Set(rebuilt.map(\.0.name))
        let inPlace = continued.filter { !rebuiltNames.contains($0.0.name) }
        let searches = plan.recreatedSearches { entity, old in
            rebuiltNames.contains(entity.name) || plan.renamesSearchedColumn(entity, old: old)
        }
        // Full-text searches that change go first: their triggers name the columns and tables.
        for (_, old) in searches where old.search != nil {
            statements += renderer.rules.dropSearch(of: old)
        }

        // Indexes that go away (those of rebuilt tables go with the old table).
        for (entity, _) in inPlace {
            for change in plan.changes(of: entity) {
                if case .indexRemoved(_, let index) = change { statements.append(renderer.dropIndex(named: index.name)) }
            }
        }
        // New tables for the rebuilds, filled from the old ones while every table still has its old names.
        for (entity, old) in rebuilt {
            let temporary = Self.rebuildPrefix + entity.table
            statements.append(renderer.createTable(entity, in: to, named: temporary))
            statements.append(
                renderer.copyRows(
                    into: temporary, columns: entity.fields.map(\.column),
                    expressions: entity.fields.map { values.expression(for: $0, in: entity) }, from: old.table))
        }
        // Columns added in place, and values recomputed in place.
        for (entity, _) in inPlace {
            for field in entity.fields {
                let source = plan.source(of: field, in: entity)
                if source.previous == nil {
                    statements.append(renderer.addColumn(field, of: entity, in: to))
                }
                if values.changesValues(source) {
                    let column = source.previous?.column ?? field.column
                    statements.append(renderer.update(entity.table, set: column, to: values.expression(for: field, from: source)))
                }
            }
        }
        // Old tables go.
        for (_, old) in rebuilt { statements.append(renderer.dropTable(named: old.table)) }
        for entity in values.removedEntities { statements.append(renderer.dropTable(named: entity.table)) }
        // Names become those of version N.
        for (entity, _) in rebuilt { statements.append(renderer.renameTable(Self.rebuildPrefix + entity.table, to: entity.table)) }
        for (entity, old) in inPlace {
            for field in entity.fields {
                if let previous = SchemaDiff.previous(of: field, in: old), previous.column != field.column {
                    statements.append(renderer.renameColumn(previous.column, to: field.column, onTable: entity.table))
                }
            }
        }
        // New tables, then indexes.
        for entity in values.addedEntities {
            statements.append(renderer.createTable(entity, in: to))
            statements += entity.indexes.map { renderer.createIndex($0, of: entity) }
            if let search = entity.search { statements += renderer.rules.createSearch(search, of: entity, fill: false) }
        }
        for (entity, _) in rebuilt { statements += entity.indexes.map { renderer.createIndex($0, of: entity) } }
        for (entity, _) in inPlace {
            for change in plan.changes(of: entity) {
                if case .indexAdded(_, let index) = change { statements.append(renderer.createIndex(index, of: entity)) }
            }
        }
        for (entity, _) in searches {
            if let search = entity.search { statements += renderer.rules.createSearch(search, of: entity, fill: true) }
        }
        return statements + values.custom(to.migration.after, "after")
    }

    /// True when SQLite cannot make the change with `ALTER TABLE`, or when doing so would leave
    /// the table's SQL different from a fresh one (constraint names after a rename).
    func needsRebuild(_ entity: Entity, previous old: Entity) -> Bool {
        if entity.table != old.table { return true }
        for change in plan.changes(of: entity) {
            switch change {
            case .typeChanged, .becameRequired, .becameOptional, .defaultChanged, .uniqueAdded, .uniqueRemoved,
                .referenceChanged, .primaryKeyChanged, .fieldRemoved:
                return true
            case .fieldRenamed(_, _, let field):
                if hasNamedConstraint(field) { return true }
            case .fieldAdded(_, let field):
                let canAdd =
                    !field.isUnique && !entity.primaryKey.contains(field.name) && !field.isAutoincrement
                    && (field.isOptional || field.defaultValue != nil)
                if !canAdd { return true }
            default:
                break
            }
        }
        for field in entity.fields {
            // A changed enum changes the CHECK; a referenced table or key renamed changes the REFERENCES clause.
            if case .enumeration(let name) = field.type, enumChanged(name) { return true }
            if let target = field.referencedEntity, let targetEntity = plan.to.entity(named: target) {
                guard let oldTarget = plan.previous(of: targetEntity) else { return true }
                if oldTarget.table != targetEntity.table || oldTarget.singlePrimaryKey?.column != targetEntity.singlePrimaryKey?.column {
                    return true
                }
            }
        }
        return false
    }

    private func hasNamedConstraint(_ field: Field) -> Bool {
        if field.isUnique || field.referencedEntity != nil { return true }
        if case .enumeration = field.type { return true }
        return field.type == .scalar(.bool)
    }

    private func enumChanged(_ name: String) -> Bool { plan.enumChanges(name) }
}
