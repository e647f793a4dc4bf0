import Foundation

extension Workspace {
    /// What ``check(schemas:output:databases:)`` found.
    public struct CheckOutcome: Sendable {
        /// Every diagnostic of the run, sorted by location.
        public var diagnostics: [Diagnostic]
        /// The stale, missing and extra files: in the order ``plan(schemas:output:render:databases:)``
        /// lists files, extra files last. Empty when there is an error.
        public var stale: [StaleFile]
        /// How many files the output has (`strata.lock` files included).
        public var files: Int

        /// True when any diagnostic is an error: then the output was not compared.
        public var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }
        /// True when there is no error and every file is what `generate` would write.
        public var isCurrent: Bool { !hasErrors && stale.isEmpty }
    }

    /// ``plan(schemas:output:render:databases:)`` and ``check(_:)`` in one pass that holds a few
    /// rendered files at a time instead of the whole output, as
    /// ``generate(schemas:output:databases:report:)`` does: each file is compared with disk as it
    /// is rendered, part by part for the large ones, and kept whole only when it differs (for its
    /// diff). Writes nothing. The files are rendered for `configuration`.
    public static func check(
        schemas: String, output: String, databases: [SQLDialect] = SQLDialect.allCases,
        configuration: GeneratorConfiguration = .commandLine
    ) -> CheckOutcome {
        Allocator.limitRetainedMemory()
        return check(
            [PreparedModels(prepare(schemas: schemas, output: output))], output: output, databases: databases,
            configuration: configuration)
    }

    /// Renders `prepared` (file paths relative to `output`) and compares it with disk, as
    /// ``check(schemas:output:databases:)`` does: for each plan, its `strata.lock` files, its
    /// files in listing order, then the generated files in its `outputFolder` that no longer
    /// belong. Nothing is compared when any plan has an error. The files are rendered for
    /// `configuration`.
    package static func check(
        _ prepared: [PreparedModels], output: String, databases: [SQLDialect] = SQLDialect.allCases,
        configuration: GeneratorConfiguration = .commandLine
    ) -> CheckOutcome {
        let locks = prepared.flatMap(\.plan.files)
        var outcome = CheckOutcome(diagnostics: prepared.flatMap(\.plan.diagnostics), stale: [], files: locks.count)
        guard !outcome.hasErrors else { return outcome }
        Allocator.releaseFreedMemory()
        var sink = ComparingSink(output: output, wanted: Set(locks.map(\.path)))
        for model in prepared {
            outcome.stale += model.plan.files.compactMap { staleFile(at: $0.path, shouldHold: $0.contents) }
            for (history, plans) in zip(model.plan.histories, model.migrationPlans) {
                sink.rendered = 0
                sink.stale = []
                Generator.render(
                    for: history, plans: plans, databases: databases, configuration: configuration, into: &sink)
                outcome.files += sink.rendered
                outcome.stale += Generator.inListingOrder(sink.stale, model: history.model, path: \.relativePath).map(\.file)
            }
        }
        for model in prepared {
            outcome.stale += extraFiles(wanted: sink.wanted, root: model.plan.outputFolder).map(extraFile)
        }
        return outcome
    }

    /// The finding for the file at `path` when it does not hold `expected` (its bytes, or nil when
    /// it cannot be read): stale, or missing.
    static func staleFile(at path: String, shouldHold expected: String, current: Data?) -> StaleFile? {
        guard let current else {
            return StaleFile(
                kind: .missing, path: path,
                diff: UnifiedDiff.render(old: "", new: expected, oldPath: "/dev/null", newPath: path))
        }
        guard !OutputTransaction.withBytes(of: expected, { $0 == current }) else { return nil }
        return StaleFile(
            kind: .stale, path: path,
            diff: UnifiedDiff.render(
                old: String(decoding: current, as: UTF8.self), new: expected, oldPath: path, newPath: path))
    }

    /// ``staleFile(at:shouldHold:current:)`` with the file read from disk.
    static func staleFile(at path: String, shouldHold expected: String) -> StaleFile? {
        staleFile(at: path, shouldHold: expected, current: FileManager.default.contents(atPath: path))
    }

    /// The finding for a generated file that no longer belongs.
    static func extraFile(_ path: String) -> StaleFile {
        let current = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        return StaleFile(
            kind: .extra, path: path, diff: UnifiedDiff.render(old: current, new: "", oldPath: path, newPath: "/dev/null"))
    }

    /// Compares each rendered file with disk as it comes (``check(schemas:output:databases:)``).
    private struct ComparingSink: GeneratedFileSink {
        /// A finding, with the file's path relative to the output folder (for the listing order).
        struct Finding {
            var relativePath: String
            var file: StaleFile
        }

        /// The output folder.
        let output: String
        /// Every path of the output (generated files elsewhere in the folder are extra).
        var wanted: Set<String>
        /// How many files of the current model were rendered.
        var rendered = 0
        /// The current model's findings, in rendering order.
        var stale: [Finding] = []

        init(output: String, wanted: Set<String>) {
            self.output = output
            self.wanted = wanted
        }

        mutating func take(_ file: GeneratedFile) {
            let target = target(file.path)
            if let finding = Workspace.staleFile(at: target, shouldHold: file.contents) {
                stale.append(Finding(relativePath: file.path, file: finding))
            }
        }

        /// Compares the parts with the file on disk, read along with them, while they match it: a
        /// file that matches is never held whole. One that does not is assembled, for its diff,
        /// from the bytes that matched (read again from disk) and the parts after them.
        mutating func take(path: String, parts: inout GeneratedParts) {
            let target = target(path)
            var reader = FileHandle(forReadingAtPath: target)
            defer { try? reader?.close() }
            var matched = 0
            var rest: [String] = []
            while let part = parts.next() {
                if let current = reader {
                    let same = OutputTransaction.withBytes(of: part) { bytes in
                        (try? current.read(upToCount: bytes.count) ?? Data()) == bytes
                    }
                    if same {
                        matched += part.utf8.count
                        continue
                    }
                    try? current.close()
                    reader = nil
                }
                rest.append(part)
            }
            if let current = reader, Self.isAtEnd(current) { return }
            let disk = FileManager.default.contents(atPath: target)
            let expected = String(decoding: (disk ?? Data()).prefix(matched), as: UTF8.self) + rest.joined()
            if let finding = Workspace.staleFile(at: target, shouldHold: expected, current: disk) {
                stale.append(Finding(relativePath: path, file: finding))
            }
        }

        /// True when `file` has nothing more to read (false when it cannot be read).
        private static func isAtEnd(_ file: FileHandle) -> Bool {
            do {
                return try file.read(upToCount: 1)?.isEmpty ?? true
            } catch {
                return false
            }
        }

        /// The absolute path of an output file, which the output must hold.
        private mutating func target(_ path: String) -> String {
            rendered += 1
            let target = SchemaLoader.join(output, path)
            wanted.insert(target)
            return target
        }
    }
}
