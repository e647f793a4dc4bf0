/// Parses JSON text (RFC 8259) from its UTF-8 bytes, by hand: what a stored JSON value is read
/// from, without a detour through `JSONSerialization` or `Codable`. Nesting deeper than
/// ``maximumDepth`` is an error, not a crash.
public struct StrataJSONParser {
    /// The deepest nesting of arrays and objects read.
    public static let maximumDepth = 256

    let bytes: UnsafeRawBufferPointer
    var offset = 0
    var depth = 0

    init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    /// The value of UTF-8 JSON text; throws ``StrataJSONError/syntax(offset:reason:)``.
    public static func parse(_ bytes: UnsafeRawBufferPointer) throws -> StrataJSON {
        var parser = StrataJSONParser(bytes)
        parser.skipSpace()
        let value = try parser.value()
        parser.skipSpace()
        guard parser.offset == bytes.count else { throw parser.error("unexpected text after the value") }
        return value
    }

    /// The value of JSON text.
    public static func parse(_ text: String) throws -> StrataJSON {
        var text = text
        return try text.withUTF8 { try parse(UnsafeRawBufferPointer($0)) }
    }

    func error(_ reason: String) -> StrataJSONError { .syntax(offset: offset, reason: reason) }

    var current: UInt8? { offset < bytes.count ? bytes[offset] : nil }

    mutating func skipSpace() {
        while offset < bytes.count {
            switch bytes[offset] {
            case 0x20, 0x0A, 0x0D, 0x09: offset += 1
            default: return
            }
        }
    }

    mutating func expect(_ byte: UInt8, _ what: String) throws {
        guard current == byte else { throw error("expected \(what)") }
        offset += 1
    }

    mutating func value() throws -> StrataJSON {
        guard let byte = current else { throw error("expected a value") }
        switch byte {
        case UInt8(ascii: "{"): return .object(try object())
        case UInt8(ascii: "["): return .array(try array())
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
        default: throw error("expected a value")
        }
    }

    mutating func literal(_ word: StaticString) throws {
        let count = word.utf8CodeUnitCount
        guard offset + count <= bytes.count else { throw error("expected \(word)") }
        for index in 0..<count where bytes[offset + index] != word.utf8Start[index] {
            throw error("expected \(word)")
        }
        offset += count
    }

    mutating func nested<T>(_ body: (inout StrataJSONParser) throws -> T) throws -> T {
        depth += 1
        guard depth <= Self.maximumDepth else { throw error("nested deeper than \(Self.maximumDepth) levels") }
        defer { depth -= 1 }
        return try body(&self)
    }

    mutating func object() throws -> StrataJSONObject {
        try nested { parser in
            parser.offset += 1
            var members: [(key: String, value: StrataJSON)] = []
            parser.skipSpace()
            if parser.current == UInt8(ascii: "}") {
                parser.offset += 1
                return StrataJSONObject(members)
            }
            while true {
                parser.skipSpace()
                guard parser.current == UInt8(ascii: "\"") else { throw parser.error("expected a key") }
                let key = try parser.string()
                parser.skipSpace()
                try parser.expect(UInt8(ascii: ":"), "':'")
                parser.skipSpace()
                members.append((key, try parser.value()))
                parser.skipSpace()
                if parser.current == UInt8(ascii: ",") {
                    parser.offset += 1
                    continue
                }
                try parser.expect(UInt8(ascii: "}"), "',' or '}'")
                return StrataJSONObject(members)
            }
        }
    }

    mutating func array() throws -> [StrataJSON] {
        try nested { parser in
            parser.offset += 1
            var elements: [StrataJSON] = []
            parser.skipSpace()
            if parser.current == UInt8(ascii: "]") {
                parser.offset += 1
                return elements
            }
            while true {
                parser.skipSpace()
                elements.append(try parser.value())
                parser.skipSpace()
                if parser.current == UInt8(ascii: ",") {
                    parser.offset += 1
                    continue
                }
                try parser.expect(UInt8(ascii: "]"), "',' or ']'")
                return elements
            }
        }
    }

    /// A string, from its opening quote: its bytes copied at once when it has no escape.
    mutating func string() throws -> String {
        offset += 1
        let start = offset
        while offset < bytes.count {
            let byte = bytes[offset]
            if byte == UInt8(ascii: "\"") {
                let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<offset]), as: UTF8.self)
                offset += 1
                return text
            }
            if byte == UInt8(ascii: "\\") { return try escapedString(from: start) }
            guard byte >= 0x20 else { throw error("control character in a string") }
            offset += 1
        }
        throw error("unterminated string")
    }

    mutating func escapedString(from start: Int) throws -> String {
        var utf8 = Array(bytes[start..<offset])
        while offset < bytes.count {
            let byte = bytes[offset]
            offset += 1
            switch byte {
            case UInt8(ascii: "\""):
                return String(decoding: utf8, as: UTF8.self)
            case UInt8(ascii: "\\"):
                guard let escape = current else { throw error("unterminated string") }
                offset += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): utf8.append(escape)
                case UInt8(ascii: "b"): utf8.append(0x08)
                case UInt8(ascii: "f"): utf8.append(0x0C)
                case UInt8(ascii: "n"): utf8.append(0x0A)
                case UInt8(ascii: "r"): utf8.append(0x0D)
                case UInt8(ascii: "t"): utf8.append(0x09)
                case UInt8(ascii: "u"): utf8.append(contentsOf: try unicodeEscape())
                default: throw error("invalid escape in a string")
                }
            default:
                guard byte >= 0x20 else { throw error("control character in a string") }
                utf8.append(byte)
            }
        }
        throw error("unterminated string")
    }

    mutating func hex4() throws -> UInt32 {
        guard offset + 4 <= bytes.count else { throw error("invalid \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[offset]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw error("invalid \\u escape")
            }
            value = value << 4 | UInt32(digit)
            offset += 1
        }
        return value
    }

    /// The UTF-8 of a `\uXXXX` escape (after the `u`), a surrogate pair read as one scalar; a lone
    /// surrogate reads as U+FFFD, as Swift's own decoding does.
    mutating func unicodeEscape() throws -> String.UTF8View {
        var scalar = try hex4()
        if (0xD800...0xDBFF).contains(scalar), offset + 6 <= bytes.count,
           bytes[offset] == UInt8(ascii: "\\"), bytes[offset + 1] == UInt8(ascii: "u") {
            let mark = offset
            offset += 2
            let low = try hex4()
            if (0xDC00...0xDFFF).contains(low) {
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            } else {
                offset = mark
            }
        }
        return String(Character(Unicode.Scalar(scalar) ?? "\u{FFFD}")).utf8
    }

    mutating func number() throws -> StrataJSON {
        let start = offset
        var isInteger = true
        if current == UInt8(ascii: "-") { offset += 1 }
        guard let first = current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) else { throw error("invalid number") }
        if first == UInt8(ascii: "0") {
            offset += 1
        } else {
            skipDigits()
        }
        if current == UInt8(ascii: ".") {
            isInteger = false
            offset += 1
            guard skipDigits() else { throw error("invalid number") }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            isInteger = false
            offset += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { offset += 1 }
            guard skipDigits() else { throw error("invalid number") }
        }
        let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<offset]), as: UTF8.self)
        if isInteger, let integer = Int64(text) { return .integer(integer) }
        guard let double = Double(text), double.isFinite else { throw error("number out of range") }
        return .double(double)
    }

    /// Skips digits; false when there was none.
    @discardableResult
    mutating func skipDigits() -> Bool {
        let start = offset
        while let byte = current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) { offset += 1 }
        return offset > start
    }
}
