/// The element-by-element three-way merge of hint-free snapshots in the base's names (see
/// ``SnapshotMerge``), collecting conflicts.
struct NodeMerger {
    /// The conflicts found so far.
    var conflicts: [MergeConflict] = []
    /// The removals one side made and the merge applied, to point at when the other side turns
    /// out to use what was removed.
    var removals: [Removal] = []

    /// An element one side removed: its name, what it is, and where its parent is on that side.
    struct Removal: Sendable {
        var name: String
        var what: String
        var origin: NodeOrigin?
        var byTarget: Bool
    }

    /// The parents of the nodes being merged on each side, to locate a removal.
    struct Parents {
        var ours: NodeOrigin?
        var theirs: NodeOrigin?
    }

    /// Merges whole version files.
    mutating func mergeTop(_ b: VersionNode, _ o: VersionNode, _ t: VersionNode) -> VersionNode? {
        let parents = Parents(ours: o.origin, theirs: t.origin)
        return mergeProperties(b, o, t, what: "the version", parents: parents) { merger, key, bv, ov, tv, parents in
            switch key {
            case "version", "model":
                // Set by the rebase: the target's model name, the new number.
                return tv ?? ov
            case "entities":
                return merger.mergeKeyed(bv, ov, tv, kind: "entity", prefix: "", parents: parents) {
                    merger, name, bv, ov, tv, parents in
                    merger.mergeEntity(name, bv, ov, tv, parents: parents)
                }
            case "enums":
                return merger.mergeKeyed(bv, ov, tv, kind: "enum", prefix: "", parents: parents) {
                    merger, name, bv, ov, tv, parents in
                    merger.mergeProperties(bv, ov, tv, what: "enum '\(name)'", parents: parents) {
                        merger, key, bv, ov, tv, parents in
                        key == "cases"
                            ? merger.mergeCases(bv, ov, tv, what: "the cases of enum '\(name)'", parents: parents)
                            : merger.value(bv, ov, tv, what: "'\(key)' of enum '\(name)'", parents: parents)
                    }
                }
            default:
                return merger.value(bv, ov, tv, what: "'\(key)'", parents: parents)
            }
        }
    }

    private mutating func mergeEntity(
        _ name: String, _ b: VersionNode?, _ o: VersionNode, _ t: VersionNode, parents: Parents
    ) -> VersionNode? {
        mergeProperties(b, o, t, what: "entity '\(name)'", parents: parents) { merger, key, bv, ov, tv, parents in
            switch key {
            case "fields":
                return merger.mergeKeyed(bv, ov, tv, kind: "field", prefix: "\(name).", parents: parents) {
                    merger, field, bv, ov, tv, parents in
                    merger.mergeProperties(bv, ov, tv, what: "field '\(name).\(field)'", parents: parents) {
                        merger, option, bv, ov, tv, parents in
                        merger.value(bv, ov, tv, what: "'\(option)' of field '\(name).\(field)'", parents: parents)
                    }
                }
            case "hasMany", "checks":
                let kind = key == "hasMany" ? "hasMany entry" : "check"
                return merger.mergeKeyed(bv, ov, tv, kind: kind, prefix: "\(name).", parents: parents) {
                    merger, entry, bv, ov, tv, parents in
                    merger.value(bv, ov, tv, what: "\(kind) '\(name).\(entry)'", parents: parents)
                }
            case "indexes":
                return merger.mergeIndexes(bv, ov, tv, entity: name, parents: parents)
            default:
                return merger.value(bv, ov, tv, what: "'\(key)' of entity '\(name)'", parents: parents)
            }
        }
    }

    /// A single value: taken from the side that changed it, once when both changed it alike.
    mutating func value(
        _ b: VersionNode?, _ o: VersionNode?, _ t: VersionNode?, what: String, parents: Parents
    ) -> VersionNode? {
        let (bc, oc, tc) = (b?.canonical, o?.canonical, t?.canonical)
        if oc == tc { return o }
        if oc == bc { return t }
        if tc == bc { return o }
        let theirsSays: String
        switch t {
        case nil: theirsSays = "the target removes \(what)"
        case .scalar(let scalar)?: theirsSays = "the target sets it to '\(scalar.text)' here"
        default: theirsSays = "the target changes it here"
        }
        let oursSays = o == nil ? "removed here" : b == nil ? "added here" : "changed here"
        conflicts.append(
            MergeConflict(
                message: "\(what) is \(oursSays) and differently by the target",
                ours: o?.origin ?? parents.ours, theirs: t?.origin ?? parents.theirs, theirsSays: theirsSays))
        return o
    }

