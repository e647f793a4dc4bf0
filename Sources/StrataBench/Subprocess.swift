import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs a program and waits for it: its exit status, wall-clock time and resource usage (`wait4`).
public enum Subprocess {
    /// How a child ended.
    public struct Outcome: Sendable {
        /// The exit status (128 + signal when killed by one).
        public var status: Int32
        /// Wall-clock seconds from spawn to exit.
        public var seconds: Double
        /// The child's `ru_maxrss`, in bytes. On Linux it includes the peak of the image the child
        /// replaced by `exec` (for a spawned child, the parent's), so children that measure their own
        /// memory report `VmHWM` instead (``ChildTask``).
        public var peakResidentBytes: Int
        /// CPU seconds (user + system, every thread) of the child and the children it waited for.
        public var cpuSeconds: Double = 0
    }

    /// Why a child could not be run.
    public struct Failure: Error, CustomStringConvertible {
        /// What went wrong.
        public var description: String
    }

    /// Runs `executable` (looked up in `PATH` when it has no `/`) with `arguments`, in
    /// `directory` when given, its standard output and error appended to `log` (or discarded).
    public static func run(
        _ executable: String, _ arguments: [String], in directory: String? = nil, log: String? = nil
    ) throws -> Outcome {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        let output = log ?? "/dev/null"
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)

        // A child that must run elsewhere goes through `/bin/sh -c 'cd DIR && exec …'`
        // (posix_spawn_file_actions_addchdir_np is not available everywhere).
        var program = executable
        var argv = [executable] + arguments
        if let directory {
            program = "/bin/sh"
            argv = ["/bin/sh", "-c", "cd \"$0\" && exec \"$@\"", directory, executable] + arguments
        }
        let cArguments: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
        defer { for pointer in cArguments { free(pointer) } }

        let clock = ContinuousClock()
        let start = clock.now
        var pid: pid_t = 0
        let spawned = cArguments.withUnsafeBufferPointer { buffer -> Int32 in
            guard let base = buffer.baseAddress else { return EINVAL }
            return posix_spawnp(&pid, program, &actions, nil, base, environ)
        }
        guard spawned == 0 else {
            throw Failure(description: "cannot run \(executable): \(String(cString: strerror(spawned)))")
        }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 {
            guard errno == EINTR else { throw Failure(description: "wait4 failed for \(executable): errno \(errno)") }
        }
        let seconds = Stopwatch.seconds(clock.now - start)
        let exited = status & 0x7F == 0
        let code = exited ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        #if canImport(Darwin)
            let peak = Int(usage.ru_maxrss)  // bytes on Darwin
        #else
            let peak = Int(usage.ru_maxrss) * 1_024  // kilobytes on Linux
        #endif
        func cpu(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
        return Outcome(
            status: code, seconds: seconds, peakResidentBytes: peak,
            cpuSeconds: cpu(usage.ru_utime) + cpu(usage.ru_stime))
    }

    /// The path of the running executable, to run a measured part of the suite in a child.
    public static var currentExecutable: String {
        #if os(Linux)
            if let resolved = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
                return resolved
            }
        #endif
        return Bundle.main.executablePath ?? CommandLine.arguments[0]
    }
}
