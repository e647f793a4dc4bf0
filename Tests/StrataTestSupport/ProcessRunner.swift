import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs command-line programs for the test fixtures with `posix_spawn` and `waitpid`, with their
/// output in a file: a program that leaves a daemon behind (pg_ctl) cannot hang the caller on
/// an open pipe, and waiting does not depend on a run loop noticing the child's exit.
public enum ProcessRunner {
    /// What a finished program did.
    public struct Result: Sendable {
        /// The exit status (128 + the signal number when a signal ended it).
        public var status: Int32
        /// Standard output and standard error, interleaved.
        public var output: String
    }

    /// A program that could not run or failed.
    public struct Failure: Error, CustomStringConvertible, Sendable {
        /// What went wrong, with the program's output.
        public var description: String
    }

    /// Runs `arguments[0]` (a path, or a name looked up in PATH) with the rest as arguments,
    /// feeding `input` on standard input (or /dev/null), and waits for it.
    @discardableResult
    public static func run(_ arguments: [String], input: String? = nil) throws -> Result {
        let temporary = FileManager.default.temporaryDirectory.appendingPathComponent(
            "strata-process-\(UUID().uuidString)")
        let outputPath = temporary.path + ".out"
        let inputPath = temporary.path + ".in"
        defer {
            try? FileManager.default.removeItem(atPath: outputPath)
            try? FileManager.default.removeItem(atPath: inputPath)
        }
        if let input { try Data(input.utf8).write(to: URL(fileURLWithPath: inputPath)) }
        let pid = try spawn(arguments, stdin: input == nil ? "/dev/null" : inputPath, output: outputPath)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 {
            guard errno == EINTR else {
                throw Failure(description: "waitpid failed for \(arguments.joined(separator: " ")): errno \(errno)")
            }
        }
        let output = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        return Result(status: exitStatus(status), output: output)
    }

    /// Starts a program in the background without waiting for it, its output (standard output
    /// and error) in the file `output` (discarded by default); returns its process id.
    @discardableResult
    public static func start(_ arguments: [String], output: String = "/dev/null") throws -> pid_t {
        try spawn(arguments, stdin: "/dev/null", output: output)
    }

    /// Runs a program and throws unless it exits with status 0.
    @discardableResult
    public static func check(_ arguments: [String], input: String? = nil) throws -> String {
        let result = try run(arguments, input: input)
        guard result.status == 0 else {
            throw Failure(
                description: "\(arguments.joined(separator: " ")) exited with \(result.status):\n\(result.output)")
        }
        return result.output
    }

    /// The full path of a program: `name` itself when it contains a `/`, else the first match in PATH.
    public static func locate(_ name: String) -> String? {
        if name.contains("/") { return FileManager.default.isExecutableFile(atPath: name) ? name : nil }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for folder in path.split(separator: ":") {
            let candidate = "\(folder)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    private static func spawn(_ arguments: [String], stdin: String, output: String) throws -> pid_t {
        guard let program = arguments.first, let path = locate(program) else {
            throw Failure(description: "program not found: \(arguments.first ?? "(none)")")
        }
        #if canImport(Glibc)
            var actions = posix_spawn_file_actions_t()
        #else
            var actions: posix_spawn_file_actions_t?
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, stdin, O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        #if canImport(Glibc)
            // Nothing else of this process: a daemon left behind (the server pg_ctl starts, the
            // watchdog that stops it) would otherwise hold another test's connection or the
            // pipes of a process that test waits for, for as long as it lives. (glibc 2.34's
            // posix_spawn_file_actions_addclosefrom_np, which Swift's Glibc module does not show.)
            if let closeFrom = closeFrom { _ = closeFrom(&actions, 3) }
        #endif
        var argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments.dropFirst()).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, path, &actions, nil, &argv, environ)
        guard result == 0 else { throw Failure(description: "cannot start \(path): error \(result)") }
        return pid
    }

    #if canImport(Glibc)
        private typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
        private static let closeFrom: CloseFrom? = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np").map {
            unsafeBitCast($0, to: CloseFrom.self)
        }
    #endif

    private static func exitStatus(_ status: Int32) -> Int32 {
        let signal = status & 0x7F
        return signal == 0 ? (status >> 8) & 0xFF : 128 + signal
    }
}
