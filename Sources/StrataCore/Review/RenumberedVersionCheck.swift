/// A version a branch renumbered by hand after a merge (its `v4.yaml` renamed `v5.yaml` because
/// the target also added a v4) is a snapshot written without the target's v4: the migration from
/// the target's v4 into it undoes the target's changes (an index dropped, a default reverted)
/// without a word. `strata check --base` and `strata plan --base` warn about each such undo.
public enum RenumberedVersionCheck {
    /// A warning for every change of the branch's first new version (`baseVersion + 1`) that
    /// undoes a change the target made in the versions after `mergeBaseVersion` up to
    /// `baseVersion` (its latest). `plans` are the model's migration plans on the branch.
    public static func warnings(
        plans: [MigrationPlan], baseVersion: Int, mergeBaseVersion: Int, ref: String
    ) -> [Diagnostic] {
        guard let ours = plans.first(where: { $0.to.version == baseVersion + 1 }) else { return [] }
        let theirs = plans.filter { $0.to.version > mergeBaseVersion && $0.to.version <= baseVersion }
        var warnings: [Diagnostic] = []
        for change in ours.diff.changes {
            for plan in theirs {
                guard let undone = plan.diff.changes.first(where: { change.undoes($0) }) else { continue }
                let location =
                    change.entityName.flatMap { ours.to.entity(named: $0)?.location } ?? .file(ours.to.file)
                warnings.append(
                    Diagnostic(
                        .warning,
                        "v\(ours.to.version).yaml undoes '\(undone.summary)' of v\(plan.to.version).yaml on \(ref): if "
                            + "v\(ours.to.version) was written before \(ref)'s v\(plan.to.version) and renumbered by hand, "
                            + "run `strata rebase` to replay it on top; if the undo is meant, ignore this warning",
                        at: location))
                break
            }
        }
        return warnings
    }
}

extension SchemaChange {
    /// True when this change (in a later version) puts back what `earlier` changed.
    func undoes(_ earlier: SchemaChange) -> Bool {
        switch (self, earlier) {
        case (.indexRemoved(let entity, let index), .indexAdded(let other, let added)),
            (.indexAdded(let entity, let index), .indexRemoved(let other, let added)):
            return entity == other && index.name == added.name
        case (.fieldRemoved(let entity, let field), .fieldAdded(let other, let added)),
            (.fieldAdded(let entity, let field), .fieldRemoved(let other, let added)),
            (.becameOptional(let entity, let field), .becameRequired(let other, let added)),
            (.becameRequired(let entity, let field), .becameOptional(let other, let added)),
            (.uniqueRemoved(let entity, let field), .uniqueAdded(let other, let added)),
            (.uniqueAdded(let entity, let field), .uniqueRemoved(let other, let added)):
            return entity == other && field.name == added.name
        case (.entityRemoved(let entity), .entityAdded(let added)),
            (.entityAdded(let entity), .entityRemoved(let added)):
            return entity.name == added.name
        case (.defaultChanged(let entity, let from, let to), .defaultChanged(let other, let before, let after)):
            return entity == other && to.name == after.name && to.defaultValue == before.defaultValue
                && from.defaultValue == after.defaultValue
        case (.typeChanged(let entity, let from, let to), .typeChanged(let other, let before, let after)):
            return entity == other && to.name == after.name && to.type == before.type && from.type == after.type
        case (.fieldRenamed(let entity, let from, let to), .fieldRenamed(let other, let before, let after)):
            return entity == other && from.name == after.name && to.name == before.name
        case (.entityRenamed(let from, let to), .entityRenamed(let before, let after)):
            return from.name == after.name && to.name == before.name
        case (.referenceChanged(let entity, let from, let to), .referenceChanged(let other, let before, let after)):
            return entity == other && to.name == after.name && to.type == before.type && to.onDelete == before.onDelete
                && from.type == after.type && from.onDelete == after.onDelete
        case (.primaryKeyChanged(let entity, let from, let to), .primaryKeyChanged(let other, let before, let after)):
            return entity == other && from == after && to == before
        case (.enumCasesRemoved(let name, let cases), .enumCasesAdded(let other, let added)),
            (.enumCasesAdded(let name, let cases), .enumCasesRemoved(let other, let added)):
            return name == other && !Set(cases.map(\.name)).isDisjoint(with: added.map(\.name))
        case (
            .enumRawValueChanged(let name, let item, let from, let to),
            .enumRawValueChanged(let other, let otherItem, let before, let after)
        ):
            return name == other && item == otherItem && from == after && to == before
        default:
            return false
        }
    }
}
