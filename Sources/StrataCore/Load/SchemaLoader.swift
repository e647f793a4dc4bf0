import Foundation
import StrataChecksum
import StrataCoreDataMapping

/// Reads `Schemas/<Model>/vN.yaml` from disk into validated histories.
public enum SchemaLoader {
    /// The result of loading: whatever could be read, and every problem found.
    public struct Result: Sendable {
        /// The models that were read, sorted by name (only complete when there are no errors).
        public var histories: [SchemaHistory]
        /// The diagnostics, sorted by location.
        public var diagnostics: [Diagnostic]
        /// The checksums of the version files' text (`NormalizedText`), per model, per version number.
        public var checksums: [String: [Int: String]]

        /// True when any diagnostic is an error.
        public var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }
    }

    /// Loads every model folder under `directory` (the path as the user gave it), or with `only`
    /// the model folder of that name alone (none when `directory` has no such folder): the
    /// plugins build one model of a folder that may hold many, and need not read the others.
    public static func loadAll(from directory: String, only model: String? = nil) -> Result {
        var bag = DiagnosticBag()
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            bag.error("schemas folder '\(directory)' \(missingReason(directory))", at: .file(directory))
            return Result(histories: [], diagnostics: bag.sorted, checksums: [:])
        }
        let listing: [String]
        do {
            listing = try FileManager.default.contentsOfDirectory(atPath: directory)
        } catch {
            bag.error(
                "cannot read the schemas folder '\(directory)': \(OutputTransaction.reason(error))",
                at: .file(directory))
            return Result(histories: [], diagnostics: bag.sorted, checksums: [:])
        }
        let names = listing.filter { !$0.hasPrefix(".") && (model == nil || $0 == model) && isFolder(join(directory, $0)) }
            .sorted()
        if names.isEmpty, let model {
            bag.error("no model folder '\(model)' in '\(directory)'", at: .file(join(directory, model)))
        } else if names.isEmpty {
            bag.error(
                "no model folders in '\(directory)': add \(join(directory, "<Model>/v1.yaml"))", at: .file(directory))
        }
        var histories: [SchemaHistory] = []
        var checksums: [String: [Int: String]] = [:]
        for name in names {
            let (history, sums, diagnostics) = loadModel(named: name, in: directory)
            bag.append(contentsOf: diagnostics)
            checksums[name] = sums
            if let history { histories.append(history) }
        }
        return Result(histories: histories, diagnostics: bag.sorted, checksums: checksums)
    }

    /// Loads one model folder.
    public static func loadModel(named model: String, in directory: String) -> (
        SchemaHistory?, [Int: String], [Diagnostic]
    ) {
        var bag = DiagnosticBag()
        let folder = join(directory, model)
        let files: [String]
        do {
            files = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        } catch {
            bag.error("cannot read the model folder '\(folder)': \(OutputTransaction.reason(error))", at: .file(folder))
            return (nil, [:], bag.all)
        }
        var numbered: [Int: String] = [:]
        for file in files where file.hasSuffix(".yaml") || file.hasSuffix(".yml") {
            if let number = versionNumber(ofFileName: file) {
                numbered[number] = file
            } else if let number = looseVersionNumber(ofFileName: file), files.contains("v\(number).yaml") {
                // Two spellings of one number (`v4.yml` beside `v4.yaml`), as a merge may leave.
                bag.error(
                    "'\(file)' is a second file for version \(number) of '\(model)', beside 'v\(number).yaml': versions "
                        + "are named v1.yaml, v2.yaml, …; if a merge brought it in, run `strata rebase`",
                    at: .file(join(folder, file)))
            } else {
                bag.error(
                    "unexpected file '\(file)' in model '\(model)': versions are named v1.yaml, v2.yaml, …",
                    at: .file(join(folder, file)))
            }
        }
        guard !numbered.isEmpty else {
            bag.error("model folder '\(folder)' has no versions: add v1.yaml", at: .file(folder))
            return (nil, [:], bag.all)
        }
        let highest = numbered.keys.max() ?? 0
        for missing in (1...highest) where numbered[missing] == nil {
            let next = numbered.keys.filter { $0 > missing }.min() ?? highest
            bag.error(
                "version \(missing) of '\(model)' is missing: versions are numbered from 1 without gaps",
                at: .file(join(folder, numbered[next] ?? "v\(next).yaml")))
        }
        // The version files are read and parsed concurrently; their results are merged in order.
        let loaded = Parallel.map(numbered.sorted { $0.key < $1.key }) { number, fileName in
            readVersion(number: number, fileName: fileName, folder: folder)
        }
        var versions: [Schema] = []
        var checksums: [Int: String] = [:]
        for version in loaded {
            checksums[version.number] = version.checksum
            bag.append(contentsOf: version.diagnostics)
            guard let schema = version.schema else { continue }
            let path = join(folder, version.fileName)
            if schema.version != 0 && schema.version != version.number {
                bag.error(
                    "'version: \(schema.version)' does not match the file name '\(version.fileName)'",
                    at: schema.versionLocation ?? .file(path))
            }
            if !schema.model.isEmpty && schema.model != model {
                bag.error(
                    "'model: \(schema.model)' does not match the model folder '\(model)'",
                    at: schema.modelLocation ?? .file(path))
            }
            var fixed = schema
            fixed.version = version.number
            fixed.model = model
            versions.append(fixed)
        }
        let complete = versions.count == highest && !bag.hasErrors
        var history = SchemaHistory(model: model, versions: versions)
        if files.contains(CoreDataMapping.fileName) {
            history.coreDataMapping = FileManager.default.contents(atPath: join(folder, CoreDataMapping.fileName))
                .map { String(decoding: $0, as: UTF8.self) }
        }
        if complete {
            bag.append(contentsOf: HistoryValidator.validate(history))
        }
        history.queryFiles = queryFiles(in: folder, bag: &bag)
        if complete, !bag.hasErrors, let latest = history.latest, !history.queryFiles.isEmpty {
            var texts: [(path: String, text: String)] = []
            for path in history.queryFiles {
                if let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int,
                    size > Limits.queryFileBytes
                {
                    bag.error(
                        "'\(path)' is \(size) bytes; query files are limited to \(Limits.queryFileBytes) bytes",
                        at: .file(path))
                    continue
                }
                guard let (_, text) = readText(path) else {
                    bag.error("cannot read '\(path)'", at: .file(path))
                    continue
                }
                guard let text else {
                    bag.error("'\(path)' is not UTF-8 text", at: .file(path))
                    continue
                }
                texts.append((path, text))
            }
            let (queries, diagnostics) = QueryAnalyzer.analyze(files: texts, schema: latest)
            history.queries = queries
            bag.append(contentsOf: diagnostics)
        }
        return (complete ? history : nil, checksums, bag.all)
    }

    /// The folder of a model's named queries, relative to the model folder.
    public static let queriesFolder = OutputLayout.queriesFolder

    /// The `.sql` files of `folder/queries`, sorted; none when there is no such folder.
    private static func queryFiles(in folder: String, bag: inout DiagnosticBag) -> [String] {
        let queries = join(folder, queriesFolder)
        guard isFolder(queries) else { return [] }
        do {
            return try FileManager.default.contentsOfDirectory(atPath: queries)
                .filter { !$0.hasPrefix(".") && $0.hasSuffix(".sql") }
                .sorted()
                .map { join(queries, $0) }
        } catch {
            bag.error("cannot read the queries folder '\(queries)': \(OutputTransaction.reason(error))", at: .file(queries))
            return []
        }
    }

    /// One version file, read and parsed.
    private struct LoadedVersion: Sendable {
        var number: Int
        var fileName: String
        /// The SHA-256 of the file's text (`NormalizedText`); nil when it could not be read.
        var checksum: String?
        var schema: Schema?
        var diagnostics: [Diagnostic]
    }

    /// Reads and parses `folder/fileName`, version `number`.
    private static func readVersion(number: Int, fileName: String, folder: String) -> LoadedVersion {
        let path = join(folder, fileName)
        var loaded = LoadedVersion(number: number, fileName: fileName, checksum: nil, schema: nil, diagnostics: [])
        if let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int,
            size > Limits.versionFileBytes
        {
            loaded.diagnostics = [
                Diagnostic(
                    .error, "'\(path)' is \(size) bytes; version files are limited to \(Limits.versionFileBytes) bytes",
                    at: .file(path))
            ]
            return loaded
        }
        guard let (checksum, text) = readText(path) else {
            loaded.diagnostics = [Diagnostic(.error, "cannot read '\(path)'", at: .file(path))]
            return loaded
        }
        loaded.checksum = checksum
        guard let text else {
            loaded.diagnostics = [Diagnostic(.error, "'\(path)' is not UTF-8 text", at: .file(path))]
            return loaded
        }
        // Markers left by a merge make the YAML invalid; the advice is to finish the merge.
        if let marker = MergeConflictMarkers.diagnostic(
            fileName: fileName, path: path, lines: MergeConflictMarkers.lines(in: text))
        {
            loaded.diagnostics = [marker]
            return loaded
        }
        (loaded.schema, loaded.diagnostics) = SchemaParser.parse(text, file: path, fileName: fileName)
        return loaded
    }

    /// The checksum of a file's text (`NormalizedText`) and the text (nil when it is not UTF-8); nil
    /// when the file cannot be read. The file's bytes are released before the text is parsed.
    private static func readText(_ path: String) -> (checksum: String, text: String?)? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        let normalized = NormalizedText.bytes(data)
        let text: String?
        if #available(macOS 15, *) {
            text = String(validating: normalized, as: UTF8.self)
        } else {
            text = String(bytes: normalized, encoding: .utf8)
        }
        return (SHA256.hex(normalized), text)
    }

    /// `3` for `v3.yaml`; nil for anything else (`v03.yaml`, `v0.yaml`, `3.yaml`).
    static func versionNumber(ofFileName name: String) -> Int? {
        guard name.hasPrefix("v") else { return nil }
        let stem = name.dropFirst().prefix { $0 != "." }
        guard name.dropFirst(stem.count + 1) == ".yaml", !stem.hasPrefix("0"), let number = Int(stem), number > 0 else {
            return nil
        }
        return number
    }

    /// The number of a version file spelled another way (`v04.yaml`, `v4.yml`, `V4.yaml`); nil
    /// when the name is no version at all.
    static func looseVersionNumber(ofFileName name: String) -> Int? {
        guard name.hasPrefix("v") || name.hasPrefix("V") else { return nil }
        let stem = name.dropFirst().prefix { $0 != "." }
        let suffix = name.dropFirst(stem.count + 1)
        guard suffix == ".yaml" || suffix == ".yml", let number = Int(stem), number > 0 else { return nil }
        return number
    }

    /// `directory/name`, without doubling a `/`.
    public static func join(_ directory: String, _ name: String) -> String {
        directory.hasSuffix("/") ? directory + name : directory + "/" + name
    }

    /// Why a path that should be a folder is not one: missing, a file, or a link that leads nowhere.
    static func missingReason(_ path: String) -> String {
        let manager = FileManager.default
        if let destination = try? manager.destinationOfSymbolicLink(atPath: path) {
            // A link whose target cannot be reached: missing, or links that lead back to themselves.
            var seen: Set<String> = [path]
            func resolve(_ link: String, from path: String) -> String {
                guard !link.hasPrefix("/") else { return link }
                let parent = parent(of: path)
                return parent.isEmpty ? link : join(parent, link)
            }
            var current = resolve(destination, from: path)
            while let next = try? manager.destinationOfSymbolicLink(atPath: current) {
                if !seen.insert(current).inserted || seen.count > 40 {
                    return "is a symbolic link that leads back to itself"
                }
                current = resolve(next, from: current)
            }
            return "is a symbolic link to '\(destination)', which does not exist"
        }
        return manager.fileExists(atPath: path) ? "is a file, not a folder" : "does not exist"
    }

    /// The folder part of a path (`a/b` -> `a`, `b` -> ``, `/b` -> `/`), computed on the text:
    /// Foundation's `deletingLastPathComponent` traps on Linux for some one-character paths (`a`).
    public static func parent(of path: String) -> String {
        var path = Substring(path)
        while path.count > 1, path.hasSuffix("/") { path = path.dropLast() }
        guard let slash = path.lastIndex(of: "/") else { return "" }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// The last part of a path (`a/b` -> `b`), computed on the text (see ``parent(of:)``).
    public static func name(of path: String) -> String {
        var path = Substring(path)
        while path.count > 1, path.hasSuffix("/") { path = path.dropLast() }
        return path.lastIndex(of: "/").map { String(path[path.index(after: $0)...]) } ?? String(path)
    }

    package static func isFolder(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }
}
