/// Builds Swift source line by line with four-space indentation.
struct SwiftWriter {
    private(set) var lines: [String] = []
    private var depth = 0

    /// Appends a line at the current indentation (an empty line stays empty).
    mutating func line(_ text: String = "") {
        lines.append(text.isEmpty ? "" : String(repeating: "    ", count: depth) + text)
    }

    /// Appends several lines at the current indentation.
    mutating func lines(_ texts: [String]) {
        for text in texts { line(text) }
    }

    /// Appends `opening {`, the body one level deeper, and `}`.
    mutating func block(_ opening: String, closing: String = "}", _ body: (inout SwiftWriter) -> Void) {
        line(opening + " {")
        depth += 1
        body(&self)
        depth -= 1
        line(closing)
    }

    /// Appends the lines of `other` (written from depth 0) at the current indentation.
    mutating func append(_ other: SwiftWriter) {
        if depth == 0 { lines += other.lines } else { lines(other.lines) }
    }

    /// Removes a trailing empty line, so blocks do not end with a blank line.
    mutating func trimTrailingBlank() {
        while lines.last == "" { lines.removeLast() }
    }

    /// The source text, ending with one newline.
    var text: String {
        var copy = lines
        while copy.last == "" { copy.removeLast() }
        return copy.joined(separator: "\n") + "\n"
    }
}