    /// A mapping of properties, each merged by `merge`, in the target's order, our new keys after
    /// their predecessor.
    mutating func mergeProperties(
        _ b: VersionNode?, _ o: VersionNode, _ t: VersionNode, what: String, parents: Parents,
        merge: (inout NodeMerger, String, VersionNode?, VersionNode?, VersionNode?, Parents) -> VersionNode?
    ) -> VersionNode? {
        let inner = Parents(ours: o.origin ?? parents.ours, theirs: t.origin ?? parents.theirs)
        var merged: [VersionNode.Pair] = []
        for key in Self.keyOrder(ours: o.pairs.map(\.key), theirs: t.pairs.map(\.key)) {
            let (bv, ov, tv) = (b?[key], o[key], t[key])
            if let value = merge(&self, key, bv, ov, tv, inner) {
                let keyOrigin = (tv != nil ? t.origin(ofKey: key) : nil) ?? o.origin(ofKey: key)
                merged.append(VersionNode.Pair(key: key, value: value, keyOrigin: keyOrigin))
            }
        }
        return .mapping(merged, t.origin ?? o.origin)
    }

    /// A mapping of named elements (entities, enums, fields, …): each added, removed, kept or
    /// merged by `element`; a removal on one side of what the other changed, and one name added
    /// on both sides for different things, are conflicts.
    mutating func mergeKeyed(
        _ b: VersionNode?, _ o: VersionNode?, _ t: VersionNode?, kind: String, prefix: String, parents: Parents,
        element: (inout NodeMerger, String, VersionNode?, VersionNode, VersionNode, Parents) -> VersionNode?
    ) -> VersionNode? {
        guard o != nil || t != nil else { return nil }
        let inner = Parents(ours: o?.origin ?? parents.ours, theirs: t?.origin ?? parents.theirs)
        let oursKeys = o?.pairs.map(\.key) ?? []
        let theirsKeys = t?.pairs.map(\.key) ?? []
        var merged: [VersionNode.Pair] = []
        for key in Self.keyOrder(ours: oursKeys, theirs: theirsKeys) {
            let (bv, ov, tv) = (b?[key], o?[key], t?[key])
            let name = "\(kind) '\(prefix)\(key)'"
            let oursKey = o?.pairs.first { $0.key == key }?.keyOrigin
            let theirsKey = t?.pairs.first { $0.key == key }?.keyOrigin
            var value: VersionNode?
            switch (bv, ov, tv) {
            case (_, let ov?, let tv?):
                if bv == nil && ov.canonical != tv.canonical {
                    conflicts.append(
                        MergeConflict(
                            message: "\(name) is added here and, differently, by the target",
                            ours: oursKey, theirs: theirsKey, theirsSays: "the target adds \(name) here"))
                    value = ov
                } else if let bv {
                    value = element(&self, key, bv, ov, tv, inner)
                } else {
                    value = ov
                }
            case (let bv?, let ov?, nil):
                removed(key, what: name, base: bv, kept: ov, byTarget: true, keptAt: oursKey, parents: inner)
            case (let bv?, nil, let tv?):
                removed(key, what: name, base: bv, kept: tv, byTarget: false, keptAt: theirsKey, parents: inner)
            case (nil, let ov?, nil): value = ov
            case (nil, nil, let tv?): value = tv
            default: value = nil
            }
            if let value {
                merged.append(VersionNode.Pair(key: key, value: value, keyOrigin: theirsKey ?? oursKey))
            }
        }
        return .mapping(merged, t?.origin ?? o?.origin)
    }

