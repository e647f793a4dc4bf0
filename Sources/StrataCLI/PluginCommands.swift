import ArgumentParser
import Foundation
import StrataCore

/// `strata build-plugin`: what the StrataPlugin build tool plugin runs, once per model folder.
///
/// Writes exactly the files `OutputLayout.swiftFiles(model:databases:hasQueries:)` names, every one of them, into
/// `<output>/<OutputLayout.swiftFolder(model:)>/` (`--output` is under the plugin's work
/// directory), and nothing else: no `strata.lock`, no SQL, nothing in the package.
package struct BuildPlugin: ConfiguredCommand {
    package static let configuration = CommandConfiguration(
        commandName: "build-plugin",
        abstract: "Write a model's Swift files for the StrataPlugin build tool plugin.",
        discussion: """
            Run by the build plugin, not by hand. Reads the versions in --model-folder, checks them \
            (and the frozen versions recorded in its strata.lock, if there is one), and writes the \
            model's Swift files into <output>/<Model>/Swift/, rewriting a file only when its bytes change. \
            Problems are printed as path:line:column: error: message, and nothing is written.
            """,
        shouldDisplay: false
    )

    @Option(help: ArgumentHelp("A model folder: the one holding v1.yaml, v2.yaml, …", valueName: "dir"))
    var modelFolder: String

    @Option(help: ArgumentHelp("The folder whose <Model>/Swift/ receives the Swift files.", valueName: "dir"))
    var output: String

    @Option(help: ArgumentHelp("The databases whose Swift to write, comma-separated (strata.yaml's 'databases').", valueName: "list"))
    var databases: String = "sqlite"

    @Option(help: ArgumentHelp("The access level of the generated declarations (strata.yaml's 'access').", valueName: "public|package|internal"))
    var access: AccessLevel = .public

    package init() {}

    package func run(_ configuration: GeneratorConfiguration) throws {
        let wanted = databases.split(separator: ",").map { String($0).trimmingCharacters(in: .whitespaces) }
        // Only the Swift is rendered: SQL only where the Swift embeds it (the migrations).
        var plan = ModelPlanner.plan(
            modelFolder: modelFolder, output: output, databases: SQLDialect.allCases.filter { wanted.contains($0.rawValue) },
            outputs: .swiftOnly, access: access, configuration: configuration)
        Console.report(plan.diagnostics)
        guard !plan.hasErrors, let history = plan.histories.first else { throw StrataExitCode.problemsFound.exitCode }
        // Only the Swift files: never strata.lock, never the SQL.
        let swiftFolder = ModelPlanner.join(output, OutputLayout.swiftFolder(model: history.model))
        let declared = OutputLayout.swiftFiles(
            model: history.model, databases: wanted, hasQueries: history.hasQueryFiles
        ).map { ModelPlanner.join(swiftFolder, $0) }
        plan.files = plan.files.filter { declared.contains($0.path) }
        plan.outputFolder = swiftFolder
        let missing = Set(declared).subtracting(plan.files.map(\.path))
        guard missing.isEmpty else {
            throw CouldNotRun("internal error: the generator did not render \(missing.sorted().joined(separator: ", ")), which OutputLayout declares")
        }
        Interruption.noteSignals()
        try Workspace.write(plan)
    }
}

/// `strata generate-models`: `strata generate` limited to some model folders, for the
/// StrataCommand plugin's `--target`.
///
/// Writes `<output>/<Model>/…` and `<model folder>/strata.lock` for each model folder given, and
/// removes stale generated files under `<output>/<Model>/` only: other models are never touched.
package struct GenerateModels: ConfiguredCommand {
    package static let configuration = CommandConfiguration(
        commandName: "generate-models",
        abstract: "Like generate, for the given model folders only.",
        discussion: """
            Run by the StrataCommand plugin for `--target`. Each --model-folder is a folder holding \
            v1.yaml, v2.yaml, …; its outputs go to <output>/<Model>/ and its checksums to \
            <model folder>/strata.lock. Writes nothing at all when any model has an error. With \
            --check it writes nothing and exits 1 with a unified diff when those files are stale.
            """,
        shouldDisplay: false
    )

    @Option(help: ArgumentHelp("A model folder (repeatable).", valueName: "dir"))
    var modelFolder: [String]

    @OptionGroup var outputOptions: OutputOptions
    @Flag(help: "Write nothing: exit 1 with a unified diff when the files are not current.") var check = false

    package init() {}

    package func validate() throws {
        guard !modelFolder.isEmpty else { throw ValidationError("Give at least one --model-folder.") }
        let names = modelFolder.map(ModelPlanner.modelName(ofFolder:))
        if let repeated = Dictionary(grouping: names, by: { $0 }).first(where: { $0.value.count > 1 })?.key {
            throw ValidationError("Two model folders are both named '\(repeated)'; their outputs would collide.")
        }
    }

    package func run(_ configuration: GeneratorConfiguration) throws {
        // Rendered, and compared or staged, a file at a time, as `strata generate` does: the
        // output is many times the schemas' size.
        Allocator.limitRetainedMemory()
        let prepared = modelFolder.map { ModelPlanner.prepare(modelFolder: $0, output: outputOptions.output) }
        Console.report(prepared.flatMap(\.plan.diagnostics))
        guard !prepared.contains(where: \.plan.hasErrors) else { throw StrataExitCode.problemsFound.exitCode }
        if check {
            try outputOptions.requireFolder()
            let outcome = Workspace.check(
                prepared, output: outputOptions.output, databases: outputOptions.databases, configuration: configuration)
            Console.report(outcome.stale, regeneration: configuration.regeneration)
            guard outcome.stale.isEmpty else { throw StrataExitCode.problemsFound.exitCode }
            print("\(outcome.files) generated files are current.")
            return
        }
        Interruption.noteSignals()
        let outcome = try Workspace.generate(
            prepared, output: outputOptions.output, databases: outputOptions.databases, configuration: configuration)
        let changed = outcome.changed
        print(changed.isEmpty ? "\(outcome.files) generated files are up to date." : changed.map { "wrote \($0)" }.joined(separator: "\n"))
    }
}

