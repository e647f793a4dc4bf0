/// The version files of one model on the three sides of a rebase, by version number.
public struct RebaseSides: Sendable {
    /// The model's name.
    public var model: String
    /// The model folder as the user names it (`Schemas/Shop`): diagnostics name files under it.
    public var folder: String
    /// The merge base's versions, and the ref they were read from.
    public var base: [Int: String]
    public var baseRef: String
    /// The target's versions (the upstream, `--onto`, or `MERGE_HEAD`).
    public var target: [Int: String]
    public var targetRef: String
    /// Our versions (the working tree, or `HEAD` in a conflicted merge).
    public var ours: [Int: String]
    public var oursRef: String

    /// Creates the sides.
    public init(
        model: String, folder: String, base: [Int: String], baseRef: String, target: [Int: String],
        targetRef: String, ours: [Int: String], oursRef: String
    ) {
        self.model = model
        self.folder = folder
        self.base = base
        self.baseRef = baseRef
        self.target = target
        self.targetRef = targetRef
        self.ours = ours
        self.oursRef = oursRef
    }
}

/// What `strata rebase` makes of one model: the version files it should hold (the target's byte
/// for byte, then ours replayed and renumbered), or the conflicts that stop it.
public struct RebasePlan: Sendable {
    /// Every version file the model folder should hold, by number.
    public var versions: [Int: String] = [:]
    /// Our versions replayed: our number (the base's latest for an edit in place) and the new one.
    public var replayed: [(ours: Int, rebased: Int)] = []
    /// Conflicts and other problems; nothing may be written when one is an error.
    public var diagnostics: [Diagnostic] = []
    /// True when our versions already follow the target's: nothing to do.
    public var isUpToDate = false
    /// The origin of each line of each merged (rendered) version, by version number and 0-based
    /// line, to locate problems of the result in the files they come from.
    var origins: [Int: [Int: NodeOrigin]] = [:]
    /// What each merged version's sides removed, by version number, to point at when a problem of
    /// the result names it.
    var removals: [Int: [NodeMerger.Removal]] = [:]

