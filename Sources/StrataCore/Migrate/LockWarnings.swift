/// The warnings for steps that, on PostgreSQL, hold ACCESS EXCLUSIVE on a table that exists at
/// N-1 while they read or write its rows (``PostgresLock``: a scan, an update of every row, a
/// rewrite): every read and write of the table waits until the migration commits, for as long as
/// the table takes to read. `migration.allowLocks` acknowledges them (`Entity`, `Entity.field`
/// or `Enum`, names of version N); an item that acknowledges no such step is a warning too. A
/// step whose line has an error already (a refused type change, a missing default) is not warned
/// about: it cannot run as written.
enum LockWarnings {
    /// The warnings for `plan`, at the element of version N each step comes from.
    static func diagnostics(for plan: MigrationPlan) -> [Diagnostic] {
        var bag = DiagnosticBag()
        var used: Set<DataLossAllowance> = []
        let to = plan.to
        let fileStart = SourceLocation.file(to.file)
        let lines = Set(
            plan.diagnostics.filter { $0.severity == .error }.map { "\($0.location.file):\($0.location.line)" })
        var lockedFirst: Set<String>?
        for step in plan.steps {
            // Catalog-only steps and new tables need no renderer: most steps stop here.
            let quick = PostgresLock.of(step.change)
            guard quick.mode == .accessExclusive, quick.work > .catalogOnly,
                let subject = subject(of: step.change, in: plan)
            else { continue }
            let locked = lockedFirst ?? PostgresMigrationRenderer(plan: plan).tablesLockedFirst()
            lockedFirst = locked
            let lock = plan.postgresLock(of: step, tablesLockedFirst: locked)
            guard lock.mode == .accessExclusive, lock.work > .catalogOnly, !lock.outsideTransaction else { continue }
            if let allowance = to.migration.allowsLock(entity: subject.entity, field: subject.field) {
                used.insert(allowance)
                continue
            }
            if let location = subject.location, lines.contains("\(location.file):\(location.line)") { continue }
            let tables = subject.tables.map { "'\($0)'" }.joined(separator: ", ")
            let spelled = subject.field.map { "\(subject.entity).\($0)" } ?? subject.entity
            bag.warning(
                "\(subject.action) \(work(lock.work)) \(subject.tables.count == 1 ? "table" : "tables") \(tables) under ACCESS EXCLUSIVE on PostgreSQL (reads and writes wait until the migration commits); acknowledge with migration.allowLocks: [\(spelled)]",
                at: subject.location ?? fileStart)
        }
        for item in to.migration.allowLocks where !used.contains(item) && names(item, in: to) {
            bag.warning(
                "allowLocks names '\(item.spelled)', but no step of this version holds ACCESS EXCLUSIVE on its table while reading or writing rows",
                at: item.location)
        }
        return bag.all
    }

    /// What a warning says of a step: what it does, to which tables (of N-1), where it is written,
    /// and the name that acknowledges it.
    private struct Subject {
        var action: String
        var entity: String
        var field: String?
        var tables: [String]
        var location: SourceLocation?
    }

    private static func subject(of change: SchemaChange, in plan: MigrationPlan) -> Subject? {
        let to = plan.to
        func table(_ name: String) -> [String]? {
            guard let entity = to.entity(named: name), let old = plan.previous(of: entity) else { return nil }
            return [old.table]
        }
        func field(_ action: String, _ entity: String, _ field: Field) -> Subject? {
            table(entity).map {
                Subject(
                    action: "\(action) '\(entity).\(field.name)'", entity: entity, field: field.name, tables: $0,
                    location: field.location)
            }
        }
        func enumeration(_ action: String, _ name: String) -> Subject? {
            let tables = to.entities.compactMap { entity -> String? in
                guard entity.fields.contains(where: { $0.type == .enumeration(name) }) else { return nil }
                return plan.previous(of: entity)?.table
            }
            guard !tables.isEmpty else { return nil }
            return Subject(
                action: "\(action) enum '\(name)'", entity: name, tables: tables,
                location: to.enumDecl(named: name)?.location)
        }
        switch change {
        case .fieldAdded(let entity, let added): return field("adding", entity, added)
        case .typeChanged(let entity, _, let to): return field("changing the type of", entity, to)
        case .becameRequired(let entity, let required):
            return field("making", entity, required).map {
                var subject = $0
                subject.action += " required"
                return subject
            }
        case .uniqueAdded(let entity, let unique):
            return field("making", entity, unique).map {
                var subject = $0
                subject.action += " unique"
                return subject
            }
        case .referenceChanged(let entity, _, let to): return field("changing the reference", entity, to)
        case .primaryKeyChanged(let name, _, _):
            return table(name).map {
                Subject(
                    action: "changing the primary key of '\(name)'", entity: name, tables: $0,
                    location: to.entity(named: name)?.location)
            }
        case .indexAdded(let name, let index):
            return table(name).map {
                Subject(action: "adding index '\(index.name)'", entity: name, tables: $0, location: index.location)
            }
        case .searchChanged(let name, _, let search?):
            return table(name).map {
                Subject(
                    action: "adding the full-text search column of '\(name)'", entity: name, tables: $0,
                    location: search.location)
            }
        case .enumCasesAdded(let name, _): return enumeration("adding cases to", name)
        case .enumCasesRemoved(let name, _): return enumeration("removing cases from", name)
        case .enumRawValueChanged(let name, _, _, _): return enumeration("changing raw values of", name)
        default: return nil
        }
    }

    private static func work(_ work: PostgresLock.Work) -> String {
        switch work {
        case .catalogOnly: "changes"
        case .scan: "reads every row of"
        case .updatesRows: "updates rows of"
        case .rewrite: "rewrites"
        }
    }

    /// True when `item` names something of `schema` (the others are errors already).
    private static func names(_ item: DataLossAllowance, in schema: Schema) -> Bool {
        if schema.enumDecl(named: item.entity) != nil { return item.field == nil }
        guard let entity = schema.entity(named: item.entity) else { return false }
        return item.field.map { entity.field(named: $0) != nil } ?? true
    }
}
