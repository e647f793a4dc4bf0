import Foundation

/// Runs the executables of this package built next to the tests (`strata`, `strata-generator`).
public enum CLI {
    /// What a finished `strata` did: its exit status and its output.
    public struct Result: Sendable {
        /// The exit status.
        public var status: Int32
        /// Standard output.
        public var stdout: String
        /// Standard error.
        public var stderr: String
    }

    /// Runs the `strata` built next to the test bundle, in `directory` when given, and waits for it.
    public static func strata(_ arguments: [String], in directory: URL? = nil) throws -> Result {
        try run("strata", arguments, in: directory)
    }

    /// Runs an executable of this package (`strata`, `strata-generator`) built next to the test
    /// bundle, in `directory` when given, and waits for it.
    public static func run(_ tool: String, _ arguments: [String], in directory: URL? = nil) throws -> Result {
        finish(try start(arguments, tool: tool, in: directory))
    }

    /// `strata` with `arguments` and the schemas folder of `folder` (`folder/Schemas`).
    public static func strata(_ arguments: [String], schemasIn folder: URL) throws -> Result {
        try strata(arguments + ["--schemas", folder.appendingPathComponent("Schemas").path])
    }

    /// A `strata` process started and not waited for, with its output pipes.
    public struct Running {
        /// The process.
        public var process: Process
        /// Its standard output.
        public var stdout: Pipe
        /// Its standard error.
        public var stderr: Pipe
    }

    /// Starts `tool` (`strata` unless told) with `arguments`, in `directory` when given, without
    /// waiting for it; `environment` is added to this process's.
    public static func start(
        _ arguments: [String], tool: String = "strata", in directory: URL? = nil, environment: [String: String] = [:]
    ) throws -> Running {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent(tool)
        if let directory { process.currentDirectoryURL = directory }
        process.arguments = arguments
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        }
        let running = Running(process: process, stdout: Pipe(), stderr: Pipe())
        process.standardOutput = running.stdout
        process.standardError = running.stderr
        try process.run()
        return running
    }

    /// What a running `strata` wrote on standard error up to `text` (all of it when it ends first).
    public static func standardError(of running: Running, until text: String) -> String {
        var stderr = ""
        while !stderr.contains(text) {
            let chunk = running.stderr.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            stderr += String(decoding: chunk, as: UTF8.self)
        }
        return stderr
    }

    /// Waits for a started `strata` and returns what it did.
    public static func finish(_ running: Running) -> Result {
        let stdout = running.stdout.fileHandleForReading.readDataToEndOfFile()
        let stderr = running.stderr.fileHandleForReading.readDataToEndOfFile()
        running.process.waitUntilExit()
        return Result(
            status: running.process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
            stderr: String(decoding: stderr, as: UTF8.self))
    }
}
