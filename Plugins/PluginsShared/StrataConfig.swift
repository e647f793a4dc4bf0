// Shared by the CLI (through StrataCore) and the plugins, which cannot import library targets:
// the build plugin's configuration file, read the same way everywhere.

import Foundation

/// The configuration file of a target that uses the Strata build plugin: `strata.yaml` in the
/// target's folder.
///
/// ```yaml
/// # Sources/MyTODO/strata.yaml
/// schemas: ../../Schemas/MyTODO
/// databases: [sqlite, postgres]   # optional; the default is sqlite alone
/// access: internal                 # optional; public (the default), package or internal
/// ```
///
/// `schemas` names one folder, or a list of folders (`[a, b]` or one `- path` per line), each
/// relative to the target's folder (or absolute). A folder is either a model folder (it holds
/// `v1.yaml`, `v2.yaml`, …) or a folder of model folders, like `strata generate --schemas`.
/// `databases` names the databases whose Swift the target gets (`sqlite`, `postgres`): the
/// default is SQLite alone, so that an app never builds a PostgreSQL client it does not use.
/// `access` is the access level of the generated declarations: `public` by default, so that the
/// modules importing the target (an app and a server sharing a model target) can use them.
/// The file is a small subset of YAML: `key: value` lines and `#` comments.
public struct StrataConfig: Equatable, Sendable {
    /// The file name the plugins look for in a target's folder.
    public static let fileName = "strata.yaml"

    /// One folder named by `schemas`, with where it is written in the file.
    public struct Entry: Equatable, Sendable {
        /// The path as written: relative to the target's folder, or absolute.
        public var path: String
        /// 1-based line of the path in the file.
        public var line: Int
        /// 1-based column of the path in the file.
        public var column: Int

        /// Creates an entry.
        public init(path: String, line: Int, column: Int) {
            self.path = path
            self.line = line
            self.column = column
        }
    }

    /// A problem in the file, at a 1-based line and column.
    public struct Problem: Error, Equatable, Sendable, CustomStringConvertible {
        /// 1-based line.
        public var line: Int
        /// 1-based column.
        public var column: Int
        /// What is wrong.
        public var message: String

        /// Creates a problem.
        public init(line: Int, column: Int, message: String) {
            self.line = line
            self.column = column
            self.message = message
        }

        /// `line:column: message`; prefix it with the file's path to get a compiler-style line.
        public var description: String { "\(line):\(column): \(message)" }
    }

    /// The keys the file may contain.
    public static let keys = ["schemas", "databases", "access"]

    /// The access levels `access` may name, the default first.
    public static let accessLevels = ["public", "package", "internal"]

    /// The databases `databases` may name.
    public static let knownDatabases = OutputLayout.sqlDialects

    /// The folders named by `schemas`, in the order written.
    public var schemas: [Entry]
    /// The databases named by `databases` (`sqlite`, `postgres`), in output order; `["sqlite"]` by default.
    public var databases: [String]
    /// The access level of the generated declarations named by `access` (`public`, `package`,
    /// `internal`); `public` by default.
    public var access: String

    /// Creates a configuration.
    public init(schemas: [Entry], databases: [String] = ["sqlite"], access: String = "public") {
        self.schemas = schemas
        self.databases = databases
        self.access = access
    }