/// Plans the outputs of one model folder with `Workspace.plan`, the very plan `strata generate`
/// makes, narrowed to that model.
package enum ModelPlanner {
    /// The plan of `strata generate --schemas <parent of modelFolder> --output <output>
    /// --databases <databases>` narrowed to the model in `modelFolder`: its diagnostics, its files
    /// (under `<output>/<Model>/`, and its `strata.lock`), its history; `outputFolder` is
    /// `<output>/<Model>`, so writing the plan removes stale generated files of this model only.
    /// Other models in the same parent folder are not read.
    /// With `outputs` of ``GeneratedOutputs/swiftOnly`` the files are the model's Swift alone;
    /// its declarations are `access`; the files are rendered for `configuration`.
    package static func plan(
        modelFolder: String, output: String, databases: [SQLDialect] = SQLDialect.allCases, outputs: GeneratedOutputs = .all,
        access: AccessLevel = .public, configuration: GeneratorConfiguration = .commandLine
    ) -> GenerationPlan {
        let prepared = prepare(modelFolder: modelFolder, output: output)
        var plan = prepared.plan
        guard !plan.hasErrors else { return plan }
        for (history, plans) in zip(plan.histories, prepared.migrationPlans) {
            for file in Generator.files(
                for: history, plans: plans, databases: databases, outputs: outputs, access: access,
                configuration: configuration)
            {
                plan.files.append(GeneratedFile(path: SchemaLoader.join(output, file.path), contents: file.contents))
            }
        }
        return plan
    }

    /// ``plan(modelFolder:output:databases:outputs:)`` before rendering: the model's diagnostics,
    /// its `strata.lock`, its history and migration plans, with `outputFolder` `<output>/<Model>`;
    /// for `Workspace.generate(_:output:databases:)` and `Workspace.check(_:output:databases:)`,
    /// which render a file at a time.
    package static func prepare(modelFolder: String, output: String) -> Workspace.PreparedModels {
        let folder = modelFolder.count > 1 && modelFolder.hasSuffix("/") ? String(modelFolder.dropLast()) : modelFolder
        let model = modelName(ofFolder: folder)
        let parent = SchemaLoader.parent(of: folder)
        var prepared = Workspace.PreparedModels(
            Workspace.prepare(schemas: parent.isEmpty ? "." : parent, output: output, only: model))
        let inside = join(parent.isEmpty ? "." : parent, model)
        let modelOutput = join(output, model)
        let belongs: (Diagnostic) -> Bool = { $0.location.file == inside || $0.location.file.hasPrefix(inside + "/") }
        var isDirectory: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory) && isDirectory.boolValue
        prepared.plan.outputFolder = modelOutput
        guard exists, prepared.plan.histories.contains(where: { $0.model == model }) || prepared.plan.diagnostics.contains(where: belongs)
        else {
            var bag = DiagnosticBag()
            bag.error(
                exists ? "'\(folder)' is not a model folder: it has no v1.yaml, v2.yaml, …" : "model folder '\(folder)' does not exist",
                at: .file(folder))
            prepared.plan.diagnostics = bag.sorted
            prepared.plan.files = []
            prepared.plan.histories = []
            prepared.migrationPlans = []
            return prepared
        }
        prepared.plan.diagnostics = prepared.plan.diagnostics.filter(belongs)
        prepared.plan.files = prepared.plan.files.filter { $0.path == join(inside, Lockfile.fileName) }
        let kept = zip(prepared.plan.histories, prepared.migrationPlans).filter { $0.0.model == model }
        prepared.plan.histories = kept.map(\.0)
        prepared.migrationPlans = kept.map(\.1)
        return prepared
    }

    /// `MyTODO` for `../../Schemas/MyTODO`.
    package static func modelName(ofFolder folder: String) -> String {
        (folder.hasSuffix("/") ? String(folder.dropLast()) : folder).split(separator: "/").last.map(String.init) ?? folder
    }

    /// `directory/name`, without doubling a `/`.
    package static func join(_ directory: String, _ name: String) -> String {
        directory.isEmpty ? name : directory.hasSuffix("/") ? directory + name : directory + "/" + name
    }
}
