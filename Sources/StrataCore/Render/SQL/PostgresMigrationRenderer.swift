/// PostgreSQL statements for a migration: every change as `ALTER TABLE` on the existing tables
/// (`USING` for type changes), in an order where each statement sees the names it needs:
/// values are computed while tables and columns have their old names, renames come after,
/// then new tables, constraints and indexes under the names of version N.
struct PostgresMigrationRenderer {
    let plan: MigrationPlan
    let renderer = DDLRenderer(dialect: .postgres)
    var values: MigrationValues { MigrationValues(plan: plan, renderer: renderer) }

    func statements() -> [SQLStatement] {
        let to = plan.to
        var statements = values.custom(to.migration.before, "before")
        let stable = ContinuedTable.stableEnums(of: plan)
        let tables = to.entities.compactMap { entity in
            plan.previous(of: entity).map { ContinuedTable(entity, old: $0, stableEnums: stable) }
        }

        // 1. Indexes and constraints that go away or will be recreated, under their old names.
        for table in tables {
            let (entity, old) = (table.entity, table.old)
            for change in plan.changes(of: entity) {
                if case .indexRemoved(_, let index) = change { statements.append(renderer.dropIndex(named: index.name)) }
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
        for table in tables {
            statements += columnStatements(table)
        }
        for entity in values.removedEntities { statements.append(renderer.dropTable(named: entity.table)) }
        // 3. Renames, with the constraints and sequences named after them.
        for table in tables {
            statements += renames(table)
        }
        // 4. New tables (references between them in a cycle added afterwards).
        let added = Set(values.addedEntities.map(\.name))
        let created = added.isEmpty ? [] : SQLSchemaRenderer.createStatements(for: to, dialect: .postgres, only: added)
        statements += created.filter { if case .addForeignKey = $0.kind { false } else { true } }
        // 5. Constraints and indexes under the names of version N.
        for table in tables {
            statements += constraintsToAdd(table)
        }
        statements += created.filter { if case .addForeignKey = $0.kind { true } else { false } }
        // Indexes marked `concurrently` are built first, outside the transaction (the planner
        // checked that their table and columns exist at N-1).
        var concurrent: [SQLStatement] = []
        for entity in tables.map(\.entity) {
            for change in plan.changes(of: entity) {
                guard case .indexAdded(_, let index) = change else { continue }
                if index.isConcurrent {
                    concurrent.append(renderer.createIndexConcurrently(index, of: entity))
                } else {
                    statements.append(renderer.createIndex(index, of: entity))
                }
            }
        }
        return concurrent + statements + values.custom(to.migration.after, "after")
    }

    /// The old constraints of a continued field that do not survive as they are.
    private func constraintsToDrop(_ field: Field, previous: Field, entity: Entity, old: Entity) -> [String] {
        var names: [String] = []
        let checkBefore = renderer.allowedValues(of: previous, in: plan.from)
        let checkAfter = renderer.allowedValues(of: field, in: plan.to)
        if checkBefore != nil && checkBefore != checkAfter {
            names.append(SQLConstraintName.check(table: old.table, column: previous.column))
        }
        if previous.isUnique && !field.isUnique {
            names.append(SQLConstraintName.unique(table: old.table, column: previous.column))
        }
        if previous.referencedEntity != nil && referenceChanges(field, previous: previous) {
            names.append(SQLConstraintName.foreignKey(table: old.table, column: previous.column))
        }
        return names
    }

    /// True when a reference's constraint must be replaced (another target, action or key type).
    private func referenceChanges(_ field: Field, previous: Field) -> Bool {
        guard let target = field.referencedEntity, let targetEntity = plan.to.entity(named: target) else { return true }
        return plan.previous(of: targetEntity)?.name != previous.referencedEntity || field.onDelete != previous.onDelete
            || plan.from.storageType(of: previous) != plan.to.storageType(of: field)
    }

    private func columnStatements(_ continued: ContinuedTable) -> [SQLStatement] {
        var statements: [SQLStatement] = []
        let (entity, old) = (continued.entity, continued.old)
        let table = old.table
        for (field, previous) in continued.fields {
            guard let previous else {
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
            let typeChanges = plan.from.storageType(of: previous) != plan.to.storageType(of: field)
            if typeChanges {
                if oldDefault != nil { statements.append(renderer.setDefault(table, column, to: nil)) }
                statements.append(
                    renderer.alterType(table, column, to: plan.to.columnEncoding(of: field), using: values.expression(for: field, from: source)))
                if let newDefault { statements.append(renderer.setDefault(table, column, to: newDefault)) }
            } else {
                if values.changesValues(source) {
                    let condition = source.fill != nil && source.remap.isEmpty && field.transform == nil ? renderer.isNull(column) : nil
                    statements.append(renderer.update(table, set: column, to: values.expression(for: field, from: source), where: condition))
                }
                if oldDefault != newDefault { statements.append(renderer.setDefault(table, column, to: newDefault)) }
            }
            if previous.isOptional && !field.isOptional { statements.append(renderer.setNotNull(table, column)) }
            if !previous.isOptional && field.isOptional { statements.append(renderer.dropNotNull(table, column)) }
        }
        for previous in old.fields where !continued.keptFields.contains(previous.name) {
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
            guard let previous else { continue }
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

    private func constraintsToAdd(_ continued: ContinuedTable) -> [SQLStatement] {
        let entity = continued.entity
        var statements: [SQLStatement] = []
        if plan.changes(of: entity).contains(where: { if case .primaryKeyChanged = $0 { true } else { false } }) {
            statements.append(renderer.addPrimaryKey(of: entity))
        }
        for (field, previous) in continued.fields {
            let oldCheck = previous.flatMap { renderer.allowedValues(of: $0, in: plan.from) }
            // A field's own check is added with the field (it cannot change between versions).
            let addsOwnCheck = field.check != nil && previous == nil
            if addsOwnCheck
                || renderer.allowedValues(of: field, in: plan.to) != nil && (previous == nil || oldCheck != renderer.allowedValues(of: field, in: plan.to)),
                let add = renderer.addCheck(field, of: entity, in: plan.to)
            {
                statements.append(add)
            }
            if field.isUnique && !(previous?.isUnique ?? false) { statements.append(renderer.addUnique(field, of: entity)) }
            if field.referencedEntity != nil && (previous == nil || previous?.referencedEntity == nil || referenceChanges(field, previous: previous!)),
                let add = renderer.addForeignKey(field, of: entity, in: plan.to)
            {
                statements.append(add)
            }
        }
        return statements
    }
}
