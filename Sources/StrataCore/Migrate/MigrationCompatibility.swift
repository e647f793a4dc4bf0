/// Whether the code Strata generated for version N-1 of a model keeps working against a database
/// migrated to version N (a rolling deploy: instances at N-1 still run, or restart, after N was
/// applied), decided from the migration's typed changes.
///
/// Compatible: only additive or relaxing changes — new entities; new optional fields; new
/// required fields with a default (N-1's `INSERT` omits the column, the database fills it) that
/// are not unique; new non-unique indexes; a unique constraint, a check or an index removed;
/// defaults changed; renames that keep the table and column names; enum cases added to an enum
/// whose N-1 declaration has an `unknown` case.
///
/// Breaking, each with its reason: a table or column renamed; an entity or field removed; a type,
/// reference or primary key changed; a field made required; a field made optional (N can store
/// NULL, which N-1's non-optional property cannot read); a required field without default, a
/// field filled or rewritten by a transform, a new required unique field; a field or an index
/// made unique; enum cases removed or their raw values changed; enum cases added to an enum
/// without an `unknown` case (N-1 cannot read a row holding a new case); the version's own SQL
/// (`migration.before`/`after`), which Strata cannot read. (Checks cannot change between
/// versions: the validator refuses it.)
public struct MigrationCompatibility: Hashable, Sendable {
    /// The version N the migration leads to.
    public var version: Int
    /// Why code of N-1 cannot run against a database at N, one reason per breaking change
    /// (`renames Post.title to headline (column title -> headline)`); empty when it can.
    public var reasons: [String]

    /// For a rolling version's expand (``init(_:expanded:)``): why code of N-1 stops working once
    /// the contract has run (the reasons of the version applied whole); nil otherwise.
    public var contractReasons: [String]?
    /// A breaking change with its reason (no change: a reason of the version as a whole).
    struct Breaking: Hashable, Sendable {
        var reason: String
        var change: SchemaChange?
    }

    /// The breaking changes with their reasons.
    var breaking: [Breaking] = []

    /// True when code of N-1 keeps working against a database at N.
    public var isCompatible: Bool { reasons.isEmpty }

    /// The reasons of ``contractReasons`` as one line, nil when there are none.
    public var contractReason: String? {
        guard let contractReasons, !contractReasons.isEmpty else { return nil }
        return contractReasons.joined(separator: "; ")
    }

    /// The reasons as one line (`renames …; removes …`), nil when compatible: what the ledger's
    /// `incompatibility` records.
    public var reason: String? { reasons.isEmpty ? nil : reasons.joined(separator: "; ") }

    /// The line migration files and `strata plan` show: `Compatible with code of version N-1: yes`,
    /// or `no (reason; reason)`.
    /// A rolling version's expand says until when: `yes, until the contract (then no (reasons))`.
    public var line: String {
        let verdict = reason.map { "no (\($0))" } ?? "yes"
        guard let contract = contractReason else { return "Compatible with code of version \(version - 1): " + verdict }
        return "Compatible with code of version \(version - 1): \(verdict), until the contract (then no (\(contract)))"
    }

    /// The compatibility of `plan`'s migration; with `expanded`, of a rolling version's expand
    /// (``RollingExpand``, PostgreSQL), which keeps code of N-1 working across the changes it
    /// keeps side by side until the contract (``contractReasons``).
    public init(_ plan: MigrationPlan, expanded: Bool = false) {
        version = plan.to.version
        var breaking: [Breaking] = []
        func add(_ reason: String, _ change: SchemaChange?) {
            if !breaking.contains(where: { $0.reason == reason }) { breaking.append(Breaking(reason: reason, change: change)) }
        }
        for change in plan.diff.changes {
            if let reason = Self.reason(change, plan: plan) { add(reason, change) }
        }
        for entity in plan.to.entities {
            guard let old = plan.previous(of: entity) else { continue }
            for reason in Self.fieldReasons(entity, old: old, plan: plan) { add(reason, nil) }
        }
        if plan.to.migration.before != nil {
            add("runs its own SQL (migration.before), which Strata cannot classify", nil)
        }
        if plan.to.migration.after != nil {
            add("runs its own SQL (migration.after), which Strata cannot classify", nil)
        }
        if expanded, let expand = RollingExpand(plan) {
            contractReasons = breaking.map(\.reason)
            breaking = breaking.filter { item in item.change.map { !expand.keeps($0) } ?? true }
        }
        self.breaking = breaking
        self.reasons = breaking.map(\.reason)
    }

    /// Creates a compatibility from its parts.
    public init(version: Int, reasons: [String], contractReasons: [String]? = nil) {
        self.version = version
        self.reasons = reasons
        self.contractReasons = contractReasons
        breaking = reasons.map { Breaking(reason: $0, change: nil) }
    }

