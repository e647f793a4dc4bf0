import Foundation

/// Diagnostics as GitHub Actions workflow commands (`--format github`), so that each one is
/// shown on the line of the pull request's diff it concerns:
/// `::error file=Schemas/M/v2.yaml,line=4,col=7::message`.
///
/// Warnings become `::warning`, notes `::notice`. Values are escaped as the runner expects
/// (`%`, carriage return and line feed in the message; also `:` and `,` in the properties).
public enum DiagnosticAnnotations {
    /// One workflow command per diagnostic, each ending with a line feed.
    public static func render(_ diagnostics: [Diagnostic]) -> String {
        diagnostics.map { line(for: $0) + "\n" }.joined()
    }

    /// The workflow command of one diagnostic, without a line feed.
    public static func line(for diagnostic: Diagnostic) -> String {
        let command: String
        switch diagnostic.severity {
        case .error: command = "error"
        case .warning: command = "warning"
        case .note: command = "notice"
        }
        let location = diagnostic.location
        var properties = ["file=\(escapedProperty(relativePath(location.file)))"]
        if location.line > 0 { properties.append("line=\(location.line)") }
        if location.column > 0 { properties.append("col=\(location.column)") }
        return "::\(command) \(properties.joined(separator: ","))::\(escapedData(diagnostic.message))"
    }

    /// A command's message, escaped (`%`, `\r`, `\n`).
    public static func escapedData(_ text: String) -> String {
        var result = ""
        for character in text.unicodeScalars {
            switch character {
            case "%": result += "%25"
            case "\r": result += "%0D"
            case "\n": result += "%0A"
            default: result.unicodeScalars.append(character)
            }
        }
        return result
    }

    /// A property value, escaped (the message's escapes, and `:` and `,`).
    public static func escapedProperty(_ text: String) -> String {
        escapedData(text).replacingOccurrences(of: ":", with: "%3A").replacingOccurrences(of: ",", with: "%2C")
    }

    /// The path GitHub matches against the diff: relative to the repository, so a leading `./`
    /// is dropped.
    static func relativePath(_ path: String) -> String {
        var path = Substring(path)
        while path.hasPrefix("./") { path = path.dropFirst(2) }
        return String(path)
    }
}
