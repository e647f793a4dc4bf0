import Foundation

/// The files a run of Strata wants on disk, and the problems that stop it.
public struct GenerationPlan: Sendable {
    /// Every diagnostic of the run, sorted by location.
    public var diagnostics: [Diagnostic]
    /// The files to write: generated outputs under the output folder and `strata.lock` under each model folder.
    public var files: [GeneratedFile]
    /// The output folder, as given.
    public var outputFolder: String
    /// The models that were read.
    public var histories: [SchemaHistory]

    /// True when any diagnostic is an error: then nothing may be written.
    public var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }
}

/// One difference between the files on disk and what `generate` would write.
public struct StaleFile: Sendable, Equatable {
    /// What is wrong with the file.
    public enum Kind: String, Sendable { case stale, missing, extra }
    /// What is wrong with the file.
    public var kind: Kind
    /// The file's path, as given (joined with the folder the user named).
    public var path: String
    /// A unified diff from what is on disk to what should be.
    public var diff: String

    /// A finding of `kind` for the file at `path`, with its diff.
    public init(kind: Kind, path: String, diff: String) {
        self.kind = kind
        self.path = path
        self.diff = diff
    }
}

/// Reads schemas, plans outputs, and writes or checks them. Used by the CLI and the command plugin.
public enum Workspace {
    /// Loads and validates every model under `schemas` and renders every output.
    ///
    /// With `render: false` the outputs are not rendered (the plan holds only the `strata.lock`
    /// files), for commands that need the diagnostics and the models alone: the diagnostics are
    /// the same, since every one of them comes from reading, validating and planning migrations.
    /// `databases` chooses whose Swift is rendered (the SQL of every dialect always is); the files
    /// are rendered for `configuration`.
    public static func plan(
        schemas: String, output: String, render: Bool = true, databases: [SQLDialect] = SQLDialect.allCases,
        configuration: GeneratorConfiguration = .commandLine
    ) -> GenerationPlan {
        var (plan, migrationPlans) = prepare(schemas: schemas, output: output)
        guard render else { return plan }
        for (history, plans) in zip(plan.histories, migrationPlans) {
            for file in Generator.files(for: history, plans: plans, databases: databases, configuration: configuration) {
                plan.files.append(GeneratedFile(path: SchemaLoader.join(output, file.path), contents: file.contents))
            }
        }
        return plan
    }

    /// The plan without its outputs (only the `strata.lock` files), and the migration plans of
    /// each history (in the order of `histories`), for rendering without planning them again.
    /// With `only`, the model of that name alone is read (``SchemaLoader/loadAll(from:only:)``).
    package static func prepare(schemas: String, output: String, only model: String? = nil) -> (GenerationPlan, [[MigrationPlan]]) {
        let loaded = SchemaLoader.loadAll(from: schemas, only: model)
        var bag = DiagnosticBag()
        bag.append(contentsOf: loaded.diagnostics)
        var files: [GeneratedFile] = []
        for (model, sums) in loaded.checksums.sorted(by: { $0.key < $1.key }) {
            let folder = SchemaLoader.join(schemas, model)
            let lockPath = SchemaLoader.join(folder, Lockfile.fileName)
            // A lock that exists but cannot be read is an error, never taken for an absent one:
            // that would accept an edited frozen version and record it for good.
            if FileManager.default.fileExists(atPath: lockPath) {
                do {
                    let text = try String(contentsOfFile: lockPath, encoding: .utf8)
                    bag.append(contentsOf: Lockfile.diagnostics(for: text, path: lockPath))
                    let recorded = Lockfile(parsing: text)
                    // Mid-merge, the lock holds both sides' lines: the marker error says what to do.
                    if MergeConflictMarkers.lines(in: text).isEmpty {
                        bag.append(
                            contentsOf: recorded.frozenVersionErrors(current: sums, model: model, folder: folder))
                    }
                } catch {
                    bag.error(
                        "cannot read \(Lockfile.fileName) (\(OutputTransaction.reason(error))): frozen versions cannot be checked "
                            + "without it; make it readable or restore it from version control",
                        at: .file(lockPath))
                }
            }
            files.append(GeneratedFile(path: lockPath, contents: Lockfile(checksums: sums).rendered(model: model)))
        }
        var migrationPlans: [[MigrationPlan]] = []
        for history in loaded.histories {
            let plans = Generator.migrationPlans(for: history)
            bag.append(contentsOf: plans.flatMap(\.diagnostics))
            migrationPlans.append(plans)
        }
        let plan = GenerationPlan(
            diagnostics: bag.sorted, files: files, outputFolder: output, histories: loaded.histories)
        return (plan, migrationPlans)
    }

