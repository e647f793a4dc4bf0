/// The three-way merge of version snapshots that `strata rebase` replays a branch's versions
/// with: the changes from `base` to `ours` are applied on top of `theirs`.
///
/// The snapshots are compared without their hints (`renamedFrom`, `transform`, `migration:`),
/// in the base's names (each side's renames undone first, so that a rename on one side carries
/// the other side's edits along), element by element: entities, enums, fields, indexes (by name,
/// else by their fields), `hasMany` and `checks` entries by name, and each of their properties.
/// Changes to different things commute; the same change on both sides is kept once; a property
/// changed two ways, an element removed on one side and changed on the other, and a name added
/// on both sides for different things are ``MergeConflict``s. Enum cases appended on both sides
/// are all kept, the target's first. Our hints are then put back where our elements are in the
/// result; the target's are not copied.
struct SnapshotMerge {
    /// The merged version (nil when there are conflicts).
    var result: VersionNode?
    /// The conflicts found.
    var conflicts: [MergeConflict] = []
    /// The renames from the base's names to the result's (our renames and the target's).
    var renames = SnapshotRenames()
    /// What one side removed and the merge applied.
    var removals: [NodeMerger.Removal] = []

    /// The hint keys of an entity and of a field: what one version says about the step from the
    /// version before it.
    static let entityHints: Set<String> = ["renamedFrom"]
    static let fieldHints: Set<String> = ["renamedFrom", "transform"]

    /// Merges the changes from `base` to `ours` into `theirs`, numbering the result `version`.
    /// `theirsRenames` are the target's renames since `base` (its hints are not in `theirs`
    /// alone when it is several versions ahead). `inPlace`: `ours` is an edit of `base` in
    /// place, whose hints are about the version before `base` too (only hints it adds are ours).
    init(
        base: VersionNode, ours: VersionNode, theirs: VersionNode, theirsRenames: SnapshotRenames, version: Int,
        inPlace: Bool
    ) {
        let base = base.normalizedForMerge()
        let ours = ours.normalizedForMerge()
        let theirs = theirs.normalizedForMerge()
        let oursRenames = inPlace ? SnapshotRenames() : SnapshotRenames(hintsOf: ours)
        var hints = RebaseHints(of: ours)
        if inPlace { hints.remove(RebaseHints(of: base)) }

        let oursInverse = oursRenames.inverse
        let theirsInverse = theirsRenames.inverse
        let b = base.strippingHints()
        let o = ours.strippingHints().renaming(entities: oursInverse.entities, fields: oursInverse.fields)
        let t = theirs.strippingHints().renaming(entities: theirsInverse.entities, fields: theirsInverse.fields)

        // Renames: both sides may rename one thing only to the same name.
        renames = theirsRenames
        for (entity, name) in oursRenames.entities {
            if let other = theirsRenames.entities[entity], other != name {
                conflicts.append(
                    MergeConflict(
                        message: "entity '\(entity)' is renamed to '\(name)' here and to '\(other)' by the target",
                        ours: ours["entities"]?.pairs.first { $0.key == name }?.keyOrigin,
                        theirs: theirs["entities"]?.pairs.first { $0.key == other }?.keyOrigin,
                        theirsSays: "the target renames '\(entity)' to '\(other)' here"))
            }
            renames.entities[entity] = name
        }
        for (entity, fields) in oursRenames.fields {
            for (field, name) in fields {
                if let other = theirsRenames.fields[entity]?[field], other != name {
                    conflicts.append(
                        MergeConflict(
                            message:
                                "field '\(entity).\(field)' is renamed to '\(name)' here and to '\(other)' by the target",
                            ours: ours["entities"]?[oursRenames.entity(entity)]?["fields"]?.origin(ofKey: name),
                            theirs: theirs["entities"]?[theirsRenames.entity(entity)]?["fields"]?.origin(ofKey: other),
                            theirsSays: "the target renames '\(entity).\(field)' to '\(other)' here"))
                }
                renames.fields[entity, default: [:]][field] = name
            }
        }

        var merger = NodeMerger()
        let merged = merger.mergeTop(b, o, t)
        conflicts += merger.conflicts
        removals = merger.removals
        guard conflicts.isEmpty, var node = merged else { return }
        node = node.renaming(entities: renames.entities, fields: renames.fields)
        node["version"] = .integer(version)
        if let model = theirs["model"] { node["model"] = model }
        hints.rebase(
            into: &node, oursRenames: oursRenames, theirsRenames: theirsRenames, result: renames, theirs: theirs)
        result = node
    }
}

extension VersionNode {
    /// Fields in their mapping form (`{ type: T }` for `T`) and indexes too (`{ fields: [...] }`),
    /// so that the shorthand and the long form compare equal.
    func normalizedForMerge() -> VersionNode {
        guard case .mapping(let entities, let origin)? = self["entities"] else { return self }
        var node = self
        node["entities"] = .mapping(
            entities.map { entity in
                var value = entity.value
                if case .mapping(let fields, let fieldsOrigin)? = value["fields"] {
                    value["fields"] = .mapping(
                        fields.map { field in
                            guard case .scalar(let scalar) = field.value else { return field }
                            return Pair(
                                key: field.key,
                                value: .mapping([Pair(key: "type", value: field.value, keyOrigin: nil)], scalar.origin),
                                keyOrigin: field.keyOrigin)
                        }, fieldsOrigin)
                }
                if case .sequence(let indexes, let indexesOrigin)? = value["indexes"] {
                    value["indexes"] = .sequence(
                        indexes.map { index in
                            guard case .sequence(_, let listOrigin) = index else { return index }
                            return .mapping([Pair(key: "fields", value: index, keyOrigin: nil)], listOrigin)
                        }, indexesOrigin)
                }
                return Pair(key: entity.key, value: value, keyOrigin: entity.keyOrigin)
            }, origin)
        return node
    }

    /// The snapshot without hints: no `migration`, no `renamedFrom` on entities, no
    /// `renamedFrom` or `transform` on fields.
    func strippingHints() -> VersionNode {
        var node = self
        node["migration"] = nil
        guard case .mapping(let entities, let origin)? = node["entities"] else { return node }
        node["entities"] = .mapping(
            entities.map { entity in
                guard case .mapping(var pairs, let entityOrigin) = entity.value else { return entity }
                pairs.removeAll { SnapshotMerge.entityHints.contains($0.key) }
                var value = VersionNode.mapping(pairs, entityOrigin)
                if case .mapping(let fields, let fieldsOrigin)? = value["fields"] {
                    value["fields"] = .mapping(
                        fields.map { field in
                            guard case .mapping(var fieldPairs, let fieldOrigin) = field.value else { return field }
                            fieldPairs.removeAll { SnapshotMerge.fieldHints.contains($0.key) }
                            return Pair(
                                key: field.key, value: .mapping(fieldPairs, fieldOrigin), keyOrigin: field.keyOrigin)
                        }, fieldsOrigin)
                }
                return Pair(key: entity.key, value: value, keyOrigin: entity.keyOrigin)
            }, origin)
        return node
    }
}
