/// JSON text of scalars, written the same way by the generator (the DDL's `'[]'`, seeded rows)
/// and the SQLite runtime (array fields stored as a JSON array's text).
public enum JSONText {
    /// Appends `text` as a JSON string: `"` and `\` escaped, control characters as `\n`, `\t`…
    /// or `\u00XX`; everything else as it is (UTF-8).
    public static func appendQuoted(_ text: String, to json: inout String) {
        json.append("\"")
        var pending = text.utf8.startIndex
        let utf8 = text.utf8
        var index = pending
        while index != utf8.endIndex {
            let byte = utf8[index]
            if byte == 0x22 || byte == 0x5C || byte < 0x20 {
                json.append(contentsOf: text[pending..<index])
                switch byte {
                case 0x22: json.append("\\\"")
                case 0x5C: json.append("\\\\")
                case 0x0A: json.append("\\n")
                case 0x0D: json.append("\\r")
                case 0x09: json.append("\\t")
                default:
                    let hex = String(byte, radix: 16, uppercase: false)
                    json.append("\\u00" + (hex.count == 1 ? "0" + hex : hex))
                }
                pending = utf8.index(after: index)
            }
            index = utf8.index(after: index)
        }
        json.append(contentsOf: text[pending..<utf8.endIndex])
        json.append("\"")
    }

    /// `text` as a JSON string (``appendQuoted(_:to:)``).
    public static func quoted(_ text: String) -> String {
        var json = ""
        appendQuoted(text, to: &json)
        return json
    }
}
