// Shared by the CLI (through StrataCore, where it is tested) and the plugins, which cannot import
// library targets: what the plugins do for a target, whether SwiftPM or Xcode runs them. The
// plugins only turn these plans into PackagePlugin commands.

import Foundation

/// What the Strata plugins do for a target, independent of who runs them (SwiftPM or Xcode).
public enum PluginPlanning {
    /// One build command: `strata-generator build-plugin` for one model of a target.
    public struct BuildStep: Equatable, Sendable {
        /// The model the step generates.
        public var model: String
        /// What the build log shows.
        public var displayName: String
        /// The tool's arguments.
        public var arguments: [String]
        /// Absolute paths of the inputs: the tool, the configuration, the model folder (and its
        /// queries folder, when it has query files) and its files.
        public var inputs: [String]
        /// Absolute paths of the outputs: every Swift file the tool writes for the model.
        public var outputs: [String]
    }

    /// The `strata.yaml` among a target's input files (how Xcode names a target's files, and
    /// how swift-openapi-generator finds its configuration): nil when there is none; an error when
    /// there are several.
    public static func configFile(among files: [String], target: String) throws(PluginProblem) -> String? {
        let found = files.filter { ($0 as NSString).lastPathComponent == StrataConfig.fileName }.sorted()
        guard found.count <= 1 else { throw .severalConfigs(target: target, paths: found) }
        return found.first
    }

    /// The model folders, databases and access level a configuration file names; relative
    /// folders are relative to the file's folder.
    public static func configuredModels(
        configPath: String, target: String
    ) throws(PluginProblem) -> (folders: [StrataConfig.ModelFolder], databases: [String], access: String) {
        guard let data = FileManager.default.contents(atPath: configPath) else {
            throw .noConfig(target: target, path: configPath)
        }
        do throws(StrataConfig.Problem) {
            let config = try StrataConfig(parsing: String(decoding: data, as: UTF8.self))
            let folder = (configPath as NSString).deletingLastPathComponent
            return (try config.modelFolders(relativeTo: folder), config.databases, config.access)
        } catch {
            throw .badConfig(path: configPath, problem: error)
        }
    }

    /// The build commands of a target whose configuration is `configPath`: one per model, writing
    /// under `workDirectory/GeneratedSources` and nowhere else.
    public static func buildSteps(
        target: String, configPath: String, workDirectory: String, tool: String
    ) throws(PluginProblem) -> [BuildStep] {
        let (folders, databases, access) = try configuredModels(configPath: configPath, target: target)
        let output = join(workDirectory, "GeneratedSources")
        return folders.map { folder in
            let swiftFolder = join(output, OutputLayout.swiftFolder(model: folder.model))
            // The queries folder too, when there is one: a query file added to it is noticed.
            let queries = folder.queryFiles.isEmpty ? [] : [join(folder.path, OutputLayout.queriesFolder)]
            return BuildStep(
                model: folder.model,
                displayName: "Strata: generating \(folder.model) Swift for \(target)",
                arguments: [
                    "build-plugin", "--model-folder", folder.path, "--output", output,
                    "--databases", databases.joined(separator: ","),
                ] + (access == StrataConfig.accessLevels[0] ? [] : ["--access", access]),
                inputs: [tool, configPath, folder.path] + queries + folder.files,
                outputs: OutputLayout.swiftFiles(
                    model: folder.model, databases: databases, hasQueries: !folder.queryFiles.isEmpty
                ).map { join(swiftFolder, $0) })
        }
    }

    /// The arguments of `strata-generator generate-models` for the folders, written to `Generated/`
    /// of `root` (the package's or the Xcode project's folder), with root-relative paths where possible.
    public static func generateModelsArguments(_ folders: [StrataConfig.ModelFolder], root: String, check: Bool)
        -> [String]
    {
        let root = root.hasSuffix("/") ? String(root.dropLast()) : root
        var arguments = ["generate-models"] + (check ? ["--check"] : [])
        for folder in folders {
            let relative =
                folder.path.hasPrefix(root + "/") ? String(folder.path.dropFirst(root.count + 1)) : folder.path
            arguments += ["--model-folder", relative]
        }
        return arguments + ["--output", "Generated"]
    }

    private static func join(_ directory: String, _ name: String) -> String {
        directory.hasSuffix("/") ? directory + name : directory + "/" + name
    }
}

/// Why a plugin cannot plan a target.
public enum PluginProblem: Error, Equatable, CustomStringConvertible {
    /// The target is not a Swift target.
    case notSwift(target: String)
    /// The target has no `strata.yaml` (at `path`, or among its files when `path` is nil).
    case noConfig(target: String, path: String?)
    /// The target has more than one `strata.yaml` among its files.
    case severalConfigs(target: String, paths: [String])
    /// The configuration file has a problem.
    case badConfig(path: String, problem: StrataConfig.Problem)

    public var description: String {
        switch self {
        case .notSwift(let target):
            "target '\(target)' is not a Swift target: the Strata plugin generates Swift"
        case .noConfig(let target, let path?):
            "target '\(target)' uses the Strata plugin but has no \(StrataConfig.fileName) (looked for \(path)); add one with 'schemas: <folder of v1.yaml, v2.yaml, …>'"
        case .noConfig(let target, nil):
            "target '\(target)' uses the Strata plugin but none of its files is a \(StrataConfig.fileName); add one to the target with 'schemas: <folder of v1.yaml, v2.yaml, …>'"
        case .severalConfigs(let target, let paths):
            "target '\(target)' has \(paths.count) files named \(StrataConfig.fileName) (\(paths.joined(separator: ", "))); keep one and list every model folder in its 'schemas'"
        case .badConfig(let path, let problem):
            "\(path):\(problem.line):\(problem.column): error: \(problem.message)"
        }
    }
}
