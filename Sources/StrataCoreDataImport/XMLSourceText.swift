import StrataCore

/// The text of an XML file, to turn the positions `XMLParser` reports into the place an element
/// or an attribute value starts (what a diagnostic points at).
struct XMLSourceText {
    private let scalars: [Unicode.Scalar]
    private let lineStarts: [Int]
    /// The file's path, for locations.
    let path: String

    init(_ text: String, path: String) {
        self.path = path
        scalars = Array(text.unicodeScalars)
        var starts = [0]
        for (offset, scalar) in scalars.enumerated() where scalar == "\n" { starts.append(offset + 1) }
        lineStarts = starts
    }

    /// The location of a 1-based line and column, clamped to the file.
    func location(line: Int, column: Int) -> SourceLocation {
        SourceLocation(file: path, line: max(1, line), column: max(1, column))
    }

    /// Where the start tag `<tag` that the parser has just read begins: the parser reports a
    /// position inside or at the end of the tag, after its name.
    func elementStart(_ tag: String, line: Int, column: Int) -> Int {
        let tagScalars = Array(("<" + tag).unicodeScalars)
        var offset = min(offset(line: line, column: column), scalars.count)
        while offset >= 0 {
            if matches(tagScalars, at: offset) {
                let after = offset + tagScalars.count
                if after >= scalars.count || [" ", "\t", "\n", "\r", "/", ">"].contains(scalars[after]) {
                    return offset
                }
            }
            offset -= 1
        }
        return 0
    }

    /// The location of an offset.
    func location(ofOffset offset: Int) -> SourceLocation {
        var low = 0
        var high = lineStarts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if lineStarts[middle] <= offset { low = middle } else { high = middle - 1 }
        }
        return SourceLocation(file: path, line: low + 1, column: offset - lineStarts[low] + 1)
    }

    /// Where the value of `attribute` starts in the start tag at `start`; the tag's start when
    /// the attribute is not there.
    func attributeValue(_ attribute: String, inTagAt start: Int) -> SourceLocation {
        let pattern = Array((attribute + "=").unicodeScalars)
        var offset = start
        while offset < scalars.count, scalars[offset] != ">" {
            if matches(pattern, at: offset), offset > 0, [" ", "\t", "\n", "\r"].contains(scalars[offset - 1]) {
                return location(ofOffset: offset + pattern.count + 1)
            }
            offset += 1
        }
        return location(ofOffset: start)
    }

    private func offset(line: Int, column: Int) -> Int {
        guard line >= 1, line <= lineStarts.count else { return line < 1 ? 0 : scalars.count }
        let start = lineStarts[line - 1]
        let end = line < lineStarts.count ? lineStarts[line] : scalars.count
        return min(start + max(0, column - 1), end)
    }

    private func matches(_ pattern: [Unicode.Scalar], at offset: Int) -> Bool {
        guard offset >= 0, offset + pattern.count <= scalars.count else { return false }
        for index in pattern.indices where scalars[offset + index] != pattern[index] { return false }
        return true
    }
}
