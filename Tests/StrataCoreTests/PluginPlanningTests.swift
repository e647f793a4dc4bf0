import Foundation
import StrataCore
import StrataTestSupport
import Testing

/// What both plugins do for a target, SwiftPM or Xcode (`PluginPlanning`, shared with the plugins).
@Suite struct PluginPlanningTests {
    /// A project folder with `App/strata.yaml` naming `../Schemas/MyTODO` (a copy of the TODO app's schemas).
    private func project(config: String = "schemas: ../Schemas/MyTODO\n") throws -> URL {
        let root = try TestPaths.temporaryFolder()
        let manager = FileManager.default
        try manager.createDirectory(at: root.appendingPathComponent("Schemas"), withIntermediateDirectories: true)
        try manager.copyItem(
            at: TestPaths.schemas.appendingPathComponent("MyTODO"), to: root.appendingPathComponent("Schemas/MyTODO"))
        try manager.createDirectory(at: root.appendingPathComponent("App"), withIntermediateDirectories: true)
        try Data(config.utf8).write(to: root.appendingPathComponent("App/strata.yaml"))
        return root
    }

    @Test func findsTheConfigurationAmongAnXcodeTargetsFiles() throws {
        let files = ["/p/App/ContentView.swift", "/p/App/strata.yaml", "/p/App/Assets.xcassets"]
        #expect(try PluginPlanning.configFile(among: files, target: "App") == "/p/App/strata.yaml")
        #expect(try PluginPlanning.configFile(among: ["/p/App/App.swift"], target: "App") == nil)
        #expect(throws: PluginProblem.severalConfigs(target: "App", paths: ["/p/A/strata.yaml", "/p/B/strata.yaml"])) {
            try PluginPlanning.configFile(among: ["/p/B/strata.yaml", "/p/A/strata.yaml"], target: "App")
        }
    }

    @Test func plansOneBuildCommandPerModelWritingOnlyUnderTheWorkDirectory() throws {
        let root = try project(config: "schemas: ../Schemas/MyTODO\ndatabases: sqlite\n")
        let config = root.appendingPathComponent("App/strata.yaml").standardizedFileURL.path
        let steps = try PluginPlanning.buildSteps(
            target: "App", configPath: config, workDirectory: "/work/plugin", tool: "/bin/strata-generator")
        let model = root.appendingPathComponent("Schemas/MyTODO").standardizedFileURL.path
        #expect(steps.count == 1)
        #expect(steps.first?.model == "MyTODO")
        #expect(
            steps.first?.arguments == [
                "build-plugin", "--model-folder", model, "--output", "/work/plugin/GeneratedSources", "--databases",
                "sqlite",
            ])
        #expect(steps.first?.inputs.prefix(3) == ["/bin/strata-generator", config, model])
        #expect(steps.first?.inputs.contains(model + "/v3.yaml") == true)
        #expect(steps.first?.inputs.contains(model + "/strata.lock") == true)
        // The TODO app's named queries: every query file and the queries folder are inputs, and
        // MyTODOQueries.swift an output.
        #expect(steps.first?.inputs.contains(model + "/queries") == true)
        #expect(steps.first?.inputs.contains(model + "/queries/items.sql") == true)
        #expect(steps.first?.outputs.last == "/work/plugin/GeneratedSources/MyTODO/Swift/MyTODOQueries.swift")
        #expect(
            steps.first?.outputs
                == OutputLayout.swiftFiles(model: "MyTODO", databases: ["sqlite"], hasQueries: true).map {
                    "/work/plugin/GeneratedSources/MyTODO/Swift/" + $0
                })
    }

    @Test func reportsAMissingOrBadConfigurationAtItsLine() throws {
        let root = try project(config: "schemas: ../Schemas/MyTODO\ndatabases: [mysql]\n")
        let config = root.appendingPathComponent("App/strata.yaml").path
        #expect(throws: PluginProblem.self) {
            try PluginPlanning.buildSteps(target: "App", configPath: config, workDirectory: "/w", tool: "/t")
        }
        do {
            _ = try PluginPlanning.buildSteps(target: "App", configPath: config, workDirectory: "/w", tool: "/t")
        } catch {
            #expect(error.description.hasPrefix("\(config):2:13: error: unknown database 'mysql'"))
        }
        #expect(
            PluginProblem.noConfig(target: "App", path: nil).description.contains("none of its files is a strata.yaml"))
    }

    @Test func theAccessLevelReachesTheBuildCommandAndAMisspelledOneIsReportedAtItsColumn() throws {
        let root = try project(config: "schemas: ../Schemas/MyTODO\naccess: internal\n")
        let config = root.appendingPathComponent("App/strata.yaml").path
        let steps = try PluginPlanning.buildSteps(target: "App", configPath: config, workDirectory: "/w", tool: "/t")
        #expect(steps.first?.arguments.suffix(4) == ["--databases", "sqlite", "--access", "internal"])
        // public, the default, is not passed: the build commands of existing targets stay as they were.
        #expect(try StrataConfig(parsing: "schemas: a").access == "public")
        #expect(try StrataConfig(parsing: "schemas: a\naccess: package").access == "package")
        let misspelled = try project(config: "schemas: ../Schemas/MyTODO\naccess: internl\n")
        let misspelledConfig = misspelled.appendingPathComponent("App/strata.yaml").path
        do {
            _ = try PluginPlanning.buildSteps(target: "App", configPath: misspelledConfig, workDirectory: "/w", tool: "/t")
            Issue.record("an unknown access level is accepted")
        } catch {
            #expect(
                error.description == "\(misspelledConfig):2:9: error: unknown access level 'internl'; the levels are "
                    + "'public', 'package' and 'internal'; did you mean 'internal'?")
        }
        #expect(throws: StrataConfig.Problem(line: 2, column: 9, message: "unknown access level 'private'; the levels are 'public', 'package' and 'internal'")) {
            try StrataConfig(parsing: "schemas: a\naccess: private")
        }
        #expect(throws: StrataConfig.Problem.self) { try StrataConfig(parsing: "schemas: a\naccess: [public, internal]") }
    }

    @Test func generateModelsArgumentsAreRelativeToTheProjectFolder() {
        let folder = StrataConfig.ModelFolder(
            model: "MyTODO", path: "/p/Schemas/MyTODO", files: [],
            entry: StrataConfig.Entry(path: "../Schemas/MyTODO", line: 1, column: 10))
        #expect(
            PluginPlanning.generateModelsArguments([folder], root: "/p/", check: true) == [
                "generate-models", "--check", "--model-folder", "Schemas/MyTODO", "--output", "Generated",
            ])
        #expect(
            PluginPlanning.generateModelsArguments([folder], root: "/q", check: false) == [
                "generate-models", "--model-folder", "/p/Schemas/MyTODO", "--output", "Generated",
            ])
    }
}
