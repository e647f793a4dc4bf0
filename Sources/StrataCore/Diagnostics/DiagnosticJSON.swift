/// Diagnostics as a JSON array, for tools (`strata lint --format json`).
public enum DiagnosticJSON {
    /// `[{"file":…,"line":…,"column":…,"severity":…,"message":…}, …]`
    public static func render(_ diagnostics: [Diagnostic]) -> String {
        let items = diagnostics.map { item in
            "{\"file\":\(quoted(item.location.file)),\"line\":\(item.location.line),\"column\":\(item.location.column),"
                + "\"severity\":\"\(item.severity.rawValue)\",\"message\":\(quoted(item.message))}"
        }
        return "[" + items.joined(separator: ",") + "]"
    }

    /// `text` as a JSON string literal.
    public static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }
}