    /// Parses the text of a `strata.yaml`; throws the first ``Problem``.
    public init(parsing text: String) throws(Problem) {
        var values: [String: [Entry]] = [:]
        var listKey: (name: String, line: Int)?
        var lineNumber = 0
        for rawLine in text.split(separator: "\n", omittingEmptySubsequences: false) {
            lineNumber += 1
            let line = Array(Self.stripComment(String(rawLine.hasSuffix("\r") ? rawLine.dropLast() : rawLine)))
            let indent = line.prefix { $0 == " " || $0 == "\t" }.count
            guard indent < line.count else { continue }
            if line.contains("\t") {
                throw Problem(line: lineNumber, column: indent + 1, message: "tabs are not allowed in strata.yaml; indent with spaces")
            }
            if indent > 0 || line[indent] == "-" {
                // An item of a block list: only valid right after `schemas:` with nothing on its line.
                guard let key = listKey?.name, line[indent] == "-" else {
                    throw Problem(line: lineNumber, column: indent + 1, message: "unexpected indented line; write 'schemas: <folder>'")
                }
                var start = indent + 1
                while start < line.count, line[start] == " " { start += 1 }
                let entry = try Self.scalar(line, from: start, line: lineNumber)
                values[key, default: []].append(entry)
                continue
            }
            listKey = nil
            guard let colon = Self.keyColon(line) else {
                throw Problem(line: lineNumber, column: 1, message: "expected 'key: value', found '\(String(line))'")
            }
            let key = String(line[0..<colon]).trimmingSpaces
            guard Self.keys.contains(key) else {
                throw Problem(
                    line: lineNumber, column: 1,
                    message: "unknown key '\(key)' in strata.yaml; the keys are 'schemas', 'databases' and 'access'")
            }
            guard values[key] == nil else {
                throw Problem(line: lineNumber, column: 1, message: "'\(key)' is given twice; list every value under one '\(key):'")
            }
            var start = colon + 1
            while start < line.count, line[start] == " " { start += 1 }
            if start == line.count {
                values[key] = []
                listKey = (key, lineNumber)
            } else if line[start] == "[" {
                values[key] = try Self.flowList(line, from: start, line: lineNumber)
            } else {
                values[key] = [try Self.scalar(line, from: start, line: lineNumber)]
            }
        }
        guard let found = values["schemas"] else {
            throw Problem(line: 1, column: 1, message: "strata.yaml has no 'schemas' key; add 'schemas: <folder of vN.yaml files>'")
        }
        guard !found.isEmpty else {
            throw Problem(line: listKey?.line ?? 1, column: 1, message: "'schemas' lists no folder")
        }
        self.schemas = found
        var databases: [String] = []
        for entry in values["databases"] ?? [Entry(path: "sqlite", line: 1, column: 1)] {
            guard Self.knownDatabases.contains(entry.path) else {
                throw Problem(
                    line: entry.line, column: entry.column,
                    message: "unknown database '\(entry.path)'; the databases are \(Self.knownDatabases.map { "'\($0)'" }.joined(separator: " and "))")
            }
            databases.append(entry.path)
        }
        guard !databases.isEmpty else {
            throw Problem(line: 1, column: 1, message: "'databases' lists no database; name 'sqlite', 'postgres' or both")
        }
        self.databases = Self.knownDatabases.filter(databases.contains)
        self.access = try Self.accessLevel(values["access"], listedAt: listKey?.name == "access" ? listKey?.line : nil)
    }

    /// The level `access` names: one of ``accessLevels``, `public` when the key is absent.
    private static func accessLevel(_ entries: [Entry]?, listedAt listLine: Int?) throws(Problem) -> String {
        guard let entries else { return accessLevels[0] }
        guard entries.count == 1, let entry = entries.first else {
            throw Problem(
                line: entries.dropFirst().first?.line ?? listLine ?? 1, column: 1,
                message: "'access' names one level: public, package or internal")
        }
        guard accessLevels.contains(entry.path) else {
            let word = entry.path.lowercased()
            let nearest = accessLevels.min { EditDistance.between(word, $0) < EditDistance.between(word, $1) }
            let suggestion = nearest.flatMap { EditDistance.between(word, $0) <= 3 ? "; did you mean '\($0)'?" : nil } ?? ""
            throw Problem(
                line: entry.line, column: entry.column,
                message: "unknown access level '\(entry.path)'; the levels are 'public', 'package' and 'internal'\(suggestion)")
        }
        return entry.path
    }

    /// True for the name of a version file: `v1.yaml`, `v12.yml` (not `v0.yaml`, `v01.yaml`).
    public static func isVersionFileName(_ name: String) -> Bool {
        let stem: Substring
        if name.hasSuffix(".yaml") {
            stem = name.dropLast(5)
        } else if name.hasSuffix(".yml") {
            stem = name.dropLast(4)
        } else {
            return false
        }
        guard stem.hasPrefix("v") else { return false }
        let digits = stem.dropFirst()
        return !digits.isEmpty && !digits.hasPrefix("0") && digits.allSatisfy { $0 >= "0" && $0 <= "9" }
    }