    /// An element one side removed (the target when `byTarget`) and the other `kept`: the
    /// removal when the other side left it as in the base, else a conflict.
    private mutating func removed(
        _ key: String, what name: String, base: VersionNode, kept: VersionNode, byTarget: Bool, keptAt: NodeOrigin?,
        parents: Parents
    ) {
        let removedAt = byTarget ? parents.theirs : parents.ours
        guard base.canonical != kept.canonical else {
            removals.append(Removal(name: key, what: name, origin: removedAt, byTarget: byTarget))
            return
        }
        conflicts.append(
            byTarget
                ? MergeConflict(
                    message: "\(name) is changed here, but the target removes it",
                    ours: keptAt, theirs: removedAt, theirsSays: "the target removes \(name) from here")
                : MergeConflict(
                    message: "\(name) is removed here, but the target changes it",
                    ours: removedAt, theirs: keptAt, theirsSays: "the target changes \(name) here"))
    }

    /// Indexes, matched by name, else by their fields.
    private mutating func mergeIndexes(
        _ b: VersionNode?, _ o: VersionNode?, _ t: VersionNode?, entity: String, parents: Parents
    ) -> VersionNode? {
        func keyed(_ node: VersionNode?) -> VersionNode? {
            guard let node else { return nil }
            return .mapping(
                node.items.map { index in
                    let key =
                        index["name"]?.text.map { "'\($0)'" } ?? "on "
                        + VersionNodeRenderer.flow(index["fields"] ?? index)
                    return VersionNode.Pair(key: key, value: index, keyOrigin: index.origin)
                }, node.origin)
        }
        let merged = mergeKeyed(keyed(b), keyed(o), keyed(t), kind: "index", prefix: "", parents: parents) {
            merger, key, bv, ov, tv, parents in
            merger.value(bv, ov, tv, what: "index \(key) of '\(entity)'", parents: parents)
        }
        guard let merged, !merged.pairs.isEmpty || o?.items.isEmpty == false || t?.items.isEmpty == false else {
            return merged.map { _ in .sequence([], t?.origin ?? o?.origin) }
        }
        return .sequence(merged.pairs.map(\.value), t?.origin ?? o?.origin)
    }

    /// Enum cases: both sides appending to the base's list keeps every case, the target's first;
    /// a mapping of raw values merges by case name.
    private mutating func mergeCases(
        _ b: VersionNode?, _ o: VersionNode?, _ t: VersionNode?, what: String, parents: Parents
    ) -> VersionNode? {
        if case .sequence(let baseItems, _)? = b, case .sequence(let oursItems, _)? = o,
            case .sequence(let theirsItems, let origin)? = t
        {
            let baseNames = baseItems.map(\.canonical)
            if oursItems.count >= baseItems.count, theirsItems.count >= baseItems.count,
                Array(oursItems.prefix(baseItems.count).map(\.canonical)) == baseNames,
                Array(theirsItems.prefix(baseItems.count).map(\.canonical)) == baseNames
            {
                var items = theirsItems
                let known = Set(theirsItems.map(\.canonical))
                items += oursItems.dropFirst(baseItems.count).filter { !known.contains($0.canonical) }
                return .sequence(items, origin)
            }
        }
        if case .mapping? = o, case .mapping? = t, b == nil || b?.isMapping == true {
            return mergeKeyed(b, o, t, kind: "case", prefix: "", parents: parents) {
                merger, name, bv, ov, tv, parents in
                merger.value(bv, ov, tv, what: "the raw value of case '\(name)'", parents: parents)
            }
        }
        return value(b, o, t, what: what, parents: parents)
    }

    /// The target's keys in order, each of ours that it lacks after the key before it in ours.
    static func keyOrder(ours: [String], theirs: [String]) -> [String] {
        let theirsKeys = Set(theirs)
        guard ours.contains(where: { !theirsKeys.contains($0) }) else { return theirs }
        var order = theirs
        var present = theirsKeys
        for (position, key) in ours.enumerated() where !present.contains(key) {
            let before = ours[..<position].last { present.contains($0) }
            let index = before.flatMap { order.firstIndex(of: $0) }.map { $0 + 1 } ?? order.count
            // After any of ours inserted there already, to keep their order.
            var at = index
            while at < order.count, !theirsKeys.contains(order[at]) { at += 1 }
            order.insert(key, at: before == nil ? order.count : at)
            present.insert(key)
        }
        return order
    }
}
