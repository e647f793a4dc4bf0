import Foundation
import StrataCore
import StrataTestSupport
import Testing

/// The generator's inputs beyond the model are a value passed down the pipeline
/// (``GeneratorConfiguration``), not process-wide state: each rendering sees its own. (Its SQLite
/// Date format: `LegacyDateStorageTests`.)
@Suite struct GeneratorConfigurationTests {
    private func history(_ model: String) throws -> SchemaHistory {
        let (history, _, diagnostics) = SchemaLoader.loadModel(named: model, in: TestPaths.schemas.path)
        #expect(diagnostics.filter { $0.severity == .error }.isEmpty, "\(diagnostics)")
        return try #require(history)
    }

    /// The second line of every file names the configuration's command.
    private func commands(in files: [GeneratedFile]) -> Set<String> {
        Set(
            files.map { file in
                let lines = file.contents.split(separator: "\n", maxSplits: 2, omittingEmptySubsequences: false)
                return lines.count > 1 ? String(lines[1]) : ""
            })
    }

    @Test func everyFileNamesTheCommandOfItsConfiguration() throws {
        let history = try history("MyTODO")
        let cli = Generator.files(for: history, configuration: .commandLine)
        let plugin = Generator.files(for: history, configuration: .plugin)
        #expect(commands(in: cli) == ["// Change the schema and run `strata generate`.", "-- Change the schema and run `strata generate`."])
        let pluginCommand = Regeneration.plugin.command
        #expect(
            commands(in: plugin) == ["// Change the schema and run `\(pluginCommand)`.", "-- Change the schema and run `\(pluginCommand)`."])
        // Nothing else differs: the same files, the same text but for the command.
        #expect(plugin.map(\.path) == cli.map(\.path))
        for (a, b) in zip(cli, plugin) {
            #expect(a.contents == b.contents.replacingOccurrences(of: pluginCommand, with: "strata generate"), "\(a.path)")
        }
        // The default is the command line's.
        #expect(Generator.files(for: history) == cli)
    }

    /// What a process-wide setting could not give: renderings for two readers at once, each
    /// with its own command.
    @Test func concurrentRenderingsKeepTheirOwnConfiguration() async throws {
        let history = try history("MyTODO")
        let expected = Generator.files(for: history, configuration: .plugin)
        try await withThrowingTaskGroup(of: (Bool, [GeneratedFile]).self) { group in
            for index in 0..<8 {
                let plugin = index.isMultiple(of: 2)
                group.addTask { (plugin, Generator.files(for: history, configuration: plugin ? .plugin : .commandLine)) }
            }
            for try await (plugin, files) in group {
                let marker = plugin ? Regeneration.plugin.command : Regeneration.commandLine.command
                #expect(files.allSatisfy { $0.contents.contains("run `\(marker)`") })
                if plugin { #expect(files == expected) }
            }
        }
    }
}
