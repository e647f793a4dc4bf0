import Foundation
import StrataCore

/// The versions of a Core Data model on disk, in the order they become Strata versions: a
/// `.xcdatamodeld` bundle (one `.xcdatamodel` folder per version, the current one named by
/// `.xccurrentversion`) or a single `.xcdatamodel`.
public struct CoreDataBundle: Sendable, Equatable {
    /// One version: its name (`MyTODO 2`) and the path of its `contents` file.
    public struct Version: Sendable, Equatable {
        /// The version's name: the folder's name without `.xcdatamodel`.
        public var name: String
        /// The path of its `contents` XML.
        public var contents: String
    }

    /// The model's default name: the bundle's name without its extension.
    public var modelName: String
    /// The versions, oldest first (the current one last).
    public var versions: [Version]
    /// The current version's name, when `.xccurrentversion` names one.
    public var current: String?

    /// Reads the bundle or model at `path` and orders its versions: `order` (names, with or without
    /// `.xcdatamodel`) when given, otherwise the way Xcode names them (`Model`, `Model 2`, …, numbers
    /// in natural order) with the current version last.
    public static func open(_ path: String, order: [String]?) -> Result<CoreDataBundle, DiagnosticsError> {
        var bag = DiagnosticBag()
        let trimmed = path.hasSuffix("/") && path.count > 1 ? String(path.dropLast()) : path
        let fileName = SchemaLoader.name(of: trimmed)
        guard SchemaLoader.isFolder(trimmed) else {
            let why =
                FileManager.default.fileExists(atPath: trimmed)
                ? "is a file, not a .xcdatamodeld or .xcdatamodel folder" : "does not exist"
            return .failure(DiagnosticsError([Diagnostic(.error, "'\(trimmed)' \(why)", at: .file(trimmed))]))
        }
        if fileName.hasSuffix(".xcdatamodel") {
            let name = String(fileName.dropLast(".xcdatamodel".count))
            return .success(
                CoreDataBundle(
                    modelName: name, versions: [Version(name: name, contents: SchemaLoader.join(trimmed, "contents"))],
                    current: nil))
        }
        guard fileName.hasSuffix(".xcdatamodeld") else {
            return .failure(
                DiagnosticsError([
                    Diagnostic(
                        .error,
                        "'\(trimmed)' is not a Core Data model: expected a .xcdatamodeld bundle or a .xcdatamodel",
                        at: .file(trimmed))
                ]))
        }
        let modelName = String(fileName.dropLast(".xcdatamodeld".count))
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: trimmed)) ?? [])
            .filter { $0.hasSuffix(".xcdatamodel") && !$0.hasPrefix(".") }
            .map { String($0.dropLast(".xcdatamodel".count)) }
            .sorted(by: naturalOrder)
        guard !names.isEmpty else {
            return .failure(
                DiagnosticsError([Diagnostic(.error, "'\(trimmed)' holds no .xcdatamodel version", at: .file(trimmed))])
            )
        }
        // Two versions whose names differ only in case (or Unicode normalization) are one name to
        // Xcode and to macOS's file system.
        var seen: [String: String] = [:]
        for name in names {
            if let other = seen[name.lowercased()] {
                bag.error(
                    "two versions have the same name: '\(other).xcdatamodel' and '\(name).xcdatamodel'; rename one in Xcode",
                    at: .file(SchemaLoader.join(trimmed, name + ".xcdatamodel")))
            }
            seen[name.lowercased()] = name
        }
        var current: String?
        let currentPath = SchemaLoader.join(trimmed, ".xccurrentversion")
        if let data = FileManager.default.contents(atPath: currentPath) {
            let plist = try? PropertyListSerialization.propertyList(from: data, options: [], format: nil)
            guard let value = (plist as? [String: Any])?["_XCCurrentVersionName"] as? String else {
                bag.error(
                    "cannot read the current version: expected a property list with '_XCCurrentVersionName'",
                    at: .file(currentPath))
                return .failure(DiagnosticsError(bag.sorted))
            }
            let name = value.hasSuffix(".xcdatamodel") ? String(value.dropLast(".xcdatamodel".count)) : value
            guard names.contains(name) else {
                bag.error(
                    "the current version '\(value)' is not a version of the bundle (\(names.joined(separator: ", ")))",
                    at: .file(currentPath))
                return .failure(DiagnosticsError(bag.sorted))
            }
            current = name
        } else if names.count > 1 && order == nil {
            bag.error(
                "the bundle has \(names.count) versions but no .xccurrentversion to say which is current; give their order with --order \(names.joined(separator: ","))",
                at: .file(trimmed))
        }
        if bag.hasErrors { return .failure(DiagnosticsError(bag.sorted)) }

        var ordered = names.filter { $0 != current } + (current.map { [$0] } ?? [])
        if let order {
            let wanted = order.map { $0.hasSuffix(".xcdatamodel") ? String($0.dropLast(".xcdatamodel".count)) : $0 }
            for name in wanted where !names.contains(name) {
                let suggestion = Suggestion.didYouMean(name, in: names)
                bag.error(
                    "--order names '\(name)', which is not a version of the bundle (\(names.joined(separator: ", ")))\(suggestion)",
                    at: .file(trimmed))
            }
            for name in names where wanted.filter({ $0 == name }).count > 1 {
                bag.error("--order names '\(name)' more than once", at: .file(trimmed))
            }
            for name in names where !wanted.contains(name) {
                bag.error("--order leaves out version '\(name)': name every version once", at: .file(trimmed))
            }
            if bag.hasErrors { return .failure(DiagnosticsError(bag.sorted)) }
            ordered = wanted
        }
        let versions = ordered.map {
            Version(name: $0, contents: SchemaLoader.join(SchemaLoader.join(trimmed, $0 + ".xcdatamodel"), "contents"))
        }
        return .success(CoreDataBundle(modelName: modelName, versions: versions, current: current))
    }

    /// Natural order: runs of digits compare as numbers (`Model 2` < `Model 10`), `Model` first.
    public static func naturalOrder(_ lhs: String, _ rhs: String) -> Bool {
        let left = chunks(lhs)
        let right = chunks(rhs)
        for (a, b) in zip(left, right) where a != b {
            switch (Int(a), Int(b)) {
            case let (x?, y?): return x != y ? x < y : a < b
            default: return a < b
            }
        }
        return left.count != right.count ? left.count < right.count : lhs < rhs
    }

    private static func chunks(_ text: String) -> [String] {
        var result: [String] = []
        var current = ""
        var digits = false
        for character in text {
            let isDigit = character.isASCII && character.isNumber
            if !current.isEmpty && isDigit != digits {
                result.append(current)
                current = ""
            }
            digits = isDigit
            current.append(character)
        }
        if !current.isEmpty { result.append(current) }
        return result
    }
}
