import Foundation

/// How the reader of generated files regenerates them: the command that generated headers and
/// the commands' hints name.
///
/// A package that uses the plugins has no `strata` command; its files name the command plugin.
/// The process renders for one reader: the command that runs sets ``current`` before it plans
/// (the plugins' tool sets `.plugin`), and every file rendered afterwards names that command.
public enum Regeneration: String, CaseIterable, Sendable {
    /// The `strata` command-line tool (this repository, or a checkout of it).
    case commandLine = "cli"
    /// The StrataCommand plugin of a package that uses the plugins.
    case plugin

    /// The command that regenerates `Generated/` and `strata.lock`.
    public var command: String {
        switch self {
        case .commandLine: "strata generate"
        case .plugin: "swift package --allow-writing-to-package-directory strata-generate"
        }
    }

    /// The reader this process renders for (default: the command line).
    public static var current: Regeneration {
        get { state.withLock { $0 } }
        set { state.withLock { $0 = newValue } }
    }

    private static let state = LockedValue(Regeneration.commandLine)
}

/// A value behind a lock.
final class LockedValue<Value: Sendable>: @unchecked Sendable {
    private var value: Value
    private let lock = NSLock()

    init(_ value: Value) { self.value = value }

    func withLock<T>(_ body: (inout Value) -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body(&value)
    }
}
