import ArgumentParser
import StrataCore

package struct Generate: ConfiguredCommand {
    package static let configuration = CommandConfiguration(
        abstract: "Write Generated/ from Schemas/ and record the version checksums in strata.lock.",
        discussion: """
            Writes a file only when its bytes change, removes generated files that no longer belong, \
            and writes nothing at all when any schema has an error (exit status 1). A model's named \
            queries (<Model>/queries/*.sql) are prepared on an in-memory SQLite database of its latest \
            version: one that does not compile is an error at its line. Exit status 2 when a file \
            cannot be written, 130 when Ctrl-C stops it: either way nothing is written.
            """
    )

    @OptionGroup var schemaOptions: SchemaOptions
    @OptionGroup var outputOptions: OutputOptions

    package init() {}

    package func run(_ configuration: GeneratorConfiguration) throws {
        // Rendered and staged a file at a time: the output is many times the schemas' size.
        // Ctrl-C stops it before its next file and puts back what it wrote.
        Interruption.noteSignals()
        let outcome = try Workspace.generate(
            schemas: schemaOptions.schemas, output: outputOptions.output, databases: outputOptions.databases,
            configuration: configuration, report: { Console.report($0) })
        guard !outcome.hasErrors else { throw StrataExitCode.problemsFound.exitCode }
        let changed = outcome.changed
        let generated = outcome.files
        print(
            changed.isEmpty
                ? "Generated/ is up to date (\(generated) files)."
                : changed.map { "wrote \($0)" }.joined(separator: "\n"))
    }
}

package struct Check: ConfiguredCommand {
    package static let configuration = CommandConfiguration(
        abstract: "Verify that Generated/ and strata.lock are current and that frozen versions are unchanged.",
        discussion: """
            Writes nothing. Exits 1 with a unified diff for every stale, missing or extra file, or with \
            the diagnostics of the schemas; a missing or extra file longer than 200 lines shows its \
            first 200. With --base <ref> (the branch a pull request merges into, e.g. origin/main), \
            every version that exists on <ref> is frozen too, the latest included: a version file that \
            differs from <ref>'s is an error (run `strata rebase`). With --format json: one object, \
            {"current", "files", "diagnostics", "stale": [{"path", "kind", "diff"}]}, every diff whole. \
            With --format github: GitHub Actions annotations, one per problem and per stale file.
            """
    )

    @OptionGroup var schemaOptions: SchemaOptions
    @OptionGroup var outputOptions: OutputOptions
    @Option(help: ArgumentHelp("A git ref whose versions are frozen (e.g. origin/main).", valueName: "ref"))
    var base: String?
    @OptionGroup var formatOptions: ReviewFormatOptions

    package init() {}

    package func validate() throws { try formatOptions.requireNotMarkdown("check") }

    package func run(_ configuration: GeneratorConfiguration) throws {
        // Compared a file at a time as it is rendered, like generate: the output is never held whole.
        try outputOptions.requireFolder()
        let baseRef = try base.map {
            try BaseRef(ref: $0, schemas: schemaOptions.schemas, including: BaseVersionCheck.isVersionFile)
        }
        var prepared = Workspace.PreparedModels(
            Workspace.prepare(schemas: schemaOptions.schemas, output: outputOptions.output))
        if let baseRef {
            var bag = DiagnosticBag()
            bag.append(contentsOf: prepared.plan.diagnostics)
            bag.append(
                contentsOf: baseRef.diagnostics(histories: prepared.plan.histories, plans: prepared.migrationPlans))
            prepared.plan.diagnostics = bag.sorted
        }
        let outcome = Workspace.check(
            [prepared], output: outputOptions.output, databases: outputOptions.databases, configuration: configuration)
        let regeneration = configuration.regeneration
        let findings = outcome.stale
        let current = outcome.isCurrent
        switch formatOptions.format {
        case .json:
            let stale = findings.map { finding -> JSONValue in
                .object([
                    ("path", .string(finding.path)), ("kind", .string(finding.kind.rawValue)),
                    ("diff", .string(finding.diff)),
                ])
            }
            let output: JSONValue = .object([
                ("current", .bool(current)), ("files", .int(outcome.files)),
                ("diagnostics", .diagnostics(outcome.diagnostics)), ("stale", .array(stale)),
            ])
            print(output.rendered)
        case .github:
            let staleDiagnostics = findings.map {
                Diagnostic(
                    .error,
                    "\($0.path) is \($0.kind.rawValue): run `\(regeneration.command)` and commit the result",
                    at: .file($0.path))
            }
            print(DiagnosticAnnotations.render(outcome.diagnostics + staleDiagnostics), terminator: "")
            Console.report(findings, regeneration: regeneration)
        case .text, .markdown:
            Console.report(outcome.diagnostics)
            Console.report(findings, regeneration: regeneration)
            if current {
                print("Generated/ and strata.lock are current (\(outcome.files) files).")
            }
        }
        guard current else { throw StrataExitCode.problemsFound.exitCode }
    }
}

package struct Lint: ParsableCommand {
    package static let configuration = CommandConfiguration(
        abstract: "Report every problem in the schemas, and nothing else.",
        discussion: """
            With --format json: the diagnostics as a JSON array of {file, line, column, severity, message}. \
            With --format github: GitHub Actions annotations (::error file=…,line=…,col=…::message).
            """
    )

    @OptionGroup var schemaOptions: SchemaOptions
    @OptionGroup var formatOptions: ReviewFormatOptions

    package init() {}

    package func validate() throws { try formatOptions.requireNotMarkdown("lint") }

    package func run() throws {
        let plan = Workspace.plan(schemas: schemaOptions.schemas, output: "", render: false)
        switch formatOptions.format {
        case .text, .markdown:
            Console.report(plan.diagnostics)
            if plan.diagnostics.isEmpty { print("No problems in \(plan.histories.count) model(s).") }
        case .json:
            print(DiagnosticJSON.render(plan.diagnostics))
        case .github:
            print(DiagnosticAnnotations.render(plan.diagnostics), terminator: "")
        }
        if plan.hasErrors { throw StrataExitCode.problemsFound.exitCode }
    }
}
