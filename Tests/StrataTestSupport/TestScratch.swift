import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Temporary files and folders for the tests, all in one folder per test process that is removed
/// when the process exits: a test run leaves nothing behind in the system's temporary folder.
///
/// The folder is `strata-tests-<pid>` in the temporary folder. A run that crashed cannot remove
/// its own; the next run removes those whose process no longer exists.
public enum TestScratch {
    /// This process's folder, created (and left-overs of dead runs removed) on first use.
    public static let root: URL = {
        let temporary = FileManager.default.temporaryDirectory
        removeLeftovers(in: temporary)
        let root = temporary.appendingPathComponent("\(prefix)\(getpid())")
        try? FileManager.default.removeItem(at: root)
        try? FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(at: TestScratch.root) }
        return root
    }()

    /// A new empty folder, named `label-<uuid>`.
    public static func folder(_ label: String) throws -> URL {
        let url = path(label)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// A new path that nothing exists at yet, named `label-<uuid>` followed by `suffix` (say
    /// `".sqlite"`).
    public static func path(_ label: String, suffix: String = "") -> URL {
        root.appendingPathComponent("\(label)-\(UUID().uuidString)\(suffix)")
    }

    private static let prefix = "strata-tests-"

    /// Removes the folders of test processes that no longer run.
    private static func removeLeftovers(in temporary: URL) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: temporary.path) else { return }
        for name in names where name.hasPrefix(prefix) {
            guard let pid = pid_t(name.dropFirst(prefix.count)), pid != getpid() else { continue }
            if kill(pid, 0) == -1 && errno == ESRCH {
                try? FileManager.default.removeItem(at: temporary.appendingPathComponent(name))
            }
        }
    }
}
