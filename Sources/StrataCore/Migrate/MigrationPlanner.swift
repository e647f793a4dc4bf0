/// Derives the migration into a version from the diff with the previous one, applying the
/// guards of SCHEMA.md: nothing is dropped, left NULL or converted with loss unless the
/// schema says how (`default`, `transform`) or acknowledges it (`migration.allowDataLoss`).
public enum MigrationPlanner {
    /// The plan from `from` (N-1) to `to` (N).
    public static func plan(from: Schema, to: Schema) -> MigrationPlan {
        let diff = SchemaDiff(from: from, to: to)
        var bag = DiagnosticBag()
        var steps: [MigrationStep] = []
        var usedAllowances: Set<DataLossAllowance> = []
        let hints = to.migration
        let fileStart = SourceLocation.file(to.file)

        func allowance(entity: String, field: String? = nil) -> DataLossAllowance? {
            let found = hints.allows(entity: entity, field: field)
            if let found { usedAllowances.insert(found) }
            return found
        }

        // A JSON value type held by several fields is reported once.
        var reportedShapes: Set<String> = []
        for change in diff.changes {
            var step = MigrationStep(change: change, isDestructive: false, allowedBy: nil, detail: nil)
            switch change {
            case .jsonReshaped(let entityName, let field, _):
                guard let entity = to.entity(named: entityName), let old = diff.previous(of: entity),
                    let previous = SchemaDiff.previous(of: field, in: old),
                    let shape = SchemaDiff.jsonShapeDiff(previous, field, fromSchema: from, toSchema: to)
                else { break }
                let reported = !reportedShapes.insert("\(previous.type)>\(field.type)").inserted
                for problem in shape.problems where !reported {
                    bag.error(problem.message, at: problem.location)
                }
                for removal in shape.removals {
                    step.isDestructive = true
                    let allowed = allowance(entity: removal.type, field: removal.member)
                    step.allowedBy = step.allowedBy ?? allowed
                    if allowed == nil && !reported {
                        bag.error(
                            "member '\(removal.type).\(removal.member)' is removed, dropping its values from the JSON of \(entityName).\(field.name); list '\(removal.type).\(removal.member)' in migration.allowDataLoss to confirm, or rename it with 'renamedFrom'",
                            at: field.type.valueTypeName.flatMap(to.valueType(named:))?.location ?? fileStart)
                    }
                }
            case .entityRemoved(let entity):
                step.isDestructive = true
                step.allowedBy = allowance(entity: entity.name)
                if step.allowedBy == nil {
                    bag.error(
                        "entity '\(entity.name)' of \(from.fileName) is removed, dropping table '\(entity.table)' and its rows; list '\(entity.name)' in migration.allowDataLoss to confirm, or rename it with 'renamedFrom'",
                        at: hints.location ?? fileStart)
                }
            case .fieldRemoved(let entityName, let field):
                let oldEntity = to.entity(named: entityName).flatMap(diff.previous(of:))?.name ?? entityName
                step.isDestructive = true
                step.allowedBy = allowance(entity: oldEntity, field: field.name)
                if step.allowedBy == nil {
                    bag.error(
                        "field '\(oldEntity).\(field.name)' is removed, dropping its values; list '\(oldEntity).\(field.name)' in migration.allowDataLoss to confirm, or rename it with 'renamedFrom'",
                        at: to.entity(named: entityName)?.location ?? fileStart)
                }
            case .fieldAdded(let entityName, let field):
                if !field.isOptional && !field.isAutoincrement && field.defaultValue == nil && field.transform == nil {
                    let hint = field.type.arrayElement != nil ? " ('default: []' for no element)" : ""
                    bag.error(
                        "new field '\(entityName).\(field.name)' is required, so existing rows need a value: give it a 'default'\(hint) or a 'transform' (or make it optional)",
                        at: field.location)
                }
                step.detail = field.transform != nil ? "computed by its transform" : field.defaultValue.map { "filled with its default \($0)" }
                if field.isUnique && field.transform == nil {
                    bag.warning(
                        "new unique field '\(entityName).\(field.name)' gets the same value in every existing row: the migration fails if the table has more than one row; give it a 'transform'",
                        at: field.location)
                }
            case .becameRequired(let entityName, let field):
                if field.defaultValue == nil && field.transform == nil {
                    bag.error(
                        "'\(entityName).\(field.name)' becomes required, so rows where it is NULL need a value: give it a 'default' or a 'transform'",
                        at: field.location)
                }
                step.detail = field.transform != nil ? "NULLs computed by its transform" : field.defaultValue.map { "NULLs filled with \($0)" }
            case .typeChanged(let entityName, let old, let new):
                if new.transform != nil {
                    step.detail = "converted by its transform"
                } else if let fromType = from.storageType(of: old), let toType = to.storageType(of: new),
                    Conversion.isLossless(from: fromType, to: toType) && enumConversionIsLossless(old, new, from: from, to: to)
                {
                    step.detail = fromType == toType ? "same stored values" : "cast from \(fromType.name) to \(toType.name) without loss"
                    // A value becoming a reference keeps its bits, but now must name a row: existing
                    // values that match no row of the target fail the migration when it runs.
                    if case .reference(let target) = new.type, old.referencedEntity != target {
                        step.detail = "same stored values, which must each name a row of \(target): the migration fails if one does not"
                        bag.warning(
                            "'\(entityName).\(new.name)' becomes a reference to \(target): if existing rows hold values that name no \(target), the migration fails and the database stays at version \(from.version)",
                            at: new.typeLocation)
                    }
                } else {
                    bag.error(refusedTypeChange(of: "\(entityName).\(new.name)", old, new, from: from, to: to), at: new.typeLocation)
                }
            case .enumCasesRemoved(let name, let cases):
                let spelled = cases.map { "\(name).\($0.name)" }
                let allowed = cases.allSatisfy { allowance(entity: name, field: $0.name) != nil }
                step.isDestructive = true
                step.allowedBy = cases.first.flatMap { hints.allows(entity: name, field: $0.name) }
                let decl = to.enumDecl(named: name)
                if !allowed {
                    bag.error(
                        "case\(cases.count == 1 ? "" : "s") \(spelled.joined(separator: ", ")) removed, but stored rows may still hold \(cases.count == 1 ? "it" : "them"); list \(spelled.map { "'\($0)'" }.joined(separator: ", ")) in migration.allowDataLoss to confirm",
                        at: decl?.location ?? fileStart)
                } else if let decl, decl.unknownCase == nil {
                    for entity in to.entities {
                        for field in entity.fields
                        where (field.type == .enumeration(name) || field.type == .array(.enumeration(name))) && field.transform == nil {
                            bag.error(
                                "rows of '\(entity.name).\(field.name)' may hold a removed case of \(name), which has no 'unknown' case to read them as: add 'unknown' to \(name) or a 'transform' to this field",
                                at: field.location)
                        }
                    }
                } else if let unknown = decl?.unknownCase {
                    step.detail = "stored values become \(unknown)"
                }
            case .enumRawValueChanged(let name, let item, _, _):
                // Raw values are remapped in enum columns, not inside arrays.
                for entity in to.entities {
                    for field in entity.fields where field.type == .array(.enumeration(name)) && field.transform == nil {
                        bag.error(
                            "the raw value of \(name).\(item) changes, but the arrays of '\(entity.name).\(field.name)' keep the old one: give this field a 'transform' that rewrites them",
                            at: field.location)
                    }
                }
            case .uniqueAdded(let entityName, let field):
                bag.warning(
                    "'\(entityName).\(field.name)' becomes unique: if existing rows hold duplicates the migration fails and the database stays at version \(from.version)",
                    at: field.location)
            case .indexAdded(let entityName, let index) where index.isUnique:
                if let entity = to.entity(named: entityName), diff.previous(of: entity) != nil {
                    bag.warning(
                        "unique index '\(index.name)' is added over existing rows: if they hold duplicates the migration fails and the database stays at version \(from.version)",
                        at: index.location)
                }
            case .primaryKeyChanged(let entityName, _, _):
                bag.warning(
                    "the primary key of '\(entityName)' changes: if existing rows repeat the new key the migration fails and the database stays at version \(from.version)",
                    at: to.entity(named: entityName)?.location ?? fileStart)
            default:
                break
            }
            if case .indexAdded(let entityName, let index) = change, index.isConcurrent,
                let entity = to.entity(named: entityName), let old = diff.previous(of: entity)
            {
                step.detail = concurrentIndexDetail(index, of: entity, old: old, from: from, bag: &bag)
            }
            steps.append(step)
        }
        func exists(_ item: DataLossAllowance) -> Bool {
            if let decl = from.enumDecl(named: item.entity) { return item.field.map { decl.case(named: $0) != nil } ?? true }
            if let decl = from.valueType(named: item.entity), decl.isJSON { return item.field.map { decl.member(named: $0) != nil } ?? false }
            guard let entity = from.entity(named: item.entity) else { return false }
            return item.field.map { entity.field(named: $0) != nil } ?? true
        }
        // Items naming nothing of N-1 are errors already (HistoryValidator); the others should remove something.
        for item in hints.allowDataLoss where !usedAllowances.contains(item) && exists(item) {
            bag.warning("allowDataLoss names '\(item.spelled)', but this version does not remove it", at: item.location)
        }
        var plan = MigrationPlan(diff: diff, steps: steps, diagnostics: bag.all)
        plan.diagnostics += LockWarnings.diagnostics(for: plan)
        plan.diagnostics += RollingExpand.diagnostics(for: plan)
        return plan
    }

