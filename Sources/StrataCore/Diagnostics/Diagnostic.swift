/// One problem found in the input, printed the way compilers print them:
/// `path:line:column: error: message`.
public struct Diagnostic: Hashable, Sendable, CustomStringConvertible {
    /// How bad the problem is.
    public enum Severity: String, Sendable, Hashable {
        case error
        case warning
        case note
    }

    /// How bad the problem is.
    public var severity: Severity
    /// What is wrong, in one sentence, with a suggestion where one is obvious.
    public var message: String
    /// Where it is wrong.
    public var location: SourceLocation

    /// Creates a diagnostic.
    public init(_ severity: Severity, _ message: String, at location: SourceLocation) {
        self.severity = severity
        self.message = message
        self.location = location
    }

    public var description: String { "\(location): \(severity.rawValue): \(message)" }
}

/// Collects the diagnostics of a run so that every problem is reported at once.
public struct DiagnosticBag: Sendable {
    /// The diagnostics in the order they were found.
    public private(set) var all: [Diagnostic] = []

    /// Creates an empty bag.
    public init() {}

    /// True when at least one error was recorded.
    public var hasErrors: Bool { all.contains { $0.severity == .error } }

    /// The errors only.
    public var errors: [Diagnostic] { all.filter { $0.severity == .error } }

    /// Records an error.
    public mutating func error(_ message: String, at location: SourceLocation) {
        all.append(Diagnostic(.error, message, at: location))
    }

    /// Records a warning.
    public mutating func warning(_ message: String, at location: SourceLocation) {
        all.append(Diagnostic(.warning, message, at: location))
    }

    /// Records a diagnostic.
    public mutating func append(_ diagnostic: Diagnostic) {
        all.append(diagnostic)
    }

    /// Records several diagnostics.
    public mutating func append(contentsOf other: some Sequence<Diagnostic>) {
        all.append(contentsOf: other)
    }

    /// The diagnostics sorted by file, line and column (stable for equal positions), without repeats.
    public var sorted: [Diagnostic] {
        var seen = Set<Diagnostic>()
        let unique = all.filter { seen.insert($0).inserted }
        return unique.enumerated()
            .sorted { ($0.element.location, $0.offset) < ($1.element.location, $1.offset) }
            .map(\.element)
    }
}

/// Thrown by a stage that cannot go on; carries every diagnostic found so far.
public struct DiagnosticsError: Error, CustomStringConvertible {
    /// The problems, sorted by location.
    public var diagnostics: [Diagnostic]

    /// Creates the error.
    public init(_ diagnostics: [Diagnostic]) { self.diagnostics = diagnostics }

    public var description: String { diagnostics.map(\.description).joined(separator: "\n") }
}
