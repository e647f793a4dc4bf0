/// Builds Swift source line by line with four-space indentation.
///
/// The text accumulates in one buffer (each line followed by a newline), so that large files are
/// not built as millions of separate line strings joined at the end.
struct SwiftWriter {
    /// Every line so far, each followed by `\n`.
    private var buffer = ""
    /// The UTF-8 length of `buffer` up to the end of the last non-empty line.
    private var contentEnd = 0
    /// The current indentation level (four spaces each).
    var depth = 0

    /// A writer whose lines start at `depth` (a part of a file, inside its declarations).
    init(depth: Int = 0) {
        self.depth = depth
    }

    /// The indentation of each depth, made once.
    private static let indentation = (0..<32).map { String(repeating: "    ", count: $0) }

    /// Appends a line at the current indentation (an empty line stays empty).
    mutating func line(_ text: String = "") {
        line(Substring(text))
    }

    /// Appends a line at the current indentation (an empty line stays empty).
    mutating func line(_ text: Substring) {
        line(prefix: "", text)
    }

    /// Appends `prefix` and `text` as a line at the current indentation (an empty `text` makes an
    /// empty line).
    mutating func line(prefix: String, _ text: Substring) {
        if !text.isEmpty {
            buffer += depth < Self.indentation.count ? Self.indentation[depth] : String(repeating: "    ", count: depth)
            buffer += prefix
            buffer += text
            buffer += "\n"
            contentEnd = buffer.utf8.count
        } else {
            buffer += "\n"
        }
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

    /// Appends `#if condition`, the body one level deeper (swift-format indents conditional
    /// compilation blocks), and `#endif`.
    mutating func conditional(_ condition: String, _ body: (inout SwiftWriter) -> Void) {
        line("#if " + condition)
        depth += 1
        body(&self)
        depth -= 1
        line("#endif")
    }

    /// The UTF-8 length of the text so far.
    var byteCount: Int { buffer.utf8.count }

    /// Makes room for `byteCount` bytes of text at once (for a file assembled from known parts).
    mutating func reserveCapacity(_ byteCount: Int) {
        buffer.reserveCapacity(byteCount)
    }

    /// Appends the text of `other`, written separately from depth 0, at depth 0.
    mutating func append(_ other: SwiftWriter) {
        precondition(depth == 0, "SwiftWriter.append is for sections written at the top level")
        if other.contentEnd > 0 { contentEnd = buffer.utf8.count + other.contentEnd }
        buffer += other.buffer
    }

    /// The text so far with its trailing empty lines: a part of a file that other parts follow.
    var untrimmedText: String { buffer }

    /// The source text, ending with one newline (trailing empty lines dropped).
    var text: String {
        if contentEnd == 0 { return "\n" }
        // Most writers end with a line of content: the buffer itself, shared rather than copied.
        return contentEnd == buffer.utf8.count ? buffer : String(Substring(buffer.utf8.prefix(contentEnd)))
    }
}

extension SwiftWriter {
    /// Appends the lines of `other`, written from depth 0, at the current indentation.
    mutating func appendIndented(_ other: SwiftWriter) {
        let text = Substring(other.buffer.utf8.prefix(other.contentEnd))
        var start = text.startIndex
        while start < text.endIndex {
            let end = text.utf8[start...].firstIndex(of: UInt8(ascii: "\n")) ?? text.endIndex
            line(text[start..<end])
            guard end < text.endIndex else { break }
            start = text.utf8.index(after: end)
        }
    }
}
