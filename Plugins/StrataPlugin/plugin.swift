import Foundation
import PackagePlugin

/// The Strata build tool plugin: generates a target's Swift model code from versioned schemas at
/// build time, in SwiftPM packages and (through `XcodeBuildToolPlugin`) in Xcode app targets.
///
/// The target holds a `strata.yaml` naming its model folders (see `StrataConfig`): in a package,
/// in the target's folder; in an Xcode project, among the target's files. For each model the
/// plugin adds one build command, `strata-generator build-plugin`, whose inputs are the model's
/// version files, its `strata.lock`, its query files, the folder itself and its `queries` folder
/// (so an added version or query is noticed), the
/// configuration and the `strata-generator` tool; whose outputs are the files `OutputLayout` names for the
/// model, which the tool always writes, under the plugin's work directory and nowhere else.
/// `PluginPlanning` decides all of this; the plugin only turns its steps into commands.
@main
struct StrataPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
        guard let target = target as? SwiftSourceModuleTarget else {
            throw PluginProblem.notSwift(target: target.name)
        }
        let config = target.directoryURL.appending(path: StrataConfig.fileName)
        return try Self.commands(
            target: target.name, config: config, workDirectory: context.pluginWorkDirectoryURL,
            tool: context.tool(named: GeneratorTool.name).url)
    }

    /// The build commands of one target whose configuration file is `config`.
    static func commands(target: String, config: URL, workDirectory: URL, tool: URL) throws -> [Command] {
        try PluginPlanning.buildSteps(
            target: target, configPath: config.path(percentEncoded: false),
            workDirectory: workDirectory.path(percentEncoded: false), tool: tool.path(percentEncoded: false)
        ).map { step in
            .buildCommand(
                displayName: step.displayName,
                executable: tool,
                arguments: step.arguments,
                environment: [:],
                inputFiles: step.inputs.map { URL(fileURLWithPath: $0) },
                outputFiles: step.outputs.map { URL(fileURLWithPath: $0) })
        }
    }
}

#if canImport(XcodeProjectPlugin)
    import XcodeProjectPlugin

    /// In an Xcode project: the `strata.yaml` is one of the target's files (add it to the target),
    /// and its `schemas` folders are relative to its own folder.
    extension StrataPlugin: XcodeBuildToolPlugin {
        func createBuildCommands(context: XcodePluginContext, target: XcodeTarget) throws -> [Command] {
            let files = target.inputFiles.map { $0.url.path(percentEncoded: false) }
            guard let config = try PluginPlanning.configFile(among: files, target: target.displayName) else {
                throw PluginProblem.noConfig(target: target.displayName, path: nil)
            }
            return try Self.commands(
                target: target.displayName, config: URL(fileURLWithPath: config),
                workDirectory: context.pluginWorkDirectoryURL, tool: context.tool(named: GeneratorTool.name).url)
        }
    }
#endif