    // MARK: - The YAML subset

    /// The line without a trailing `# comment` (a `#` at the start or after a space, outside quotes).
    private static func stripComment(_ line: String) -> Substring {
        var quote: Character?
        var previous: Character = " "
        var index = line.startIndex
        while index < line.endIndex {
            let character = line[index]
            if let open = quote {
                if character == open { quote = nil }
            } else if character == "\"" || character == "'" {
                quote = character
            } else if character == "#" && (previous == " " || previous == "\t") {
                return line[line.startIndex..<index].trimmingTrailingSpaces
            }
            previous = character
            index = line.index(after: index)
        }
        return Substring(line).trimmingTrailingSpaces
    }

    /// The offset of the `:` that ends a key (followed by a space or the end of the line).
    private static func keyColon(_ line: [Character]) -> Int? {
        for index in line.indices where line[index] == ":" {
            if index + 1 == line.count || line[index + 1] == " " { return index }
        }
        return nil
    }

    /// A plain, single-quoted or double-quoted scalar that runs to the end of the line.
    private static func scalar(_ line: [Character], from start: Int, line number: Int) throws(Problem) -> Entry {
        let (value, end) = try scalarToken(line, from: start, line: number, stops: [])
        guard end == line.count else {
            throw Problem(line: number, column: end + 1, message: "unexpected text after the folder path")
        }
        return value
    }

    /// `[a, "b", 'c']` on one line.
    private static func flowList(_ line: [Character], from start: Int, line number: Int) throws(Problem) -> [Entry] {
        var entries: [Entry] = []
        var index = start + 1
        while true {
            while index < line.count, line[index] == " " { index += 1 }
            guard index < line.count else {
                throw Problem(line: number, column: start + 1, message: "unterminated list: add ']'")
            }
            if line[index] == "]" && entries.isEmpty { index += 1; break }
            let (entry, end) = try scalarToken(line, from: index, line: number, stops: [",", "]"])
            entries.append(entry)
            index = end
            while index < line.count, line[index] == " " { index += 1 }
            guard index < line.count else {
                throw Problem(line: number, column: start + 1, message: "unterminated list: add ']'")
            }
            if line[index] == "]" { index += 1; break }
            index += 1  // the ","
        }
        guard index == line.count else {
            throw Problem(line: number, column: index + 1, message: "unexpected text after the list")
        }
        return entries
    }

    /// One scalar starting at `start`; returns it and the offset just past it.
    private static func scalarToken(
        _ line: [Character], from start: Int, line number: Int, stops: Set<Character>
    ) throws(Problem) -> (Entry, Int) {
        guard start < line.count else {
            throw Problem(line: number, column: start + 1, message: "expected a folder path")
        }
        let first = line[start]
        if first == "\"" || first == "'" {
            var value = ""
            var index = start + 1
            while index < line.count {
                let character = line[index]
                if character == first {
                    if first == "'" && index + 1 < line.count && line[index + 1] == "'" {
                        value.append("'")
                        index += 2
                        continue
                    }
                    guard !value.isEmpty else {
                        throw Problem(line: number, column: start + 1, message: "the folder path is empty")
                    }
                    return (Entry(path: value, line: number, column: start + 1), index + 1)
                }
                if first == "\"" && character == "\\" && index + 1 < line.count {
                    value.append(line[index + 1])
                    index += 2
                    continue
                }
                value.append(character)
                index += 1
            }
            throw Problem(line: number, column: start + 1, message: "unterminated quoted string")
        }
        var end = start
        while end < line.count, !stops.contains(line[end]) { end += 1 }
        let value = String(line[start..<end]).trimmingSpaces
        guard !value.isEmpty else {
            throw Problem(line: number, column: start + 1, message: "expected a folder path")
        }
        if let bad = value.first(where: { "{}[]&*!|>%@`".contains($0) }), value.first == bad {
            throw Problem(line: number, column: start + 1, message: "quote the folder path: it starts with '\(bad)'")
        }
        var trimmedEnd = end
        while trimmedEnd > start, line[trimmedEnd - 1] == " " { trimmedEnd -= 1 }
        return (Entry(path: value, line: number, column: start + 1), stops.isEmpty ? trimmedEnd : end)
    }
}

