import Foundation
import PackagePlugin

/// The Strata command plugin, `swift package --allow-writing-to-package-directory strata-generate`:
/// rewrites the package's `Generated/` and `strata.lock` files the way `strata generate` does.
///
/// - Without arguments it runs `strata generate --schemas Schemas --output Generated` in the
///   package's folder. A package without a `Schemas/` folder gets the models named by the
///   `strata.yaml` of every target instead.
/// - `--target <name>` (repeatable) limits it to the models named by those targets'
///   `strata.yaml`: each is written to `Generated/<Model>/`, its checksums to its `strata.lock`,
///   and no other model's files are touched.
/// - `--check` writes nothing: it fails with a unified diff of every stale, missing or extra file
///   when `Generated/` or a `strata.lock` is not what the command would write, for CI. SwiftPM
///   still asks for the plugin's permission, so CI passes `--allow-writing-to-package-directory`.
@main
struct StrataCommand: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        var extractor = ArgumentExtractor(arguments)
        let targetNames = extractor.extractOption(named: "target")
        let check = extractor.extractFlag(named: "check") > 0
        guard extractor.remainingArguments.isEmpty else {
            throw StrataCommandError.usage(
                "unexpected argument(s) \(extractor.remainingArguments.joined(separator: " ")); usage: strata-generate [--check] [--target <name>]…")
        }
        let tool = try context.tool(named: GeneratorTool.name).url
        let package = context.package.directoryURL.path(percentEncoded: false)
        let packageFolder = package.hasSuffix("/") ? String(package.dropLast()) : package

        if targetNames.isEmpty {
            let schemas = packageFolder + "/Schemas"
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: schemas, isDirectory: &isDirectory), isDirectory.boolValue {
                try run(tool, [check ? "check" : "generate", "--schemas", "Schemas", "--output", "Generated"], in: packageFolder, check: check)
                for (target, folder) in try configuredModels(of: context.package.targets, optional: true)
                where !folder.path.hasPrefix(schemas + "/") {
                    log("note: model \(folder.model) of target \(target) is not under Schemas/; run 'strata-generate --target \(target)' to generate it")
                }
                return
            }
            let models = try configuredModels(of: context.package.targets, optional: true)
            guard !models.isEmpty else {
                throw StrataCommandError.usage(
                    "nothing to generate: the package has no Schemas/ folder and no target has a \(StrataConfig.fileName)")
            }
            try generate(models.map(\.folder), tool: tool, root: packageFolder, check: check)
            return
        }

        let targets = try context.package.targets(named: targetNames)
        let models = try configuredModels(of: targets, optional: false)
        try generate(models.map(\.folder), tool: tool, root: packageFolder, check: check)
    }

    /// The model folders named by the targets' `strata.yaml`, with the target's name.
    /// A target without one is skipped when `optional`, and an error otherwise.
    private func configuredModels(of targets: [Target], optional: Bool) throws -> [(target: String, folder: StrataConfig.ModelFolder)] {
        var configs: [(target: String, config: String)] = []
        for target in targets {
            guard let target = target as? SwiftSourceModuleTarget else {
                if optional { continue }
                throw StrataCommandError.usage("target '\(target.name)' is not a Swift target")
            }
            let config = target.directoryURL.appending(path: StrataConfig.fileName).path(percentEncoded: false)
            if optional && !FileManager.default.fileExists(atPath: config) { continue }
            configs.append((target.name, config))
        }
        return try Self.models(configs)
    }

    /// The model folders of configuration files, each once, with the name of the target that names it.
    static func models(_ configs: [(target: String, config: String)]) throws -> [(target: String, folder: StrataConfig.ModelFolder)] {
        var models: [(target: String, folder: StrataConfig.ModelFolder)] = []
        for (target, config) in configs {
            do throws(PluginProblem) {
                for folder in try PluginPlanning.configuredModels(configPath: config, target: target).folders
                where !models.contains(where: { $0.folder.path == folder.path }) {
                    models.append((target, folder))
                }
            } catch {
                throw StrataCommandError.usage(error.description)
            }
        }
        return models
    }

    /// Runs `strata generate-models` for the folders, with `root`-relative paths where possible.
    func generate(_ folders: [StrataConfig.ModelFolder], tool: URL, root: String, check: Bool) throws {
        let arguments = PluginPlanning.generateModelsArguments(folders, root: root, check: check)
        try run(tool, arguments, in: root, check: check)
    }

    /// Runs the tool in `folder`, its output going to ours; throws when it fails.
    /// With `check`, exit status 1 of the tool means stale files.
    func run(_ tool: URL, _ arguments: [String], in folder: String, check: Bool) throws {
        log("strata \(arguments.joined(separator: " "))")
        let process = Process()
        process.executableURL = tool
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: folder, isDirectory: true)
        try process.run()
        process.waitUntilExit()
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            if check && process.terminationStatus == 1 { throw StrataCommandError.stale }
            throw StrataCommandError.failed(status: process.terminationStatus)
        }
    }

    func log(_ message: String) {
        FileHandle.standardError.write(Data((message + "\n").utf8))
    }
}

#if canImport(XcodeProjectPlugin)
import XcodeProjectPlugin

/// In an Xcode project (File > Packages, or the project's context menu): generates the models
/// named by the `strata.yaml` among the files of every target (or of the targets passed with
/// `--target`), into the project folder's `Generated/`; `--check` writes nothing and fails when
/// it is stale.
extension StrataCommand: XcodeCommandPlugin {
    func performCommand(context: XcodePluginContext, arguments: [String]) throws {
        var extractor = ArgumentExtractor(arguments)
        let targetNames = extractor.extractOption(named: "target")
        let check = extractor.extractFlag(named: "check") > 0
        let targets = context.xcodeProject.targets.filter { targetNames.isEmpty || targetNames.contains($0.displayName) }
        var configs: [(target: String, config: String)] = []
        for target in targets {
            let files = target.inputFiles.map { $0.url.path(percentEncoded: false) }
            do throws(PluginProblem) {
                if let config = try PluginPlanning.configFile(among: files, target: target.displayName) {
                    configs.append((target.displayName, config))
                } else if targetNames.contains(target.displayName) {
                    throw .noConfig(target: target.displayName, path: nil)
                }
            } catch {
                throw StrataCommandError.usage(error.description)
            }
        }
        let models = try Self.models(configs)
        guard !models.isEmpty else {
            throw StrataCommandError.usage("nothing to generate: no target has a \(StrataConfig.fileName) among its files")
        }
        let root = context.xcodeProject.directoryURL.path(percentEncoded: false)
        try generate(
            models.map(\.folder), tool: try context.tool(named: GeneratorTool.name).url,
            root: root.hasSuffix("/") ? String(root.dropLast()) : root, check: check)
    }
}
#endif

/// Why `strata-generate` stopped.
enum StrataCommandError: Error, CustomStringConvertible {
    case usage(String)
    case failed(status: Int32)
    case stale

    var description: String {
        switch self {
        case .usage(let message): message
        case .failed(let status): "strata failed (exit status \(status)); nothing was written"
        case .stale:
            "strata-generate --check: Generated/ or strata.lock is not current"
        }
    }
}
