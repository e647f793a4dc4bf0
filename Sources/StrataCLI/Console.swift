import Foundation
import StrataCore

/// Writes to standard error.
package struct StandardError: TextOutputStream {
    package init() {}

    package mutating func write(_ string: String) {
        FileHandle.standardError.write(Data(string.utf8))
    }
}

package enum Console {
    /// Prints diagnostics as `path:line:column: error: message`, one per line, to standard error.
    package static func report(_ diagnostics: [Diagnostic]) {
        var stream = StandardError()
        for diagnostic in diagnostics {
            print(diagnostic.description, to: &stream)
        }
        let errors = diagnostics.filter { $0.severity == .error }.count
        let warnings = diagnostics.filter { $0.severity == .warning }.count
        if errors > 0 {
            print("\(errors) error\(errors == 1 ? "" : "s")\(warnings > 0 ? ", \(warnings) warning\(warnings == 1 ? "" : "s")" : "")", to: &stream)
        }
    }

    /// Prints the diffs of files that are not current to standard output (long missing and extra
    /// files cut short, ``StaleFile/textDiff(limit:)``), then one error per file and how to
    /// regenerate (the command of `regeneration`) to standard error. Prints nothing when
    /// `findings` is empty.
    package static func report(_ findings: [StaleFile], regeneration: Regeneration) {
        guard !findings.isEmpty else { return }
        for finding in findings { print(finding.textDiff(), terminator: "") }
        for finding in findings { error("\(finding.path) is \(finding.kind.rawValue)") }
        error("generated files are not current: run `\(regeneration.command)` and commit the result")
    }

    package static func error(_ message: String) {
        var stream = StandardError()
        print("error: \(message)", to: &stream)
    }
}
