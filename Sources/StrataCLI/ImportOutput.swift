import StrataCore

/// How every `strata import` command that writes schemas ends: the diagnostics on standard
/// error, `wrote <path>` for each file on standard output, and the exit status of the contract.
package enum ImportOutput {
    /// Reports `diagnostics` (the importer's), runs `write` noting Ctrl-C (``Interruption``), and
    /// reports what it wrote or why it wrote nothing: exit status 1 for problems (errors among
    /// `diagnostics`, or lint's), 2 for a file that cannot be written, 128 + the signal's number
    /// when a signal stopped the write.
    package static func finish(
        _ diagnostics: [Diagnostic],
        write: () throws(ImportedModelWriter.Failure) -> (written: [String], warnings: [Diagnostic])
    ) throws {
        guard !diagnostics.contains(where: { $0.severity == .error }) else {
            Console.report(diagnostics)
            throw StrataExitCode.problemsFound.exitCode
        }
        Interruption.noteSignals()
        do {
            let (written, warnings) = try write()
            Console.report(diagnostics + warnings)
            for path in written { print("wrote \(path)") }
        } catch {
            switch error {
            case .problems(let problems):
                Console.report(diagnostics + problems)
                throw StrataExitCode.problemsFound.exitCode
            case .io(let message):
                Console.report(diagnostics)
                throw CouldNotRun(message)
            case .interrupted(let stop):
                Console.report(diagnostics)
                throw stop
            }
        }
    }
}