    /// The step detail of an index built `CONCURRENTLY` on a table of N-1, or nil with an error
    /// when it cannot be: it is built before the version's transaction, so its table and columns
    /// must exist under their names of N-1.
    private static func concurrentIndexDetail(
        _ index: Index, of entity: Entity, old: Entity, from: Schema, bag: inout DiagnosticBag
    ) -> String? {
        let oldColumns = Set(old.fields.map(\.column))
        let problem: String?
        if old.table != entity.table {
            problem = "its table is renamed from '\(old.table)' to '\(entity.table)' in this version"
        } else if let missing = index.fields.compactMap({ entity.field(named: $0)?.column }).first(where: {
            !oldColumns.contains($0)
        }) {
            problem = "column '\(missing)' does not exist in version \(from.version)"
        } else {
            problem = nil
        }
        guard let problem else { return "PostgreSQL: built CONCURRENTLY, outside and before the version's transaction" }
        bag.error(
            "index '\(index.name)' is 'concurrently': PostgreSQL builds it before the version's transaction, on table '\(old.table)' as it is at version \(from.version), but \(problem); add it in a later version, or without 'concurrently'",
            at: index.location)
        return nil
    }

    /// The error for a type change that has no lossless conversion. A field that keeps its type's
    /// name says what changed under it: its enum's raw type, or the key type of the entity it references.
    private static func refusedTypeChange(of field: String, _ old: Field, _ new: Field, from: Schema, to: Schema) -> String {
        let fix = "give it a 'transform' that computes the new value"
        if old.type == new.type, let before = from.storageType(of: old), let after = to.storageType(of: new) {
            let cause: String
            switch new.type {
            case .enumeration(let name): cause = "the raw type of enum \(name) changes"
            case .value(let name): cause = "the storage of \(name) changes"
            case .reference(let name): cause = "the key of \(name) changes type"
            case .scalar, .array: cause = "its type changes"
            }
            return "\(cause), so '\(field)' stores \(after.name) instead of \(before.name), and no lossless conversion is known: \(fix)"
        }
        return "the type of '\(field)' changes from \(old.type) to \(new.type), and no lossless conversion is known: \(fix)"
    }

    /// An enum to its raw type, or to an enum holding every old raw value, keeps every value; raw values
    /// to an enum do not (values outside the cases).
    private static func enumConversionIsLossless(_ old: Field, _ new: Field, from: Schema, to: Schema) -> Bool {
        switch (old.type, new.type) {
        case (_, .enumeration(let name)):
            guard let target = to.enumDecl(named: name) else { return false }
            guard case .enumeration(let oldName) = old.type, let source = from.enumDecl(named: oldName) else { return false }
            let targetValues = Set(target.cases.map(\.rawValue))
            return source.cases.allSatisfy { targetValues.contains($0.rawValue) }
        default:
            return true
        }
    }
}