extension StringProtocol {
    fileprivate var trimmingSpaces: String {
        var text = Substring(self)
        while text.first == " " { text = text.dropFirst() }
        while text.last == " " { text = text.dropLast() }
        return String(text)
    }

    fileprivate var trimmingTrailingSpaces: Substring {
        var text = Substring(self)
        while let last = text.last, last == " " || last == "\t" { text = text.dropLast() }
        return text
    }
}

extension StrataConfig {
    /// A model folder named by a configuration, found on disk.
    public struct ModelFolder: Equatable, Sendable {
        /// The model's name: the folder's name.
        public var model: String
        /// The folder's absolute path, without `.` or `..` components.
        public var path: String
        /// The files the model's generated code depends on: every `.yaml`/`.yml` file in the
        /// folder, its `strata.lock` and `coredata-mapping.json` if there are, and its query files
        /// (`queries/*.sql`), as absolute paths, sorted.
        public var files: [String]
        /// The query files of the model (`queries/*.sql`), as absolute paths, sorted: when there
        /// is one, the model also gets `<Model>QueryRows.swift` and each database's queries file.
        public var queryFiles: [String] = []
        /// The entry of the configuration that named it.
        public var entry: Entry

        /// Creates a model folder.
        public init(model: String, path: String, files: [String], entry: Entry) {
            self.model = model
            self.path = path
            self.files = files
            self.entry = entry
        }
    }

    /// The model folders the configuration names, with `directory` (the target's folder) as the
    /// base of relative paths. Throws the first entry that names no folder, or names no model,
    /// or a second model with the same name (their outputs would collide).
    public func modelFolders(relativeTo directory: String) throws(Problem) -> [ModelFolder] {
        let manager = FileManager.default
        let base = URL(fileURLWithPath: directory, isDirectory: true)
        var folders: [ModelFolder] = []
        for entry in schemas {
            let url = URL(fileURLWithPath: entry.path, isDirectory: true, relativeTo: base).standardizedFileURL
            let path = url.path
            guard Self.isFolder(path) else {
                throw Problem(line: entry.line, column: entry.column, message: "schemas folder '\(entry.path)' does not exist (looked for \(path))")
            }
            let names = ((try? manager.contentsOfDirectory(atPath: path)) ?? []).filter { !$0.hasPrefix(".") }.sorted()
            let candidates: [String]
            if names.contains(where: Self.isVersionFileName) {
                candidates = [path]
            } else {
                candidates = names.map { Self.join(path, $0) }.filter(Self.isFolder)
                guard !candidates.isEmpty else {
                    throw Problem(
                        line: entry.line, column: entry.column,
                        message: "'\(entry.path)' holds no model: name a folder of v1.yaml, v2.yaml, … or a folder of such folders")
                }
            }
            for candidate in candidates {
                let model = URL(fileURLWithPath: candidate).lastPathComponent
                if folders.contains(where: { $0.model == model }) {
                    throw Problem(
                        line: entry.line, column: entry.column,
                        message: "a second model named '\(model)' (\(candidate)): model names must be unique in a target")
                }
                let files = ((try? manager.contentsOfDirectory(atPath: candidate)) ?? [])
                    .filter {
                        !$0.hasPrefix(".") && ($0.hasSuffix(".yaml") || $0.hasSuffix(".yml") || $0 == "strata.lock" || $0 == "coredata-mapping.json")
                    }
                    .sorted()
                    .map { Self.join(candidate, $0) }
                let queries = Self.join(candidate, OutputLayout.queriesFolder)
                let queryFiles = ((try? manager.contentsOfDirectory(atPath: queries)) ?? [])
                    .filter { !$0.hasPrefix(".") && $0.hasSuffix(".sql") }
                    .sorted()
                    .map { Self.join(queries, $0) }
                var folder = ModelFolder(model: model, path: candidate, files: files + queryFiles, entry: entry)
                folder.queryFiles = queryFiles
                folders.append(folder)
            }
        }
        return folders
    }

    private static func isFolder(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    private static func join(_ directory: String, _ name: String) -> String {
        directory.hasSuffix("/") ? directory + name : directory + "/" + name
    }
}
