import StrataSQLText

/// Type changes that the lock-safe PostgreSQL rendering applies without rewriting the table
/// under ACCESS EXCLUSIVE (`ALTER COLUMN … TYPE … USING` holds it while every row is rewritten).
///
/// The new values go to a shadow column, `<column>_strata_new`, added bare in the expand
/// transaction with the backfill trigger computing it for the rows written meanwhile, filled in
/// batches (``PostgresMigrationRenderer/Backfill``), and its constraints proved without blocking
/// writes: `NOT NULL` through a check validated beforehand, the enum's check added `NOT VALID`
/// then validated, a unique constraint and the indexes over the column built `CONCURRENTLY`
/// under temporary names. The version's transaction then only touches the catalog: the old
/// column dropped, the shadow renamed to it, the temporary names renamed to the final ones,
/// the default set, `SET NOT NULL` (over the validated check). The column moves to the end of
/// the table.
///
/// A type change stays an `ALTER TYPE` in the version's transaction (``typeSwaps(of:)`` gives
/// nil) when the column's table or name changes, it is part of the primary key, a reference or
/// an identity, it has its own `check` or an SQL default, the table has table checks or partial
/// indexes (their SQL may name the column), an index over it covers a column new in the version,
/// its `USING` value reads other rows, or the values of another changed column, or the column type
/// stays the same. In a `rolling` version only an integer widened is swapped, by the contract
/// (``RollingExpand/widensInteger(_:to:from:into:)``): until then both versions' code writes the
/// old column, which the trigger copies into the shadow.
extension PostgresMigrationRenderer {
    /// A type change applied through a shadow column.
    struct TypeSwap {
        /// The field in N (its column has the same name in N-1).
        let field: Field
        /// The shadow column: the field as N declares it under the column `<column>_strata_new`.
        let shadow: Field
        /// The value of a row, over its N-1 columns (the `USING` expression).
        let expression: String
    }

    /// The suffix of a shadow column's name and of the temporary names of what is built over it.
    static let shadowSuffix = "strata_new"

    /// The type changes of `continued` applied through shadow columns; nil when one of them
    /// stays an `ALTER TYPE` in the transaction (then all of the table's do, as before).
    func typeSwaps(of continued: ContinuedTable) -> [TypeSwap]? {
        let (entity, old) = (continued.entity, continued.old)
        var swaps: [TypeSwap] = []
        for (field, previous) in continued.fields {
            guard let previous, plan.from.storedShape(of: previous) != plan.to.storedShape(of: field) else { continue }
            // A rolling version swaps only a widened integer, which code of N writes into the old column meanwhile.
            guard lockSafe, rolling == nil || RollingExpand.widensInteger(previous, to: field, from: plan.from, into: plan.to),
                plan.to.migration.before == nil, old.table == entity.table, previous.column == field.column,
                !entity.primaryKey.contains(field.name), !old.primaryKey.contains(previous.name),
                field.referencedEntity == nil, previous.referencedEntity == nil,
                !field.isAutoincrement, !previous.isAutoincrement,
                field.check == nil, previous.check == nil, field.sqlDefault == nil, previous.sqlDefault == nil,
                entity.checks.isEmpty, old.checks.isEmpty,
                !entity.indexes.contains(where: { $0.condition != nil }), !old.indexes.contains(where: { $0.condition != nil }),
                renderer.dialect.columnType(of: previous, in: plan.from) != renderer.dialect.columnType(of: field, in: plan.to)
            else { return nil }
            let expression = values.expression(for: field, from: plan.source(of: field, in: entity))
            guard let names = Self.names(in: expression), !names.contains("SELECT") else { return nil }
            var shadow = field
            shadow.column = SQLConstraintName.fitted(base: field.column, suffix: Self.shadowSuffix)
            swaps.append(TypeSwap(field: field, shadow: shadow, expression: expression))
        }
        guard !swaps.isEmpty else { return [] }
        // A value that reads another swapped column would read its old values, of its old type.
        for swap in swaps {
            let others = Set(swaps.filter { $0.field.name != swap.field.name }.map { $0.field.column.uppercased() })
            guard Self.names(in: swap.expression)?.isDisjoint(with: others) == true else { return nil }
        }
        // The indexes over a swapped column are built over the N-1 columns beforehand.
        let columns = shadowColumns(of: continued, swaps)
        for index in entity.indexes where index.fields.contains(where: { name in swaps.contains { $0.field.name == name } }) {
            guard index.fields.allSatisfy({ columns[$0] != nil }) else { return nil }
        }
        return swaps
    }

    /// True when `expression`, a value of a column filled in batches, names a column of `swaps`.
    static func reads(_ swaps: [TypeSwap], in expression: String) -> Bool {
        guard let names = names(in: expression) else { return true }
        return swaps.contains { names.contains($0.field.column.uppercased()) }
    }

    /// The words and quoted names of `sql`, upper-cased, or nil when it does not lex.
    private static func names(in sql: String) -> Set<String>? {
        guard let tokens = try? SQLLexer(dialect: .postgres).significantTokens(sql) else { return nil }
        return Set(tokens.filter { $0.kind == .word || $0.isName }.map { $0.value.uppercased() })
    }

    /// Each field of N whose column exists before the version's transaction, with that column:
    /// the shadow for a swapped field, the N-1 column for a continued one.
    private func shadowColumns(of continued: ContinuedTable, _ swaps: [TypeSwap]) -> [String: String] {
        var columns: [String: String] = [:]
        for field in continued.entity.fields {
            if let swap = swaps.first(where: { $0.field.name == field.name }) {
                columns[field.name] = swap.shadow.column
            } else if let previous = SchemaDiff.previous(of: field, in: continued.old) {
                columns[field.name] = previous.column
            }
        }
        return columns
    }

