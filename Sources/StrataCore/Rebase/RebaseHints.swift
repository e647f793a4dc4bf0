/// The hints of one of our versions (`renamedFrom` and `transform` on its elements, its
/// `migration:` block): what it says about the step from the version before it, which the
/// rebase puts back on the same elements of the rebased version.
struct RebaseHints {
    /// A hint on an entity (`field` nil) or a field, by our names.
    struct Hint {
        var entity: String
        var field: String?
        var key: String
        var value: VersionNode
    }

    var hints: [Hint] = []
    /// The `migration:` block.
    var migration: VersionNode?

    /// The hints of `node` (normalized: fields in their mapping form).
    init(of node: VersionNode) {
        migration = node["migration"]
        for entity in node["entities"]?.pairs ?? [] {
            for pair in entity.value.pairs where SnapshotMerge.entityHints.contains(pair.key) {
                hints.append(Hint(entity: entity.key, field: nil, key: pair.key, value: pair.value))
            }
            for field in entity.value["fields"]?.pairs ?? [] {
                for pair in field.value.pairs where SnapshotMerge.fieldHints.contains(pair.key) {
                    hints.append(Hint(entity: entity.key, field: field.key, key: pair.key, value: pair.value))
                }
            }
        }
    }

    /// Drops the hints `other` has too (the same value on the same element): those of a version
    /// edited in place that it had before the edit.
    mutating func remove(_ other: RebaseHints) {
        hints.removeAll { hint in
            other.hints.contains {
                $0.entity == hint.entity && $0.field == hint.field && $0.key == hint.key
                    && $0.value.canonical == hint.value.canonical
            }
        }
        guard case .mapping(let pairs, let origin)? = migration else { return }
        let remaining = pairs.filter { pair in other.migration?[pair.key]?.canonical != pair.value.canonical }
        migration = remaining.isEmpty ? nil : .mapping(remaining, origin)
    }

    /// Puts the hints on the elements of `node` (the merged version, in the result's names):
    /// a rename the target made too is dropped, `allowDataLoss` keeps the entries that name
    /// something of the version before (the target's names), and `allowLocks` follows the
    /// target's renames into the merged version's names.
    func rebase(
        into node: inout VersionNode, oursRenames: SnapshotRenames, theirsRenames: SnapshotRenames,
        result: SnapshotRenames, theirs: VersionNode
    ) {
        let inverse = oursRenames.inverse
        for hint in hints {
            let baseEntity = inverse.entities[hint.entity] ?? hint.entity
            let entity = result.entity(baseEntity)
            if hint.key == "renamedFrom", hint.field == nil,
                let from = hint.value.text, theirsRenames.entities[from] == hint.entity
            {
                continue
            }
            guard var entityNode = node["entities"]?[entity] else { continue }
            if let field = hint.field {
                let baseField = inverse.fields[hint.entity]?[field] ?? field
                let name = result.field(baseField, of: baseEntity)
                if hint.key == "renamedFrom", let from = hint.value.text,
                    theirsRenames.fields[baseEntity]?[from] == name
                {
                    continue
                }
                guard var fieldNode = entityNode["fields"]?[name] else { continue }
                fieldNode[hint.key] = hint.value
                entityNode["fields"]?[name] = fieldNode
            } else {
                entityNode[hint.key] = hint.value
            }
            node["entities"]?[entity] = entityNode
        }
        guard var migration else { return }
        if let loss = migration["allowDataLoss"] {
            let entries: [VersionNode] = loss.items.isEmpty && loss.text != nil ? [loss] : loss.items
            let kept = entries.compactMap { entry -> VersionNode? in
                guard case .scalar(var scalar) = entry else { return entry }
                let parts = scalar.text.split(separator: ".", maxSplits: 1).map(String.init)
                let entity = theirsRenames.entity(parts[0])
                if parts.count == 2 {
                    let field = theirsRenames.field(parts[1], of: parts[0])
                    let inTheirs =
                        theirs["entities"]?[entity]?["fields"]?[field] != nil
                        || (theirs["enums"]?[parts[0]]?["cases"].map { Self.hasCase($0, parts[1]) } ?? false)
                    guard inTheirs else { return nil }
                    scalar.text = theirs["enums"]?[parts[0]] != nil ? scalar.text : "\(entity).\(field)"
                } else {
                    guard theirs["entities"]?[entity] != nil || theirs["enums"]?[parts[0]] != nil else { return nil }
                    scalar.text = theirs["enums"]?[parts[0]] != nil ? scalar.text : entity
                }
                return .scalar(scalar)
            }
            migration["allowDataLoss"] = kept.isEmpty ? nil : .sequence(kept, loss.origin)
        }
        if let locks = migration["allowLocks"] {
            // Names of our version N: follow the target's renames into the merged version's names,
            // and keep only what still names an element of it (an enum keeps its name).
            let entries: [VersionNode] = locks.items.isEmpty && locks.text != nil ? [locks] : locks.items
            let kept = entries.compactMap { entry -> VersionNode? in
                guard case .scalar(var scalar) = entry else { return entry }
                let parts = scalar.text.split(separator: ".", maxSplits: 1).map(String.init)
                if node["enums"]?[parts[0]] != nil { return entry }
                let baseEntity = inverse.entities[parts[0]] ?? parts[0]
                let entity = result.entity(baseEntity)
                guard let entityNode = node["entities"]?[entity] else { return nil }
                if parts.count == 2 {
                    let baseField = inverse.fields[parts[0]]?[parts[1]] ?? parts[1]
                    let field = result.field(baseField, of: baseEntity)
                    guard entityNode["fields"]?[field] != nil else { return nil }
                    scalar.text = "\(entity).\(field)"
                } else {
                    scalar.text = entity
                }
                return .scalar(scalar)
            }
            migration["allowLocks"] = kept.isEmpty ? nil : .sequence(kept, locks.origin)
        }
        node["migration"] = migration.pairs.isEmpty ? nil : migration
    }

    private static func hasCase(_ cases: VersionNode, _ name: String) -> Bool {
        cases.items.contains { $0.text == name } || cases[name] != nil
    }
}
