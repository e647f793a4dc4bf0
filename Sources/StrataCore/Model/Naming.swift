/// How table and column names are derived from entity and field names.
public enum Naming: String, CaseIterable, Sendable, Hashable {
    /// `TODOItem` -> `todo_item`, `isDone` -> `is_done` (the default).
    case snakeCase = "snake_case"
    /// Names are used as written.
    case verbatim

    /// The SQL name for a schema name.
    public func apply(_ name: String) -> String {
        switch self {
        case .verbatim: return name
        case .snakeCase: return Naming.snakeCased(name)
        }
    }

    /// Splits camel case into lower-case words joined by underscores, keeping acronyms together:
    /// `TODOItem` -> `todo_item`, `URLValue2` -> `url_value2`, `isDone` -> `is_done`.
    public static func snakeCased(_ name: String) -> String {
        var isASCII = true
        var hasUpper = false
        for byte in name.utf8 {
            if byte >= 0x80 {
                isASCII = false
                break
            }
            if byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") { hasUpper = true }
        }
        // Only upper-case letters change: an ASCII name without any is its own snake case.
        if isASCII && !hasUpper { return name }
        if isASCII {
            var name = name
            return name.withUTF8 { asciiSnakeCased($0) }
        }
        let scalars = Array(name.unicodeScalars)
        var result = String.UnicodeScalarView()
        for (index, scalar) in scalars.enumerated() {
            let isUpper = scalar.properties.isUppercase
            if isUpper, index > 0 {
                let previous = scalars[index - 1]
                let nextIsLower = index + 1 < scalars.count && scalars[index + 1].properties.isLowercase
                let previousIsWordy = previous.properties.isLowercase || ("0"..."9").contains(previous)
                if previous != "_" && (previousIsWordy || (previous.properties.isUppercase && nextIsLower)) {
                    result.append("_")
                }
            }
            if isUpper {
                result.append(contentsOf: scalar.properties.lowercaseMapping.unicodeScalars)
            } else {
                result.append(scalar)
            }
        }
        return String(result)
    }

    /// `snakeCased` for ASCII names (the usual case), on bytes: the same rules, without Unicode
    /// property lookups.
    /// Written into a scratch buffer (at most one `_` per byte), then made a string of its exact
    /// length: a short result is then a small string, stored inline rather than on the heap (a
    /// column name is kept by every field of the model).
    private static func asciiSnakeCased(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        func isUpper(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") }
        func isLower(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z") }
        func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: max(1, bytes.count * 2)) { result in
            var count = 0
            for (index, byte) in bytes.enumerated() {
                guard isUpper(byte) else {
                    result[count] = byte
                    count += 1
                    continue
                }
                if index > 0 {
                    let previous = bytes[index - 1]
                    let nextIsLower = index + 1 < bytes.count && isLower(bytes[index + 1])
                    if previous != UInt8(ascii: "_")
                        && (isLower(previous) || isDigit(previous) || (isUpper(previous) && nextIsLower))
                    {
                        result[count] = UInt8(ascii: "_")
                        count += 1
                    }
                }
                result[count] = byte + 32
                count += 1
            }
            return String(decoding: UnsafeBufferPointer(rebasing: result[..<count]), as: UTF8.self)
        }
    }
}
