import ArgumentParser
import Foundation
import StrataCLI
import StrataCore

/// `strata rebase`: replays the versions this branch added on top of the target's.
struct Rebase: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Replay this branch's new versions on top of the versions the target branch added.",
        discussion: """
            Reads the versions of the merge base, the target (--onto, default: the upstream; in the \
            middle of a conflicted `git merge`, MERGE_HEAD; in a stopped `git rebase`, HEAD, with the \
            commit being replayed, REBASE_HEAD, as this branch and its parent as the base) and this \
            branch (the working tree, or HEAD/REBASE_HEAD while version files or strata.lock hold \
            conflict markers). Writes the target's versions \
            byte for byte, then each version this branch added (and an edit in place of the base's \
            latest version) as a three-way merge of snapshots, numbered after the target's, with its \
            hints (renamedFrom, transform, migration:) kept; then strata.lock and Generated/, as \
            `strata generate` does. A conflict (one property changed two ways, something removed on \
            one side and changed or used on the other, one name added twice) is reported at both \
            sides and nothing is written (exit status 1). A second run changes nothing.

            With --format github: the diagnostics as GitHub Actions annotations, so that a conflict \
            lands on its lines of the pull request's diff. With --format json: one object, \
            {"target", "upToDate", "replayed": [{"model", "from", "to"}], "written": [paths], \
            "diagnostics": [{file, line, column, severity, message}]}.

            Examples:
              strata rebase                         # onto the upstream, e.g. origin/main
              strata rebase --onto main --model Shop
              git merge main; strata rebase         # resolve a conflicted merge of versions
              git rebase main; strata rebase; git add -A; git rebase --continue
            """
    )

    @Option(
        help: ArgumentHelp(
            "The branch or commit to rebase onto (default: MERGE_HEAD during a merge, HEAD during a git rebase, else @{u}).",
            valueName: "ref"))
    var onto: String?

    @Option(help: ArgumentHelp("Rebase this model only (default: every model folder).", valueName: "name"))
    var model: String?

    @OptionGroup var schemaOptions: SchemaOptions
    @OptionGroup var outputOptions: OutputOptions
    @OptionGroup var formatOptions: ReviewFormatOptions

    func validate() throws { try formatOptions.requireNotMarkdown("rebase") }

    func run() throws {
        Interruption.noteSignals()
        let outcome: StrataCore.Rebase.Outcome
        do {
            outcome = try StrataCore.Rebase.run(
                schemas: schemaOptions.schemas, output: outputOptions.output, model: model, onto: onto,
                databases: outputOptions.databases)
        } catch let failure as GitRepository.Failure {
            throw CouldNotRun(failure.description)
        }
        switch formatOptions.format {
        case .text, .markdown:
            report(outcome)
        case .github:
            print(DiagnosticAnnotations.render(outcome.diagnostics), terminator: "")
        case .json:
            print(json(outcome).rendered)
        }
        if outcome.hasErrors { throw StrataExitCode.problemsFound.exitCode }
    }

    /// The outcome for people: diagnostics on standard error, what was replayed and written.
    private func report(_ outcome: StrataCore.Rebase.Outcome) {
        Console.report(outcome.diagnostics)
        guard !outcome.hasErrors else { return }
        if outcome.isUpToDate {
            print("Already up to date with \(outcome.target).")
            return
        }
        for entry in outcome.replayed {
            print("\(entry.model): v\(entry.ours).yaml replayed as v\(entry.rebased).yaml")
        }
        for path in outcome.changed { print("wrote \(path)") }
    }

    /// The outcome as one JSON object (see the discussion).
    private func json(_ outcome: StrataCore.Rebase.Outcome) -> JSONValue {
        let written = outcome.hasErrors || outcome.isUpToDate ? [] : outcome.changed
        return .object([
            ("target", .string(outcome.target)), ("upToDate", .bool(outcome.isUpToDate && !outcome.hasErrors)),
            (
                "replayed",
                .array(
                    (outcome.hasErrors ? [] : outcome.replayed).map {
                        .object([("model", .string($0.model)), ("from", .int($0.ours)), ("to", .int($0.rebased))])
                    })
            ),
            ("written", .array(written.map { .string($0) })),
            ("diagnostics", .diagnostics(outcome.diagnostics)),
        ])
    }
}
