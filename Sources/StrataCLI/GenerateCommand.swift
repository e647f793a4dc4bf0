import ArgumentParser
import StrataCore

package struct Generate: ParsableCommand {
    package static let configuration = CommandConfiguration(
        abstract: "Write Generated/ from Schemas/ and record the version checksums in strata.lock.",
        discussion: """
            Writes a file only when its bytes change, removes generated files that no longer belong,
            and writes nothing at all when any schema has an error.
            """
    )

    @OptionGroup var schemaOptions: SchemaOptions
    @OptionGroup var outputOptions: OutputOptions

    package init() {}

    package func run() throws {
        let plan = Workspace.plan(schemas: schemaOptions.schemas, output: outputOptions.output)
        Console.report(plan.diagnostics)
        guard !plan.hasErrors else { throw ExitCode.failure }
        let changed: [String]
        do {
            changed = try Workspace.write(plan)
        } catch let error as FileWriteError {
            Console.error(error.description)
            throw ExitCode.failure
        }
        let generated = plan.files.count
        print(changed.isEmpty ? "Generated/ is up to date (\(generated) files)." : changed.map { "wrote \($0)" }.joined(separator: "\n"))
    }
}

package struct Check: ParsableCommand {
    package static let configuration = CommandConfiguration(
        abstract: "Verify that Generated/ and strata.lock are current and that frozen versions are unchanged.",
        discussion: "Writes nothing. Exits 1 with a unified diff for every stale, missing or extra file."
    )

    @OptionGroup var schemaOptions: SchemaOptions
    @OptionGroup var outputOptions: OutputOptions

    package init() {}

    package func run() throws {
        let plan = Workspace.plan(schemas: schemaOptions.schemas, output: outputOptions.output)
        Console.report(plan.diagnostics)
        guard !plan.hasErrors else { throw ExitCode.failure }
        let findings = Workspace.check(plan)
        for finding in findings {
            print(finding.diff, terminator: "")
        }
        guard findings.isEmpty else {
            for finding in findings { Console.error("\(finding.path) is \(finding.kind.rawValue)") }
            Console.error("generated files are not current: run `swift run strata generate` and commit the result")
            throw ExitCode.failure
        }
        print("Generated/ and strata.lock are current (\(plan.files.count) files).")
    }
}

package struct Lint: ParsableCommand {
    package static let configuration = CommandConfiguration(
        abstract: "Report every problem in the schemas, and nothing else.")

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text
        case json
    }

    @OptionGroup var schemaOptions: SchemaOptions
    @Option(help: "Output format.") var format: Format = .text

    package init() {}

    package func run() throws {
        let plan = Workspace.plan(schemas: schemaOptions.schemas, output: "", render: false)
        switch format {
        case .text:
            Console.report(plan.diagnostics)
            if plan.diagnostics.isEmpty { print("No problems in \(plan.histories.count) model(s).") }
        case .json:
            print(DiagnosticJSON.render(plan.diagnostics))
        }
        if plan.hasErrors { throw ExitCode.failure }
    }
}
