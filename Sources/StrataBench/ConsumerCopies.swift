import Foundation
import StrataCore

/// The two packages the plugin benchmark builds, made from the consumer package
/// (`Tests/Consumer`) in a work folder that is kept between runs, so that only the first run pays
/// for building their dependencies:
///
/// - `plugin/`: the consumer as it is, its `Notebook` Swift generated at build time by StrataPlugin;
/// - `checked-in/`: the same package without the plugin, the generated Swift checked into
///   `Sources/Notebook/Generated/` (as `strata generate` writes it) and no `strata.yaml`.
///
/// Both depend on this repository by its absolute path. Their sources are copied afresh on every
/// run; their `.build` folders stay.
struct ConsumerCopies {
    /// The repository root (holds `Package.swift` and `Tests/Consumer`).
    let root: String
    /// The work folder.
    let work: String

    /// The package using the plugin.
    var plugin: String { (work as NSString).appendingPathComponent("plugin") }
    /// The package with the generated files checked in.
    var checkedIn: String { (work as NSString).appendingPathComponent("checked-in") }
    /// The consumer package in the repository.
    var source: String { (root as NSString).appendingPathComponent("Tests/Consumer") }

    /// The target whose code is generated, and its model.
    static let target = "Notebook"
    static let model = "Notebook"

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Copies the consumer into both packages and adapts them.
    func prepare() throws {
        try sync(into: plugin)
        try sync(into: checkedIn)
        try rewriteManifest(of: plugin, dropPlugin: false)
        try rewriteManifest(of: checkedIn, dropPlugin: true)
        let config = (checkedIn as NSString).appendingPathComponent("Sources/\(Self.target)/strata.yaml")
        try? FileManager.default.removeItem(atPath: config)
        try writeCheckedInSwift()
    }

    /// The model folder of a package.
    func modelFolder(of package: String) -> String {
        (package as NSString).appendingPathComponent("Schemas/\(Self.model)")
    }

    /// The latest version number of the model in `package`.
    func latestVersion(of package: String) throws -> Int {
        let files = try FileManager.default.contentsOfDirectory(atPath: modelFolder(of: package))
        let numbers = files.compactMap { name -> Int? in
            guard name.hasPrefix("v"), name.hasSuffix(".yaml") else { return nil }
            return Int(name.dropFirst().dropLast(5))
        }
        guard let latest = numbers.max() else { throw Failure(description: "no versions in \(modelFolder(of: package))") }
        return latest
    }

    /// Adds `v(N+1).yaml`, a copy of the latest version with its number changed, to `package`'s
    /// model; returns its path.
    func addVersion(to package: String) throws -> String {
        let latest = try latestVersion(of: package)
        let folder = modelFolder(of: package)
        let text = try String(contentsOfFile: (folder as NSString).appendingPathComponent("v\(latest).yaml"), encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.hasPrefix("version:") ? "version: \(latest + 1)" : String(line)
        }
        let path = (folder as NSString).appendingPathComponent("v\(latest + 1).yaml")
        try Data(lines.joined(separator: "\n").utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// Writes the generated Swift of `checkedIn`'s schemas into its `Sources/Notebook/Generated`
    /// (what a user who commits generated code does after `strata generate`): the Swift of the
    /// databases the target's `strata.yaml` names, as the plugin writes. Returns the files that
    /// changed.
    @discardableResult
    func writeCheckedInSwift() throws -> Int {
        let schemas = (checkedIn as NSString).appendingPathComponent("Schemas")
        // The consumer's own `strata.yaml` (the checked-in copy has none: nothing generates there).
        let configPath = (source as NSString).appendingPathComponent("Sources/\(Self.target)/\(StrataConfig.fileName)")
        let config: StrataConfig
        do {
            config = try StrataConfig(parsing: try String(contentsOfFile: configPath, encoding: .utf8))
        } catch {
            throw Failure(description: "cannot read \(configPath): \(error)")
        }
        let databases = SQLDialect.allCases.filter { config.databases.contains($0.rawValue) }
        let plan = Workspace.plan(schemas: schemas, output: "", databases: databases)
        if plan.hasErrors {
            throw Failure(description: "the consumer's schemas do not generate: \(plan.diagnostics.prefix(3).map { "\($0)" })")
        }
        let destination = (checkedIn as NSString).appendingPathComponent("Sources/\(Self.target)/Generated")
        try FileManager.default.createDirectory(atPath: destination, withIntermediateDirectories: true)
        var changed = 0
        let swiftFolder = "\(Self.model)/Swift/"
        for file in plan.files where file.path.contains(swiftFolder) && file.path.hasSuffix(".swift") {
            let path = (destination as NSString).appendingPathComponent((file.path as NSString).lastPathComponent)
            let data = Data(file.contents.utf8)
            if FileManager.default.contents(atPath: path) == data { continue }
            try data.write(to: URL(fileURLWithPath: path))
            changed += 1
        }
        return changed
    }

    /// Replaces everything but `.build` in `package` with the consumer's files.
    private func sync(into package: String) throws {
        let manager = FileManager.default
        try manager.createDirectory(atPath: package, withIntermediateDirectories: true)
        for name in try manager.contentsOfDirectory(atPath: package) where name != ".build" {
            try manager.removeItem(atPath: (package as NSString).appendingPathComponent(name))
        }
        for name in try manager.contentsOfDirectory(atPath: source) where ![".build", ".swiftpm", "Generated"].contains(name) {
            try manager.copyItem(
                atPath: (source as NSString).appendingPathComponent(name),
                toPath: (package as NSString).appendingPathComponent(name))
        }
    }

    /// Points the manifest's dependency on Strata at the repository; without the plugin, drops the
    /// target's `plugins:` line.
    private func rewriteManifest(of package: String, dropPlugin: Bool) throws {
        let path = (package as NSString).appendingPathComponent("Package.swift")
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let relative = "path: \"../..\""
        guard text.contains(relative) else {
            throw Failure(description: "\(source)/Package.swift no longer depends on Strata by \(relative)")
        }
        var lines = text.replacingOccurrences(of: relative, with: "path: \"\(root)\"")
            .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if dropPlugin {
            guard let index = lines.firstIndex(where: { $0.contains("plugins:") && $0.contains("StrataPlugin") }) else {
                throw Failure(description: "\(source)/Package.swift has no 'plugins: [... StrataPlugin ...]' line")
            }
            lines.remove(at: index)
            // The argument before it may now end the call with a trailing comma.
            if index > 0, index < lines.count, lines[index].trimmingCharacters(in: .whitespaces).hasPrefix(")"),
                lines[index - 1].hasSuffix(",")
            {
                lines[index - 1].removeLast()
            }
        }
        try Data(lines.joined(separator: "\n").utf8).write(to: URL(fileURLWithPath: path))
    }
}
