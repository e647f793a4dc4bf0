import Foundation

/// `strata rebase`: replays the versions a branch added on top of those the target branch added
/// since their merge base (``RebasePlan``), then writes the rebased version files, `strata.lock`
/// and `Generated/` in one transaction, or nothing.
public enum Rebase {
    /// What a run did.
    public struct Outcome: Sendable {
        /// Conflicts and problems, sorted; nothing was written when one is an error.
        public var diagnostics: [Diagnostic] = []
        /// The paths written or removed.
        public var changed: [String] = []
        /// Per model, our versions replayed: our number and the new one.
        public var replayed: [(model: String, ours: Int, rebased: Int)] = []
        /// The target, as named (`origin/main`, `MERGE_HEAD`, the `--onto` ref).
        public var target = ""
        /// True when every model's versions already follow the target's.
        public var isUpToDate = false

        /// True when a diagnostic is an error.
        public var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }

        /// An outcome with nothing done yet.
        public init(target: String = "") { self.target = target }
    }

    /// Rebases the models under `schemas` (`model` alone when given) onto `onto` (default: the
    /// merge under way's `MERGE_HEAD`; in a stopped `git rebase`, `HEAD`, replaying the commit
    /// being applied, `REBASE_HEAD`, from its parent; else the upstream `@{u}`), and regenerates
    /// `output`.
    /// Git runs in `directory` (the current folder by default); relative paths are the current
    /// folder's.
    /// Throws ``GitRepository/Failure`` when git cannot answer, and what writing throws
    /// (``OutputInterrupted`` on Ctrl-C, after putting everything back).
    public static func run(
        schemas: String, output: String, model: String? = nil, onto: String? = nil,
        databases: [SQLDialect] = SQLDialect.allCases, directory: String = FileManager.default.currentDirectoryPath
    ) throws -> Outcome {
        let repository = try GitRepository(directory: directory)
        let mergeHead = repository.mergeHead
        // In a stopped `git rebase`, HEAD is the branch being rebased onto, with the commits
        // replayed so far, and REBASE_HEAD the commit being replayed: its changes (from its
        // parent) are ours.
        let rebaseHead = onto == nil && mergeHead == nil ? repository.commit("REBASE_HEAD") : nil
        let target = onto ?? (mergeHead != nil ? "MERGE_HEAD" : rebaseHead != nil ? "HEAD" : "@{u}")
        guard let targetCommit = repository.commit(target) else {
            throw GitRepository.Failure(
                description: onto == nil
                    ? "the current branch has no upstream to rebase onto: name the target with --onto <ref>"
                    : "'\(target)' names no commit")
        }
        let oursCommit = rebaseHead ?? "HEAD"
        let base: String
        if let rebaseHead, let parent = repository.commit("\(rebaseHead)^") {
            base = parent
        } else {
            base = try repository.mergeBase(oursCommit, targetCommit)
        }
        var outcome = Outcome(target: target)
        let names = try model.map { [$0] } ?? modelFolders(in: schemas)
        var plans: [(model: String, plan: RebasePlan)] = []
        for name in names {
            let folder = SchemaLoader.join(schemas, name)
            let relative = repository.relativePath(folder)
            let targetVersions = try repository.versions(at: targetCommit, folder: relative)
            let baseVersions = try repository.versions(at: base, folder: relative)
            var ours = readVersions(folder: folder)
            var oursRef = "working tree"
            if mergeHead != nil || rebaseHead != nil, hasConflictMarkers(folder: folder) {
                ours = try repository.versions(at: oursCommit, folder: relative)
                oursRef = rebaseHead.map { "REBASE_HEAD \($0.prefix(9))" } ?? "HEAD"
            }
            let plan = RebasePlan(
                RebaseSides(
                    model: name, folder: folder, base: baseVersions, baseRef: "merge base \(base.prefix(9))",
                    target: targetVersions, targetRef: target, ours: ours, oursRef: oursRef))
            outcome.diagnostics += plan.diagnostics
            plans.append((name, plan))
        }
        guard !outcome.hasErrors else { return outcome }
        outcome.isUpToDate = plans.allSatisfy(\.plan.isUpToDate)
        if outcome.isUpToDate { return outcome }
        outcome.replayed = plans.flatMap { entry in entry.plan.replayed.map { (entry.model, $0.ours, $0.rebased) } }
        return try write(plans, schemas: schemas, output: output, databases: databases, outcome: outcome)
    }

    /// Checks the rebased models in a copy of `schemas`, then writes their versions, locks and
    /// generated files in one transaction.
    private static func write(
        _ plans: [(model: String, plan: RebasePlan)], schemas: String, output: String, databases: [SQLDialect],
        outcome: Outcome
    ) throws -> Outcome {
        var outcome = outcome
        let manager = FileManager.default
        let staging = manager.temporaryDirectory.appendingPathComponent("strata-rebase-\(UUID().uuidString)").path
        defer { try? manager.removeItem(atPath: staging) }
        let stagedSchemas = SchemaLoader.join(staging, "Schemas")
        try manager.createDirectory(atPath: staging, withIntermediateDirectories: true)
        try manager.copyItem(atPath: schemas, toPath: stagedSchemas)
        var sources: [OutputTransaction.Write] = []
        for (model, plan) in plans where !plan.isUpToDate {
            let stagedFolder = SchemaLoader.join(stagedSchemas, model)
            for file in (try? manager.contentsOfDirectory(atPath: stagedFolder)) ?? []
            where SchemaLoader.versionNumber(ofFileName: file) != nil || file == Lockfile.fileName {
                try manager.removeItem(atPath: SchemaLoader.join(stagedFolder, file))
            }
            for (number, text) in plan.versions {
                try Data(text.utf8).write(to: URL(fileURLWithPath: SchemaLoader.join(stagedFolder, "v\(number).yaml")))
                let path = SchemaLoader.join(SchemaLoader.join(schemas, model), "v\(number).yaml")
                if manager.contents(atPath: path) != Data(text.utf8) {
                    sources.append(OutputTransaction.Write(path: path, contents: text))
                }
            }
        }
        var prepared = Workspace.PreparedModels(Workspace.prepare(schemas: stagedSchemas, output: output))
        func unstaged(_ path: String) -> String {
            path.hasPrefix(stagedSchemas) ? schemas + path.dropFirst(stagedSchemas.count) : path
        }
        prepared.plan.files = prepared.plan.files.map { GeneratedFile(path: unstaged($0.path), contents: $0.contents) }
        outcome.diagnostics = located(
            prepared.plan.diagnostics, plans: plans, stagedSchemas: stagedSchemas, schemas: schemas)
        guard !outcome.hasErrors else { return outcome }
        let generated = try Workspace.generate(
            [prepared], output: output, databases: databases, sources: sources,
            isOurs: { Workspace.isOurs($0) || Workspace.firstLine($0).hasPrefix("<<<<<<< ") })
        outcome.changed = generated.changed
        return outcome
    }

    /// The diagnostics of the staged copy, located in the files the problem comes from: a
    /// rebased version's lines at the target's or our line they were merged from.
    private static func located(
        _ diagnostics: [Diagnostic], plans: [(model: String, plan: RebasePlan)], stagedSchemas: String, schemas: String
    ) -> [Diagnostic] {
        var result: [Diagnostic] = []
        for diagnostic in diagnostics {
            var diagnostic = diagnostic
            let file = diagnostic.location.file
            let relative = file.hasPrefix(stagedSchemas + "/") ? String(file.dropFirst(stagedSchemas.count + 1)) : nil
            if let relative {
                diagnostic.location.file = SchemaLoader.join(schemas, relative)
                let parts = relative.split(separator: "/").map(String.init)
                if parts.count == 2, let number = SchemaLoader.versionNumber(ofFileName: parts[1]),
                    let origins = plans.first(where: { $0.model == parts[0] })?.plan.origins[number]
                {
                    let line = diagnostic.location.line - 1
                    if let origin = (0...max(0, line)).reversed().lazy.compactMap({ origins[$0] }).first {
                        result.append(
                            Diagnostic(
                                diagnostic.severity, "\(diagnostic.message) (from \(origin.ref))", at: origin.location))
                        if let plan = plans.first(where: { $0.model == parts[0] })?.plan {
                            for removal in plan.removals[number] ?? []
                            where diagnostic.message.contains("'\(removal.name)'") {
                                guard let at = removal.origin else { continue }
                                let who = removal.byTarget ? "the target" : "this branch"
                                result.append(
                                    Diagnostic(
                                        .note, "\(who) removes \(removal.what) here (from \(at.ref))", at: at.location))
                            }
                        }
                        result.append(
                            Diagnostic(
                                .note,
                                "in the rebased \(parts[1]), which merges the target's versions and ours; nothing was written",
                                at: SourceLocation(
                                    file: diagnostic.location.file, line: diagnostic.location.line,
                                    column: diagnostic.location.column)))
                        continue
                    }
                }
            }
            result.append(diagnostic)
        }
        return result
    }

    /// The model folders under `schemas`.
    private static func modelFolders(in schemas: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: schemas)
            .filter { !$0.hasPrefix(".") && SchemaLoader.isFolder(SchemaLoader.join(schemas, $0)) }.sorted()
    }

    /// The version files in `folder` on disk.
    private static func readVersions(folder: String) -> [Int: String] {
        var versions: [Int: String] = [:]
        for file in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] {
            guard let number = SchemaLoader.versionNumber(ofFileName: file),
                let data = FileManager.default.contents(atPath: SchemaLoader.join(folder, file))
            else { continue }
            versions[number] = String(decoding: data, as: UTF8.self)
        }
        return versions
    }

    /// True when a version file or `strata.lock` in `folder` holds a conflict marker line.
    static func hasConflictMarkers(folder: String) -> Bool {
        for file in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        where SchemaLoader.versionNumber(ofFileName: file) != nil || file == Lockfile.fileName {
            guard let data = FileManager.default.contents(atPath: SchemaLoader.join(folder, file)) else { continue }
            let text = String(decoding: data, as: UTF8.self)
            if text.hasPrefix("<<<<<<< ") || text.contains("\n<<<<<<< ") { return true }
        }
        return false
    }
}
