/// Text as checksums see it: line endings normalised (CRLF and a lone CR become LF) and a leading
/// UTF-8 byte order mark dropped, so that a checkout that converts line endings (Windows'
/// `core.autocrlf`) or an editor that adds a BOM does not change a checksum. Text that has
/// neither (every LF file) is returned unchanged, so its checksum is what it always was.
package enum NormalizedText {
    /// The UTF-8 byte order mark.
    static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

    /// `bytes` with line endings normalised and without a leading byte order mark.
    package static func bytes(_ bytes: some Collection<UInt8>) -> [UInt8] {
        var input = Array(bytes)
        if input.starts(with: byteOrderMark) { input.removeFirst(byteOrderMark.count) }
        guard input.contains(UInt8(ascii: "\r")) else { return input }
        var output: [UInt8] = []
        output.reserveCapacity(input.count)
        var index = 0
        while index < input.count {
            let byte = input[index]
            if byte == UInt8(ascii: "\r") {
                output.append(UInt8(ascii: "\n"))
                if index + 1 < input.count, input[index + 1] == UInt8(ascii: "\n") { index += 1 }
            } else {
                output.append(byte)
            }
            index += 1
        }
        return output
    }

    /// True when `bytes` hold a carriage return or start with a byte order mark: text that
    /// ``string(_:)`` would change.
    package static func needsNormalizing(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        bytes.starts(with: byteOrderMark) || bytes.contains(UInt8(ascii: "\r"))
    }

    /// `text` with line endings normalised and without a leading byte order mark.
    package static func string(_ text: String) -> String {
        guard text.utf8.contains(UInt8(ascii: "\r")) || text.utf8.starts(with: byteOrderMark) else { return text }
        return String(decoding: bytes(text.utf8), as: UTF8.self)
    }
}
