import StrataCore

/// A JSON value written by the commands' `--format json`: keys keep the order they are given in,
/// so the output is the same bytes for the same result.
package indirect enum JSONValue: Sendable {
    case string(String)
    case int(Int)
    case bool(Bool)
    case null
    case array([JSONValue])
    case object([(String, JSONValue)])

    /// The value on one line.
    package var rendered: String {
        switch self {
        case .string(let text): return DiagnosticJSON.quoted(text)
        case .int(let value): return String(value)
        case .bool(let value): return value ? "true" : "false"
        case .null: return "null"
        case .array(let items): return "[" + items.map(\.rendered).joined(separator: ",") + "]"
        case .object(let members):
            return "{" + members.map { DiagnosticJSON.quoted($0.0) + ":" + $0.1.rendered }.joined(separator: ",") + "}"
        }
    }

    /// A string, or null.
    package static func string(_ text: String?) -> JSONValue { text.map(JSONValue.string) ?? .null }

    /// Diagnostics as `{"file","line","column","severity","message"}` objects, as `lint --format json` prints them.
    package static func diagnostics(_ diagnostics: [Diagnostic]) -> JSONValue {
        .array(
            diagnostics.map {
                .object([
                    ("file", .string($0.location.file)), ("line", .int($0.location.line)),
                    ("column", .int($0.location.column)), ("severity", .string($0.severity.rawValue)),
                    ("message", .string($0.message)),
                ])
            })
    }
}

/// The output format of the commands that speak JSON.
package enum OutputFormat: String, CaseIterable, Sendable {
    /// For people: text on standard output, diagnostics and progress on standard error.
    case text
    /// For tools: one JSON object on standard output; diagnostics inside it, progress still on standard error.
    case json
}
