/// The access level of the declarations of generated Swift: `strata.yaml`'s `access`.
///
/// `public` by default: the generated types are then usable from every module that imports the
/// target, the layout of a model library shared by an app and a server (and what Strata wrote
/// before the option existed). `package` keeps them inside the package, `internal` inside the
/// target that generates them.
public enum AccessLevel: String, CaseIterable, Sendable {
    /// Visible to every module that imports the target (the default).
    case `public`
    /// Visible to the modules of the same package.
    case `package`
    /// Visible inside the target alone.
    case `internal`

    /// `text` (a generated Swift file, or a part of one) with the `public` that starts each
    /// declaration spelled as this level. The renderers write `public`; this is the one place
    /// that changes it. The lines of a multi-line string literal (the SQL a migrations file
    /// embeds) are text, not declarations, and stay as they are.
    public func apply(to text: String) -> String {
        guard self != .public else { return text }
        let replacement = rawValue + " "
        var result = ""
        result.reserveCapacity(text.utf8.count + text.utf8.count / 16)
        // The delimiter that closes the multi-line string literal the current line is in.
        var closing: String?
        var isFirst = true
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if !isFirst { result += "\n" }
            isFirst = false
            let body = line.drop { $0 == " " }
            if let delimiter = closing {
                if body.hasPrefix(delimiter) { closing = nil }
                result += line
                continue
            }
            if body.hasPrefix("public ") {
                result += line[line.startIndex..<body.startIndex]
                result += replacement
                result += body.dropFirst("public ".count)
            } else {
                result += line
            }
            closing = Self.literalClosing(openedBy: line)
        }
        return result
    }

    /// `"""` and as many `#` as open it, for a line that ends by opening a multi-line string
    /// literal (`sql: #"""`); nil for any other line.
    private static func literalClosing(openedBy line: Substring) -> String? {
        guard line.hasSuffix("\"\"\"") else { return nil }
        let hashes = line.dropLast(3).reversed().prefix { $0 == "#" }.count
        return "\"\"\"" + String(repeating: "#", count: hashes)
    }
}
