import Foundation

/// What a branch does to a database, for the pull request that merges it
/// (`strata plan --base <ref> --format markdown`): per model, the versions the branch adds, each
/// migration step with whether it destroys data (and the `allowDataLoss` entry that allows it),
/// the lock it takes on PostgreSQL (``PostgresLock``) and whether SQLite rebuilds the table, the
/// entities and fields changed, and the generated files that change.
public struct PullRequestReport: Sendable {
    /// One model's part of the report.
    public struct ModelChanges: Sendable {
        /// The model name.
        public var model: String
        /// Its latest version on the base ref (0 when the branch adds the model).
        public var baseVersion: Int
        /// Version 1, when the branch adds the model (every table is created).
        public var created: Schema?
        /// The migrations the branch adds, oldest first (into versions above `baseVersion`).
        public var plans: [MigrationPlan]

        /// Creates a model's part.
        public init(model: String, baseVersion: Int, created: Schema? = nil, plans: [MigrationPlan]) {
            self.model = model
            self.baseVersion = baseVersion
            self.created = created
            self.plans = plans
        }

        /// The latest version on the branch.
        public var latestVersion: Int { plans.last?.to.version ?? created?.version ?? baseVersion }
    }

    /// How a generated file changes.
    public enum FileChange: String, Sendable {
        case added, changed, removed
    }

    /// The ref the branch is compared with (`origin/main`).
    public var ref: String
    /// The models, by name; models the branch does not change are left out.
    public var models: [ModelChanges]
    /// The generated files that differ from the ref's, by path.
    public var generatedFiles: [(path: String, change: FileChange)]
    /// The problems found (guard errors, frozen versions edited, …).
    public var diagnostics: [Diagnostic]

    /// Creates a report.
    public init(
        ref: String, models: [ModelChanges], generatedFiles: [(path: String, change: FileChange)] = [],
        diagnostics: [Diagnostic] = []
    ) {
        self.ref = ref
        self.models = models
        self.generatedFiles = generatedFiles
        self.diagnostics = diagnostics
    }

    /// The report as GitHub-flavoured Markdown, for a pull request comment.
    public var markdown: String {
        var lines = ["## Strata: schema changes against `\(ref)`", ""]
        let errors = diagnostics.filter { $0.severity == .error }.count
        if !diagnostics.isEmpty {
            lines.append(
                "**\(errors) error\(errors == 1 ? "" : "s"), \(diagnostics.count - errors) warning\(diagnostics.count - errors == 1 ? "" : "s")**"
            )
            lines.append("")
            lines.append("```")
            lines += diagnostics.map(\.description)
            lines.append("```")
            lines.append("")
        }
        let changed = models.filter { $0.created != nil || !$0.plans.isEmpty }
        if changed.isEmpty {
            lines.append("No new versions: this branch does not change any database.")
            lines.append("")
        }
        for model in changed { lines += Self.section(model) }
        if !generatedFiles.isEmpty {
            lines.append("<details><summary>Generated files: \(generatedFiles.count) changed</summary>")
            lines.append("")
            for file in generatedFiles { lines.append("- \(file.change.rawValue): `\(file.path)`") }
            lines.append("")
            lines.append("</details>")
            lines.append("")
        }
        return lines.joined(separator: "\n")
    }

    private static func section(_ model: ModelChanges) -> [String] {
        let count = model.latestVersion - model.baseVersion
        var lines = [
            "### \(model.model): v\(model.baseVersion) → v\(model.latestVersion) "
                + "(\(count) new version\(count == 1 ? "" : "s"))",
            "",
        ]
        let destructive = model.plans.flatMap(\.steps).filter(\.isDestructive)
        if !destructive.isEmpty {
            let unallowed = destructive.filter { $0.allowedBy == nil }.count
            lines.append(
                "> **\(destructive.count) destructive step\(destructive.count == 1 ? "" : "s")**"
                    + (unallowed > 0
                        ? ", \(unallowed) not allowed by `allowDataLoss`" : ", each allowed by `allowDataLoss`"))
            lines.append("")
        }
        if let created = model.created {
            lines.append("#### v0 → v1: a new model")
            lines.append("")
            lines.append(
                "Creates \(created.entities.count) table\(created.entities.count == 1 ? "" : "s"): "
                    + created.entities.map { "`\($0.table)` (\($0.name))" }.joined(separator: ", ") + ".")
            lines.append("")
        }
        for plan in model.plans {
            lines.append("#### v\(plan.from.version) → v\(plan.to.version)")
            lines.append("")
            let compatibility = MigrationCompatibility(plan)
            lines.append(
                compatibility.reason.map {
                    "Rolling deploy: **code of v\(plan.from.version) stops working** against v\(plan.to.version) "
                        + "(\(cell($0)))."
                } ?? "Rolling deploy: code of v\(plan.from.version) keeps working against v\(plan.to.version).")
            lines.append("")
            guard !plan.steps.isEmpty else {
                lines.append(plan.isEmpty ? "No changes." : "Only the version's own `before`/`after` SQL.")
                lines.append("")
                continue
            }
            let rebuilt = Set(MigrationSQLRenderer.sqliteRebuiltEntities(for: plan))
            lines.append("| Step | Data loss | PostgreSQL lock | SQLite |")
            lines.append("|---|---|---|---|")
            for (step, lock) in zip(plan.steps, plan.postgresLocks()) {
                lines.append(
                    "| \(cell(step.change.summary + (step.detail.map { " (\($0))" } ?? ""))) | \(cell(dataLoss(step))) "
                        + "| \(cell(lock.summary)) | \(cell(sqlite(step, plan: plan, rebuilt: rebuilt))) |"
                )
            }
            lines.append("")
            if plan.to.migration.before != nil || plan.to.migration.after != nil {
                lines.append("Runs the version's own SQL too (`migration.before`/`after`): review it in the diff.")
                lines.append("")
            }
            let touched = entitiesChanged(plan)
            if !touched.isEmpty {
                lines.append("Entities changed: " + touched.joined(separator: "; ") + ".")
                lines.append("")
            }
        }
        return lines
    }

