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
        Console.report(outcome.diagnostics)
        guard !outcome.hasErrors else { throw StrataExitCode.problemsFound.exitCode }
        if outcome.isUpToDate {
            print("Already up to date with \(outcome.target).")
            return
        }
        for entry in outcome.replayed {
            print("\(entry.model): v\(entry.ours).yaml replayed as v\(entry.rebased).yaml")
        }
        for path in outcome.changed { print("wrote \(path)") }
    }
}