    /// What ``generate(schemas:output:)`` did.
    public struct GenerateOutcome: Sendable {
        /// Every diagnostic of the run, sorted by location.
        public var diagnostics: [Diagnostic]
        /// The paths written or removed, in the order ``plan(schemas:output:render:)`` lists files.
        public var changed: [String]
        /// How many files the output has (`strata.lock` files included).
        public var files: Int

        /// True when any diagnostic is an error: then nothing was written.
        public var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }
    }

    /// ``plan(schemas:output:render:)`` and ``write(_:)`` in one pass that holds a few rendered
    /// files at a time instead of the whole output (which is many times the schemas' size): each
    /// file is compared with disk and, when it differs, staged as soon as it is rendered; the
    /// targets are replaced only when everything is staged, as `write` does. Nothing is written
    /// when there is an error. `report` gets the diagnostics before anything is written. The files
    /// are rendered for `configuration`.
    public static func generate(
        schemas: String, output: String, databases: [SQLDialect] = SQLDialect.allCases,
        configuration: GeneratorConfiguration = .commandLine, report: ([Diagnostic]) -> Void = { _ in }
    ) throws -> GenerateOutcome {
        Allocator.limitRetainedMemory()
        let prepared = PreparedModels(prepare(schemas: schemas, output: output))
        report(prepared.plan.diagnostics)
        return try generate([prepared], output: output, databases: databases, configuration: configuration)
    }

    /// A plan without its outputs and the migration plans of its histories, from
    /// ``prepare(schemas:output:only:)``: what ``generate(_:output:databases:)`` and
    /// ``check(_:output:databases:)`` render. The plan's `outputFolder` is the folder whose
    /// generated files that no longer belong are removed (or reported).
    package struct PreparedModels: Sendable {
        /// The plan: diagnostics, `strata.lock` files, histories, output folder.
        package var plan: GenerationPlan
        /// The migration plans of each history, in the order of `plan.histories`.
        package var migrationPlans: [[MigrationPlan]]

        package init(_ prepared: (GenerationPlan, [[MigrationPlan]])) {
            (plan, migrationPlans) = prepared
        }
    }

    /// Renders and writes `prepared` (file paths relative to `output`) in one transaction, as
    /// ``generate(schemas:output:databases:report:)`` does; nothing is written when any plan has
    /// an error. Generated files that no longer belong are removed from each plan's
    /// `outputFolder`.
    ///
    /// `sources` are written in the same transaction, first (the version files `strata rebase`
    /// writes); `isOurs` says which existing files may be replaced or removed. The files are
    /// rendered for `configuration`.
    package static func generate(
        _ prepared: [PreparedModels], output: String, databases: [SQLDialect] = SQLDialect.allCases,
        configuration: GeneratorConfiguration = .commandLine, sources: [OutputTransaction.Write] = [], isOurs: @escaping (String) -> Bool = Workspace.isOurs
    ) throws -> GenerateOutcome {
        let locks = prepared.flatMap(\.plan.files)
        var outcome = GenerateOutcome(diagnostics: prepared.flatMap(\.plan.diagnostics), changed: [], files: locks.count)
        guard !outcome.hasErrors else { return outcome }
        // The parsed YAML is gone: its memory goes back to the system before rendering, which
        // would otherwise peak on top of it.
        Allocator.releaseFreedMemory()
        var sink = StagingSink(output: output, wanted: Set(locks.map(\.path)), isOurs: isOurs)
        do {
            for source in sources {
                try sink.stage(GeneratedFile(path: source.path, contents: source.contents), isOurs: { _ in true })
            }
            for file in locks { try sink.stage(file) }
            outcome.changed = sink.changed
            for model in prepared {
                for (history, plans) in zip(model.plan.histories, model.migrationPlans) {
                    sink.changed = []
                    sink.rendered = []
                    try Generator.render(
                        for: history, plans: plans, databases: databases, configuration: configuration, into: &sink)
                    outcome.files += sink.rendered.count
                    let order = Generator.inListingOrder(sink.rendered, model: history.model) { $0 }.map {
                        SchemaLoader.join(output, $0)
                    }
                    outcome.changed += order.filter(Set(sink.changed).contains)
                }
            }
            let removals = prepared.flatMap {
                extraFiles(wanted: sink.wanted, root: $0.plan.outputFolder, excluding: sink.transaction.stagedPaths)
            }
            try sink.transaction.finish(removals: removals, isOurs: isOurs)
            outcome.changed += removals
        } catch {
            sink.transaction.rollBack()
            throw error
        }
        return outcome
    }

    /// Stages each rendered file that differs from disk, as it comes (``generate(schemas:output:databases:report:)``).
    private struct StagingSink: GeneratedFileSink {
        /// The output folder.
        let output: String
        /// Every path of the output (generated files elsewhere in the folder are removed).
        var wanted: Set<String>
        var transaction = OutputTransaction()
        /// The paths of the current model's files, relative to the output folder, as rendered.
        var rendered: [String] = []
        /// The paths staged because they differ from disk.
        var changed: [String] = []
        /// Which existing files may be replaced.
        let isOurs: (String) -> Bool

        init(output: String, wanted: Set<String>, isOurs: @escaping (String) -> Bool = Workspace.isOurs) {
            self.output = output
            self.wanted = wanted
            self.isOurs = isOurs
        }

        mutating func take(_ file: GeneratedFile) throws {
            rendered.append(file.path)
            try stage(GeneratedFile(path: target(file.path), contents: file.contents))
        }

        mutating func take(path: String, parts: inout GeneratedParts) throws {
            rendered.append(path)
            let target = target(path)
            if try transaction.add(path: target, isOurs: isOurs, parts: &parts) { changed.append(target) }
        }

        /// Stages `file` (its path absolute) when its bytes differ from disk.
        mutating func stage(_ file: GeneratedFile, isOurs: ((String) -> Bool)? = nil) throws {
            if let current = FileManager.default.contents(atPath: file.path),
                OutputTransaction.withBytes(of: file.contents, { $0 == current })
            {
                return
            }
            try transaction.add(
                OutputTransaction.Write(path: file.path, contents: file.contents), isOurs: isOurs ?? self.isOurs)
            changed.append(file.path)
        }

        /// The absolute path of an output file, which the output must hold.
        private mutating func target(_ path: String) -> String {
            let target = SchemaLoader.join(output, path)
            wanted.insert(target)
            return target
        }
    }

    /// Writes the plan's files whose bytes differ from disk and removes generated files that no longer belong.
    /// Writes nothing when the plan has errors. Returns the paths written or removed.
    @discardableResult
    public static func write(_ plan: GenerationPlan) throws -> [String] {
        guard !plan.hasErrors else { return [] }
        let manager = FileManager.default
        var writes: [OutputTransaction.Write] = []
        for file in plan.files {
            if let current = manager.contents(atPath: file.path),
                OutputTransaction.withBytes(of: file.contents, { $0 == current })
            {
                continue
            }
            writes.append(OutputTransaction.Write(path: file.path, contents: file.contents))
        }
        let removals = extraFiles(plan)
        try OutputTransaction.run(writes: writes, removals: removals, isOurs: isOurs)
        return writes.map(\.path) + removals
    }

    /// True for a file Strata wrote: a generated file with its header, or a `strata.lock`.
    static func isOurs(_ path: String) -> Bool {
        isGenerated(path)
            || (SchemaLoader.name(of: path) == Lockfile.fileName && firstLine(path).hasPrefix("# strata.lock"))
    }

    /// The differences between disk and the plan: stale, missing and extra files, each with a diff.
    /// (``check(schemas:output:databases:)`` finds the same without holding the whole output.)
    public static func check(_ plan: GenerationPlan) -> [StaleFile] {
        plan.files.compactMap { staleFile(at: $0.path, shouldHold: $0.contents) } + extraFiles(plan).map(extraFile)
    }

    /// Files under the output folder that carry Strata's header but are not in the plan.
    /// Files without the header are the user's and are never touched.
    static func extraFiles(_ plan: GenerationPlan) -> [String] {
        extraFiles(wanted: Set(plan.files.map(\.path)), root: plan.outputFolder)
    }

    /// Files under `root` with Strata's header that are not `wanted` (nor staged by this run).
    static func extraFiles(wanted: Set<String>, root: String, excluding staged: Set<String> = []) -> [String] {
        guard let enumerator = FileManager.default.enumerator(atPath: root) else { return [] }
        var extra: [String] = []
        while let relative = enumerator.nextObject() as? String {
            let path = SchemaLoader.join(root, relative)
            guard !wanted.contains(path), !staged.contains(path), !SchemaLoader.isFolder(path), isGenerated(path) else {
                continue
            }
            extra.append(path)
        }
        return extra.sorted()
    }

    private static func isGenerated(_ path: String) -> Bool {
        FileHeader.isHeader(Substring(firstLine(path)))
    }

    /// The first line of a file (at most 512 bytes), empty when it cannot be read.
    static func firstLine(_ path: String) -> String {
        guard let handle = FileHandle(forReadingAtPath: path) else { return "" }
        defer { try? handle.close() }
        let head = String(decoding: handle.readData(ofLength: 512), as: UTF8.self)
        return head.split(separator: "\n", maxSplits: 1).first.map(String.init) ?? ""
    }
}
