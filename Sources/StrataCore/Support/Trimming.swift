import Foundation

extension StringProtocol where UTF8View: BidirectionalCollection {
    /// `trimmingCharacters(in: .whitespaces)` (or `.whitespacesAndNewlines`), answered without
    /// Foundation when both ends are printable ASCII other than a space: then nothing is trimmed.
    /// The generator trims many short strings; Foundation's trim is a hot spot on large models.
    func trimmingWhitespace(andNewlines: Bool = false) -> String {
        if let first = utf8.first, let last = utf8.last, first > 0x20, first < 0x7F, last > 0x20, last < 0x7F {
            return String(self)
        }
        return trimmingCharacters(in: andNewlines ? .whitespacesAndNewlines : .whitespaces)
    }
}