    /// True when a diagnostic is an error.
    public var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }

    /// Plans the rebase of `sides`.
    public init(_ sides: RebaseSides) {
        let targetLatest = sides.target.keys.max() ?? 0
        let oursLatest = sides.ours.keys.max() ?? 0
        let baseLatest = sides.base.keys.max() ?? 0
        func path(_ number: Int) -> String { SchemaLoader.join(sides.folder, "v\(number).yaml") }

        // Already on top of the target: its versions are ours (the latest may be edited in place
        // when we add none).
        let sameUpTo = { (limit: Int) in
            (1...max(1, limit)).allSatisfy { limit == 0 || sides.ours[$0] == sides.target[$0] }
        }
        if targetLatest == 0 || (oursLatest >= targetLatest && sameUpTo(targetLatest))
            || (oursLatest == targetLatest && targetLatest == baseLatest && sameUpTo(targetLatest - 1))
        {
            isUpToDate = true
            versions = sides.ours
            return
        }
        if baseLatest == 0 {
            // The model is new on both sides: there is no common version to replay ours from.
            diagnostics.append(
                Diagnostic(
                    .error,
                    "model '\(sides.model)' is added both here and by \(sides.targetRef), with other versions; there is no common version to rebase from: keep one of them",
                    at: .file(path(1))))
            return
        }
        for number in 1..<max(1, baseLatest) where sides.ours[number] != sides.base[number] {
            diagnostics.append(
                Diagnostic(
                    .error,
                    "v\(number).yaml differs from the merge base (\(sides.baseRef)), where it is frozen: restore it before rebasing",
                    at: .file(path(number))))
        }
        guard diagnostics.isEmpty else { return }
        versions = sides.target

        // Our snapshots in order: the base's latest, its edit in place, then our new versions.
        var steps: [(number: Int, text: String, inPlace: Bool)] = []
        guard let baseText = sides.base[baseLatest] else { return }
        if let edited = sides.ours[baseLatest], edited != baseText { steps.append((baseLatest, edited, true)) }
        if oursLatest > baseLatest {
            for number in (baseLatest + 1)...oursLatest {
                guard let text = sides.ours[number] else { continue }
                steps.append((number, text, false))
            }
        }
        guard !steps.isEmpty, let targetText = sides.target[targetLatest] else { return }

        func parse(_ text: String, _ number: Int, _ ref: String) -> VersionNode? {
            let (node, problems) = VersionNode.parse(text, file: path(number), ref: ref)
            diagnostics += problems.map { Diagnostic($0.severity, "\($0.message) (in \(ref))", at: $0.location) }
            return node
        }
        guard let baseNode = parse(baseText, baseLatest, sides.baseRef),
            var theirs = parse(targetText, targetLatest, sides.targetRef)
        else { return }
        // The target's renames since the base, version by version.
        var targetSteps: [SnapshotRenames] = []
        if targetLatest > baseLatest {
            for number in (baseLatest + 1)...targetLatest {
                guard let text = sides.target[number], let node = parse(text, number, sides.targetRef) else { return }
                targetSteps.append(SnapshotRenames(hintsOf: node.normalizedForMerge()))
            }
        }
        var theirsRenames = SnapshotRenames.composed(targetSteps, from: baseNode.normalizedForMerge())
        var previous = baseNode
        var next = targetLatest + 1
        for step in steps {
            guard let ours = parse(step.text, step.number, sides.oursRef) else { return }
            let merge = SnapshotMerge(
                base: previous, ours: ours, theirs: theirs, theirsRenames: theirsRenames, version: next,
                inPlace: step.inPlace)
            for conflict in merge.conflicts {
                diagnostics += conflict.diagnostics(fallback: .file(path(step.number)))
            }
            guard let result = merge.result else { return }
            let rendered = Self.text(of: result, ours: ours, oursText: step.text)
            versions[next] = rendered.text
            origins[next] = rendered.origins
            removals[next] = merge.removals
            replayed.append((step.number, next))
            // The next step's target side is this result: its renames from our names.
            theirsRenames = Self.renames(
                from: ours.normalizedForMerge(), to: result, merge: merge, inPlace: step.inPlace)
            // Read back, so the next step compares what is written.
            guard let written = VersionNode.parse(rendered.text, file: path(next), ref: "rebased").0 else { return }
            theirs = written
            previous = ours
            next += 1
        }
    }

    /// The text of a merged version: our file with its version number changed when the merge
    /// kept our version as it is (comments and layout included), else the rendered merge with
    /// our file's leading comment lines.
    static func text(of result: VersionNode, ours: VersionNode, oursText: String) -> (
        text: String, origins: [Int: NodeOrigin]
    ) {
        var unchanged = ours.normalizedForMerge()
        unchanged["version"] = result["version"]
        unchanged["model"] = result["model"]
        if unchanged.canonical == result.canonical, let versionOrigin = ours["version"]?.origin,
            let number = result["version"]?.text,
            let replaced = replacingScalar(in: oursText, at: versionOrigin.location, with: number)
        {
            var origins: [Int: NodeOrigin] = [:]
            for index in 0..<replaced.split(separator: "\n", omittingEmptySubsequences: false).count {
                origins[index] = NodeOrigin(
                    location: SourceLocation(file: versionOrigin.location.file, line: index + 1, column: 1),
                    ref: versionOrigin.ref)
            }
            return (replaced, origins)
        }
        let header = oursText.split(separator: "\n", omittingEmptySubsequences: false).prefix { $0.hasPrefix("#") }
            .map(String.init)
        return VersionNodeRenderer.render(result, header: header)
    }

    /// `text` with the plain scalar at `location` (an integer) replaced by `replacement`.
    static func replacingScalar(in text: String, at location: SourceLocation, with replacement: String) -> String? {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard location.line >= 1, location.line <= lines.count else { return nil }
        let line = Array(lines[location.line - 1].unicodeScalars)
        let start = location.column - 1
        guard start >= 0, start < line.count else { return nil }
        var end = start
        while end < line.count, ("0"..."9").contains(line[end]) { end += 1 }
        guard end > start else { return nil }
        var scalars = String.UnicodeScalarView()
        scalars.append(contentsOf: line[..<start])
        scalars.append(contentsOf: replacement.unicodeScalars)
        scalars.append(contentsOf: line[end...])
        lines[location.line - 1] = String(scalars)
        return lines.joined(separator: "\n")
    }

    /// The renames from our version's names to the merged version's: the target's that we did
    /// not make.
    static func renames(from ours: VersionNode, to result: VersionNode, merge: SnapshotMerge, inPlace: Bool)
        -> SnapshotRenames
    {
        let oursRenames = inPlace ? SnapshotRenames() : SnapshotRenames(hintsOf: ours)
        let inverse = oursRenames.inverse
        var renames = SnapshotRenames()
        for entity in ours["entities"]?.pairs ?? [] {
            let base = inverse.entities[entity.key] ?? entity.key
            let final = merge.renames.entity(base)
            if final != entity.key { renames.entities[entity.key] = final }
            for field in entity.value["fields"]?.pairs ?? [] {
                let baseField = inverse.fields[entity.key]?[field.key] ?? field.key
                let finalField = merge.renames.field(baseField, of: base)
                if finalField != field.key { renames.fields[entity.key, default: [:]][field.key] = finalField }
            }
        }
        return renames
    }
}
