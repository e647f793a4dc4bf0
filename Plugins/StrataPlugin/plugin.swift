import Foundation
import PackagePlugin

/// The Strata build tool plugin: generates a target's Swift model code from versioned schemas at
/// build time.
///
/// The target holds a `strata.yaml` naming its model folders (see `StrataConfig`). For each
/// model the plugin adds one build command, `strata-generator build-plugin`, whose inputs are the model's
/// version files, its `strata.lock`, its query files (`queries/*.sql`), the folder itself (so an
/// added version is noticed) and its queries folder, the
/// configuration and the `strata-generator` tool; whose outputs are the files `OutputLayout` names for the
/// model, which the tool always writes, under the plugin's work directory and nowhere else.
@main
struct StrataPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
        guard let target = target as? SwiftSourceModuleTarget else {
            throw StrataPluginError.notSwift(target: target.name)
        }
        return try Self.commands(
            targetName: target.name,
            targetDirectory: target.directoryURL,
            workDirectory: context.pluginWorkDirectoryURL,
            tool: context.tool(named: GeneratorTool.name).url)
    }

    /// The build commands of one target.
    static func commands(targetName: String, targetDirectory: URL, workDirectory: URL, tool: URL) throws -> [Command] {
        let configURL = targetDirectory.appending(path: StrataConfig.fileName)
        let configPath = configURL.path(percentEncoded: false)
        guard let data = FileManager.default.contents(atPath: configPath) else {
            throw StrataPluginError.noConfig(target: targetName, path: configPath)
        }
        let folders: [StrataConfig.ModelFolder]
        let databases: [String]
        do throws(StrataConfig.Problem) {
            let config = try StrataConfig(parsing: String(decoding: data, as: UTF8.self))
            folders = try config.modelFolders(relativeTo: targetDirectory.path(percentEncoded: false))
            databases = config.databases
        } catch {
            throw StrataPluginError.badConfig(path: configPath, problem: error)
        }
        return folders.map { folder in
            let output = workDirectory.appending(path: "GeneratedSources")
            let swiftFolder = output.appending(path: OutputLayout.swiftFolder(model: folder.model))
            let outputs = OutputLayout.swiftFiles(
                model: folder.model, databases: databases, hasQueries: !folder.queryFiles.isEmpty
            ).map { swiftFolder.appending(path: $0) }
            // The queries folder too, when there is one: a query file added to it is noticed.
            let queries = URL(fileURLWithPath: folder.path).appending(path: OutputLayout.queriesFolder)
            let folders = [URL(fileURLWithPath: folder.path)] + (folder.queryFiles.isEmpty ? [] : [queries])
            let inputs = [tool, configURL] + folders + folder.files.map { URL(fileURLWithPath: $0) }
            return .buildCommand(
                displayName: "Strata: generating \(folder.model) Swift for \(targetName)",
                executable: tool,
                arguments: [
                    "build-plugin", "--model-folder", folder.path, "--output", output.path(percentEncoded: false),
                    "--databases", databases.joined(separator: ","),
                ],
                environment: [:],
                inputFiles: inputs,
                outputFiles: outputs)
        }
    }
}

/// Why the build plugin cannot plan a target.
enum StrataPluginError: Error, CustomStringConvertible {
    case notSwift(target: String)
    case noConfig(target: String, path: String)
    case badConfig(path: String, problem: StrataConfig.Problem)

    var description: String {
        switch self {
        case .notSwift(let target):
            "target '\(target)' is not a Swift target: the Strata plugin generates Swift"
        case .noConfig(let target, let path):
            "target '\(target)' uses the Strata plugin but has no \(StrataConfig.fileName) (looked for \(path)); add one with 'schemas: <folder of v1.yaml, v2.yaml, …>'"
        case .badConfig(let path, let problem):
            "\(path):\(problem.line):\(problem.column): error: \(problem.message)"
        }
    }
}