    /// For each version of `plans` (the migrations of a model's history, each into its `to`), the
    /// oldest version whose code can run against a database at it: the version itself when its
    /// migration is breaking, else the one its previous version allows (additive changes add up:
    /// code that runs against N-1 runs against N). Version 1 allows only itself.
    ///
    /// With `expanded` (PostgreSQL), a rolling version's value is that of its expand; the
    /// versions after it count from its contract, which runs before them.
    public static func compatibleFrom(_ plans: [MigrationPlan], expanded: Bool = false) -> [Int: Int] {
        var result: [Int: Int] = [1: 1]
        // What a rolling version's successors count from: its value after the contract.
        var contracted: [Int: Int] = [:]
        for plan in plans.sorted(by: { $0.to.version < $1.to.version }) {
            let version = plan.to.version
            let previous = contracted[plan.from.version] ?? result[plan.from.version] ?? plan.from.version
            let compatibility = MigrationCompatibility(plan, expanded: expanded)
            result[version] = plan.from.version == version - 1 && compatibility.isCompatible ? previous : version
            if compatibility.contractReason != nil { contracted[version] = version }
        }
        return result
    }

    /// Why `change` breaks code of N-1, or nil when it does not.
    private static func reason(_ change: SchemaChange, plan: MigrationPlan) -> String? {
        let old = plan.from.version
        switch change {
        case .entityAdded, .defaultChanged, .uniqueRemoved, .indexRemoved:
            return nil
        case .searchChanged:
            // Kept in step by the database (SQLite's triggers, PostgreSQL's generated column).
            return nil
        case .entityRemoved(let entity):
            return "removes \(entity.name) (table \(entity.table))"
        case .entityRenamed(let from, let to):
            guard from.table != to.table else { return nil }
            return from.name == to.name
                ? "renames the table of \(to.name) from \(from.table) to \(to.table)"
                : "renames \(from.name) to \(to.name) (table \(from.table) -> \(to.table))"
        case .fieldAdded(let entity, let field):
            if field.transform != nil {
                return "fills the new \(entity).\(field.name) by a transform, which rows code of v\(old) inserts do not get"
            }
            guard !field.isOptional else { return nil }
            if field.defaultValue == nil && field.sqlDefault == nil && !field.isAutoincrement {
                return "adds the required \(entity).\(field.name) without a default: code of v\(old) inserts no value for it"
            }
            if field.isUnique {
                return "adds the required unique \(entity).\(field.name): every row code of v\(old) inserts gets the same default"
            }
            return nil
        case .fieldRemoved(let entity, let field):
            return "removes \(entity).\(field.name) (column \(field.column))"
        case .fieldRenamed(let entity, let from, let to):
            guard from.column != to.column else { return nil }
            return from.name == to.name
                ? "renames the column of \(entity).\(to.name) from \(from.column) to \(to.column)"
                : "renames \(entity).\(from.name) to \(to.name) (column \(from.column) -> \(to.column))"
        case .typeChanged(let entity, let from, let to):
            return "changes the type of \(entity).\(to.name) from \(from.type)\(from.isOptional ? "?" : "") to \(to.type)\(to.isOptional ? "?" : "")"
        case .becameRequired(let entity, let field):
            return "makes \(entity).\(field.name) required"
        case .becameOptional(let entity, let field):
            return "makes \(entity).\(field.name) optional: code of v\(old) cannot read a row without it"
        case .uniqueAdded(let entity, let field):
            return "makes \(entity).\(field.name) unique"
        case .referenceChanged(let entity, _, let to):
            return "changes the reference \(entity).\(to.name)"
        case .primaryKeyChanged(let entity, _, _):
            return "changes the primary key of \(entity)"
        case .indexAdded(let entity, let index):
            guard index.isUnique else { return nil }
            return "adds the unique index \(index.name) on \(entity)(\(index.fields.joined(separator: ", ")))"
        case .enumCasesAdded(let name, let cases):
            // N-1's code reads an unknown raw value as its `unknown` case, when it declares one.
            if plan.from.enumDecl(named: name)?.unknownCase != nil { return nil }
            let names = cases.map(\.name).joined(separator: ", ")
            return "adds \(cases.count == 1 ? "the case" : "the cases") \(names) to \(name): code of v\(old) cannot read a row holding \(cases.count == 1 ? "it" : "them")"
        case .enumCasesRemoved(let name, let cases):
            return "removes \(cases.count == 1 ? "the case" : "the cases") \(cases.map(\.name).joined(separator: ", ")) from \(name)"
        case .enumRawValueChanged(let name, let item, _, _):
            return "changes the raw value of \(name).\(item)"
        case .jsonReshaped(let entity, let field, let edits):
            // Code of N-1 ignores members it does not know and reads a default where one is
            // missing; it cannot read a member renamed, removed or recomputed.
            let breaking = edits.filter { if case .fill = $0 { false } else { true } }
            guard !breaking.isEmpty else { return nil }
            return "reshapes the JSON of \(entity).\(field.name) (\(breaking.map(\.summary).joined(separator: ", ")))"
        }
    }

    /// What the typed changes do not tell about the fields of a continued entity: a transform
    /// rewriting a kept field's values. (A column's check, declared SQL type or a table's checks
    /// cannot change between versions: the validator refuses it.)
    private static func fieldReasons(_ entity: Entity, old: Entity, plan: MigrationPlan) -> [String] {
        entity.fields.compactMap { field in
            guard SchemaDiff.previous(of: field, in: old) != nil, field.transform != nil else { return nil }
            return "rewrites \(entity.name).\(field.name) by a transform, which rows code of v\(plan.from.version) "
                + "writes do not get"
        }
    }
}
