import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A test hook: `STRATA_TEST_KILL_BEFORE_STATEMENT=N` makes `strata migrate` end itself with
/// SIGKILL just before the N-th statement of the run (counted from 1 over every version, leading
/// steps and backfill batches included), the way a deploy killed at that point would, so that tests
/// can stop a migration at every statement boundary and check that a rerun ends as an uninterrupted
/// run. Unset (always, outside tests), it does nothing.
enum FaultInjection {
    /// The statement before which to die, from the environment.
    static let killBeforeStatement: Int? = ProcessInfo.processInfo.environment["STRATA_TEST_KILL_BEFORE_STATEMENT"]
        .flatMap { Int($0) }

    nonisolated(unsafe) private static var statements = 0

    /// Counts a statement about to run; dies when it is the one asked for.
    static func willRunStatement() {
        guard let killBeforeStatement else { return }
        statements += 1
        if statements == killBeforeStatement { kill(getpid(), SIGKILL) }
    }
}