    /// `yes, allowed by allowDataLoss 'Item.notes' (v4.yaml:12)`, `**yes, not allowed**`, or empty.
    static func dataLoss(_ step: MigrationStep) -> String {
        guard step.isDestructive else { return "" }
        guard let allowance = step.allowedBy else { return "**yes, not allowed**" }
        return
            "yes, allowed by `allowDataLoss: \(allowance.spelled)` (\(SchemaLoader.name(of: allowance.location.file)):\(allowance.location.line))"
    }

    /// Whether SQLite changes the step's table in place or rebuilds it.
    static func sqlite(_ step: MigrationStep, plan: MigrationPlan, rebuilt: Set<String>) -> String {
        switch step.change {
        case .entityAdded: return "new table"
        case .entityRemoved: return "drops the table"
        case .enumCasesAdded(let name, _), .enumCasesRemoved(let name, _), .enumRawValueChanged(let name, _, _, _):
            let users = plan.to.entities.filter { entity in
                rebuilt.contains(entity.name)
                    && entity.fields.contains { if case .enumeration(name) = $0.type { true } else { false } }
            }
            return users.isEmpty ? "in place" : "rebuilds " + users.map(\.table).joined(separator: ", ")
        default:
            guard let name = step.change.entityName, let entity = plan.to.entity(named: name) else { return "in place" }
            return rebuilt.contains(name) ? "rebuilds \(entity.table)" : "in place"
        }
    }

    /// Each entity the plan changes, with the fields it touches: `Item (fields: dueDate, notes)`.
    static func entitiesChanged(_ plan: MigrationPlan) -> [String] {
        var order: [String] = []
        var fields: [String: [String]] = [:]
        var kinds: [String: String] = [:]
        for change in plan.diff.changes {
            guard let entity = change.entityName else { continue }
            if fields[entity] == nil {
                order.append(entity)
                fields[entity] = []
            }
            switch change {
            case .entityAdded: kinds[entity] = "added"
            case .entityRemoved: kinds[entity] = "removed"
            case .entityRenamed(let from, _):
                kinds[entity] = from.name == entity ? "table renamed" : "renamed from \(from.name)"
            default: break
            }
            if let field = fieldName(of: change), !(fields[entity] ?? []).contains(field) {
                fields[entity, default: []].append(field)
            }
        }
        return order.map { entity in
            var parts: [String] = []
            if let kind = kinds[entity] { parts.append(kind) }
            if let names = fields[entity], !names.isEmpty { parts.append("fields: " + names.joined(separator: ", ")) }
            return "`\(entity)`" + (parts.isEmpty ? "" : " (\(parts.joined(separator: "; ")))")
        }
    }

    private static func fieldName(of change: SchemaChange) -> String? {
        switch change {
        case .fieldAdded(_, let field), .fieldRemoved(_, let field), .becameRequired(_, let field),
            .becameOptional(_, let field),
            .uniqueAdded(_, let field), .uniqueRemoved(_, let field):
            return field.name
        case .fieldRenamed(_, _, let to), .typeChanged(_, _, let to), .defaultChanged(_, _, let to),
            .referenceChanged(_, _, let to):
            return to.name
        default:
            return nil
        }
    }

    /// The generated files that differ between `base` and `head` (paths relative to the output
    /// folder), sorted by path.
    public static func fileChanges(base: [GeneratedFile], head: [GeneratedFile]) -> [(path: String, change: FileChange)]
    {
        let before = Dictionary(base.map { ($0.path, $0.contents) }, uniquingKeysWith: { first, _ in first })
        let after = Dictionary(head.map { ($0.path, $0.contents) }, uniquingKeysWith: { first, _ in first })
        var changes: [(path: String, change: FileChange)] = []
        for (path, contents) in after {
            if let old = before[path] {
                if old != contents { changes.append((path, .changed)) }
            } else {
                changes.append((path, .added))
            }
        }
        for path in before.keys where after[path] == nil { changes.append((path, .removed)) }
        return changes.sorted { $0.path < $1.path }
    }

    /// `text` for a table cell: `|` escaped, line breaks as spaces.
    static func cell(_ text: String) -> String {
        text.replacingOccurrences(of: "|", with: "\\|").replacingOccurrences(of: "\n", with: " ")
    }
}
