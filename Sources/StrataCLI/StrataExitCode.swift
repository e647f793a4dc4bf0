import ArgumentParser
import StrataCore

/// The exit statuses of every Strata command (`strata`, `strata-generator`), one contract:
///
/// | status | meaning |
/// |---|---|
/// | 0 | success |
/// | 1 | problems found: diagnostics, stale generated files, a refused migration, a failed verification |
/// | 2 | could not run: I/O, a database that cannot be opened or is not a database, a connection that failed |
/// | 3 | `migrate --postgres`: the server refused the credentials (wrong password, a user that may not log in) |
/// | 4 | `migrate`: a migration failed and its transaction was rolled back (the database is at the previous version) |
/// | 64 | usage: unknown command or option, a missing or invalid argument (`EX_USAGE`, ArgumentParser's convention) |
package enum StrataExitCode: Int32, CaseIterable, Sendable {
    /// The command did what it was asked.
    case success = 0
    /// The command ran and found problems.
    case problemsFound = 1
    /// The command could not do its work (I/O, database file, connection).
    case couldNotRun = 2
    /// The database server refused the credentials.
    case authenticationFailed = 3
    /// A migration's SQL failed and its transaction was rolled back.
    case migrationFailed = 4
    /// The command line was wrong.
    case usage = 64

    /// The status as ArgumentParser's `ExitCode`, to throw from `run()`.
    package var exitCode: ExitCode { ExitCode(rawValue) }
}

/// An error that means the command could not run (exit status 2), with the message to print.
package struct CouldNotRun: Error, CustomStringConvertible {
    /// What went wrong, without the `error: ` prefix.
    package var description: String

    /// Creates the error.
    package init(_ description: String) { self.description = description }
}

/// Runs a root command with the exit-status contract of ``StrataExitCode``.
package enum CommandRunner {
    /// Parses `arguments` (default: the process's), runs the command and returns its status:
    /// ArgumentParser's own outcomes keep their statuses (0 for help and `--version`, 64 for
    /// usage errors), `ExitCode`s thrown by commands are kept, and any other error, which a
    /// command throws when it cannot do its work, prints `error: …` and is 2. A
    /// ``ConfiguredCommand`` renders for `configuration`, the tool's (the plugins' tool passes
    /// ``GeneratorConfiguration/plugin``).
    package static func run(
        _ root: any ParsableCommand.Type, configuration: GeneratorConfiguration = .commandLine,
        arguments: [String]? = nil
    ) async -> Int32 {
        do {
            var command = try root.parseAsRoot(arguments)
            if let command = command as? any ConfiguredCommand {
                try command.run(configuration)
            } else if var command = command as? any AsyncParsableCommand {
                try await command.run()
            } else {
                try command.run()
            }
            return StrataExitCode.success.rawValue
        } catch {
            return report(error, root: root)
        }
    }

    /// Prints `error` the way its kind wants and returns its status; ArgumentParser's own
    /// outcomes (help, `--version`, usage errors) are printed and exited by ArgumentParser.
    static func report(_ error: any Error, root: any ParsableCommand.Type) -> Int32 {
        if let code = error as? ExitCode { return code.rawValue }
        let status = status(for: error, root: root)
        guard status == StrataExitCode.couldNotRun.rawValue || error is OutputInterrupted else {
            root.exit(withError: error)
        }
        Console.error(String(describing: error))
        return status
    }

    /// The status for an error thrown while parsing or running.
    package static func status(for error: any Error, root: any ParsableCommand.Type) -> Int32 {
        if let code = error as? ExitCode { return code.rawValue }
        if error is CouldNotRun { return StrataExitCode.couldNotRun.rawValue }
        // Stopped by a signal, after putting everything back: 128 + its number, as a shell expects.
        if let interrupted = error as? OutputInterrupted { return interrupted.exitStatus }
        let code = root.exitCode(for: error)
        // ArgumentParser gives its own errors 0 (help, version) or 64; anything else it would call
        // a failure is an error of the command's work: it could not run.
        return code == .failure ? StrataExitCode.couldNotRun.rawValue : code.rawValue
    }
}
