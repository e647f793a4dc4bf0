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
            try generate(models.map(\.folder), tool: tool, package: packageFolder, check: check)
            return
        }

        let targets = try context.package.targets(named: targetNames)
        let models = try configuredModels(of: targets, optional: false)
        try generate(models.map(\.folder), tool: tool, package: packageFolder, check: check)
    }

    /// The model folders named by the targets' `strata.yaml`, with the target's name.
    /// A target without one is skipped when `optional`, and an error otherwise.
    private func configuredModels(of targets: [Target], optional: Bool) throws -> [(target: String, folder: StrataConfig.ModelFolder)] {
        var models: [(target: String, folder: StrataConfig.ModelFolder)] = []
        for target in targets {
            guard let target = target as? SwiftSourceModuleTarget else {
                if optional { continue }
                throw StrataCommandError.usage("target '\(target.name)' is not a Swift target")
            }
            let directory = target.directoryURL.path(percentEncoded: false)
            let configPath = target.directoryURL.appending(path: StrataConfig.fileName).path(percentEncoded: false)
            guard let data = FileManager.default.contents(atPath: configPath) else {
                if optional { continue }
                throw StrataCommandError.usage("target '\(target.name)' has no \(StrataConfig.fileName) (looked for \(configPath))")
            }
            do throws(StrataConfig.Problem) {
                let config = try StrataConfig(parsing: String(decoding: data, as: UTF8.self))
                for folder in try config.modelFolders(relativeTo: directory) where !models.contains(where: { $0.folder.path == folder.path }) {
                    models.append((target.name, folder))
                }
            } catch {
                throw StrataCommandError.usage("\(configPath):\(error.line):\(error.column): error: \(error.message)")
            }
        }
        return models
    }

    /// Runs `strata generate-models` for the folders, with package-relative paths where possible.
    private func generate(_ folders: [StrataConfig.ModelFolder], tool: URL, package: String, check: Bool) throws {
        var arguments = ["generate-models"] + (check ? ["--check"] : [])
        for folder in folders {
            let relative = folder.path.hasPrefix(package + "/") ? String(folder.path.dropFirst(package.count + 1)) : folder.path
            arguments += ["--model-folder", relative]
        }
        arguments += ["--output", "Generated"]
        try run(tool, arguments, in: package, check: check)
    }

    /// Runs the tool in `folder`, its output going to ours; throws when it fails.
    /// With `check`, exit status 1 of the tool means stale files.
    private func run(_ tool: URL, _ arguments: [String], in folder: String, check: Bool) throws {
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

    private func log(_ message: String) {
        FileHandle.standardError.write(Data((message + "\n").utf8))
    }
}

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