    /// The entity of N with the columns that exist before the version's transaction
    /// (``shadowColumns(of:_:)``), to render what is built over them beforehand.
    private func shadowEntity(of continued: ContinuedTable, _ swaps: [TypeSwap]) -> Entity {
        let columns = shadowColumns(of: continued, swaps)
        var entity = continued.entity
        entity.fields = entity.fields.map { field in
            var field = field
            if let column = columns[field.name] { field.column = column }
            return field
        }
        return entity
    }

    /// The indexes of N over a swapped column, each with its temporary name.
    func swappedIndexes(of continued: ContinuedTable, _ swaps: [TypeSwap]) -> [(index: Index, temporary: String)] {
        continued.entity.indexes.compactMap { index in
            guard index.fields.contains(where: { name in swaps.contains { $0.field.name == name } }) else { return nil }
            return (index, SQLConstraintName.fitted(base: index.name, suffix: Self.shadowSuffix))
        }
    }

    /// True when `index` of `continued` is built over a shadow column (not by the renderer's
    /// other index statements).
    func isSwapped(_ index: Index, of continued: ContinuedTable) -> Bool {
        let swaps = typeSwaps(of: continued) ?? []
        guard backfills(of: continued).contains(where: { $0.shadow != nil }) else { return false }
        return swappedIndexes(of: continued, swaps).contains { $0.index.name == index.name }
    }

    /// True when the type change of `field` of `continued` is applied through a shadow column.
    func swapsType(of field: Field, in continued: ContinuedTable) -> Bool {
        backfills(of: continued).contains { $0.field.name == field.name && $0.shadow != nil }
    }

    /// True when a swapped `field` has something proved on its shadow before the version's
    /// transaction (``swapProofs(of:_:)``, `NOT NULL`): rows read under SHARE UPDATE EXCLUSIVE.
    func swapProvesBeforehand(_ field: Field, in continued: ContinuedTable) -> Bool {
        guard let swaps = typeSwaps(of: continued), let swap = swaps.first(where: { $0.field.name == field.name }) else {
            return false
        }
        return !field.isOptional || field.isUnique || renderer.addCheck(swap.shadow, of: continued.entity, in: plan.to) != nil
            || swappedIndexes(of: continued, swaps).contains { $0.index.fields.contains(field.name) }
    }

    /// The statements that prove the constraints of the swapped columns of `continued` on their
    /// shadows without blocking writes, after the batches: the checks added `NOT VALID` and
    /// validated, the unique constraints' and the indexes' indexes built `CONCURRENTLY`.
    func swapProofs(of continued: ContinuedTable, _ swaps: [TypeSwap]) -> [SQLStatement] {
        let entity = shadowEntity(of: continued, swaps)
        let table = continued.entity.table
        var statements: [SQLStatement] = []
        for swap in swaps {
            if let check = renderer.addCheck(swap.shadow, of: entity, in: plan.to) {
                let name = SQLConstraintName.check(table: table, column: swap.shadow.column)
                statements.append(renderer.notValid(check, name: name, table: table))
                statements.append(renderer.validateConstraint(name, onTable: table))
            }
            if swap.field.isUnique {
                statements.append(renderer.createIndexConcurrently(renderer.uniqueIndex(swap.shadow, of: entity), of: entity))
            }
        }
        for (index, temporary) in swappedIndexes(of: continued, swaps) {
            var built = index
            built.name = temporary
            statements.append(renderer.createIndexConcurrently(built, of: entity))
        }
        return statements
    }

    /// The statements of the version's transaction for `swap`: the old column dropped (with its
    /// indexes and constraints), the shadow renamed to it, its unique constraint added over the
    /// index built beforehand, its check renamed, the default set, `NOT NULL` over the check
    /// validated beforehand.
    func swapStatements(_ swap: TypeSwap, of continued: ContinuedTable) -> [SQLStatement] {
        let table = continued.entity.table
        let (column, shadow) = (swap.field.column, swap.shadow.column)
        var statements = [
            renderer.dropColumn(column, fromTable: table), renderer.renameColumn(shadow, to: column, onTable: table),
        ]
        if swap.field.isUnique {
            let name = SQLConstraintName.unique(table: table, column: column)
            let index = SQLConstraintName.unique(table: table, column: shadow)
            statements.append(
                SQLStatement(
                    kind: .addConstraint(name: name, table: table),
                    sql:
                        "ALTER TABLE \(renderer.column(table)) ADD CONSTRAINT \(renderer.column(name)) UNIQUE USING INDEX \(renderer.column(index))"
                ))
        }
        if renderer.addCheck(swap.field, of: continued.entity, in: plan.to) != nil,
            let rename = renderer.renameConstraint(
                SQLConstraintName.check(table: table, column: shadow), to: SQLConstraintName.check(table: table, column: column),
                onTable: table)
        {
            statements.append(rename)
        }
        if let value = renderer.defaultValue(of: swap.field, in: plan.to) {
            statements.append(renderer.setDefault(table, column, to: value))
        }
        if !swap.field.isOptional {
            statements.append(renderer.setNotNull(table, column))
            statements.append(renderer.dropConstraint(SQLConstraintName.notNull(table: table, column: shadow), onTable: table))
        }
        return statements
    }

    /// The indexes over the swapped columns of `continued` renamed from their temporary names,
    /// once every old column is dropped (with the indexes of N-1 over it).
    func swappedIndexRenames(of continued: ContinuedTable, _ swaps: [TypeSwap]) -> [SQLStatement] {
        swappedIndexes(of: continued, swaps).map { renderer.renameIndex($0.temporary, to: $0.index.name) }
    }
}
