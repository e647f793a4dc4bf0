import Foundation
import StrataRuntime
import StrataStorage

/// An array field's value on SQLite: the text of a JSON array of its elements (`["a","b"]`,
/// `[1,2]`, `[true]`; UUIDs as their text), written and read here without Foundation's JSON
/// coders. Only what arrays of scalars need: a flat array of strings, numbers or Bools.
public enum StrataJSONArray {
    /// Why an array cannot be written as JSON.
    public struct NotRepresentable: Error, CustomStringConvertible {
        /// The value.
        public var value: String
        public var description: String { "\(value) has no JSON form (arrays of numbers hold finite numbers only)" }
    }

    /// The JSON text of the elements.
    public static func text(of array: StrataArray) throws -> String {
        var json = "["
        func numbers<T>(_ values: [T], _ text: (T) throws -> String) rethrows {
            for (index, value) in values.enumerated() {
                if index > 0 { json.append(",") }
                json.append(try text(value))
            }
        }
        switch array {
        case .strings(let values):
            for (index, value) in values.enumerated() {
                if index > 0 { json.append(",") }
                JSONText.appendQuoted(value, to: &json)
            }
        case .ints(let values): numbers(values) { String($0) }
        case .int64s(let values): numbers(values) { String($0) }
        case .int32s(let values): numbers(values) { String($0) }
        case .int16s(let values): numbers(values) { String($0) }
        case .doubles(let values):
            try numbers(values) { value in
                guard value.isFinite else { throw NotRepresentable(value: "\(value)") }
                return "\(value)"
            }
        case .floats(let values):
            try numbers(values) { value in
                guard value.isFinite else { throw NotRepresentable(value: "\(value)") }
                return "\(value)"
            }
        case .bools(let values): numbers(values) { $0 ? "true" : "false" }
        case .uuids(let values): numbers(values) { "\"\($0.uuidString)\"" }
        }
        json.append("]")
        return json
    }

    /// The elements of JSON text, all of type `kind`; nil when the text is no JSON array of such
    /// elements (an integer out of the type's range, a fraction for an integer, text that is no
    /// UUID…).
    public static func array(_ bytes: UnsafeBufferPointer<UInt8>, of kind: StrataArray.Kind) -> StrataArray? {
        var scanner = Scanner(bytes: bytes)
        switch kind {
        case .string: return scanner.elements { $0.string() }.map(StrataArray.strings)
        case .int: return scanner.elements { $0.number().flatMap { Int($0) } }.map(StrataArray.ints)
        case .int64: return scanner.elements { $0.number().flatMap { Int64($0) } }.map(StrataArray.int64s)
        case .int32: return scanner.elements { $0.number().flatMap { Int32($0) } }.map(StrataArray.int32s)
        case .int16: return scanner.elements { $0.number().flatMap { Int16($0) } }.map(StrataArray.int16s)
        case .double: return scanner.elements { $0.number().flatMap { Double($0) } }.map(StrataArray.doubles)
        case .float: return scanner.elements { $0.number().flatMap { Float($0) } }.map(StrataArray.floats)
        case .bool: return scanner.elements { $0.bool() }.map(StrataArray.bools)
        case .uuid: return scanner.elements { $0.string().flatMap { UUID(uuidString: $0) } }.map(StrataArray.uuids)
        }
    }

    /// Reads a flat JSON array from its UTF-8 bytes.
    struct Scanner {
        let bytes: UnsafeBufferPointer<UInt8>
        var index = 0

        init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

        mutating func skipSpace() {
            while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x0A || bytes[index] == 0x0D || bytes[index] == 0x09 {
                index += 1
            }
        }

        /// `[ element, … ]` and nothing after it, each element read by `element`.
        mutating func elements<T>(_ element: (inout Scanner) -> T?) -> [T]? {
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "[") else { return nil }
            index += 1
            var values: [T] = []
            skipSpace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
                index += 1
            } else {
                while true {
                    skipSpace()
                    guard let value = element(&self) else { return nil }
                    values.append(value)
                    skipSpace()
                    guard index < bytes.count else { return nil }
                    let byte = bytes[index]
                    index += 1
                    if byte == UInt8(ascii: "]") { break }
                    guard byte == UInt8(ascii: ",") else { return nil }
                }
            }
            skipSpace()
            return index == bytes.count ? values : nil
        }

        /// A number's text (`-12`, `1.5e3`), for the type's own parser to check.
        mutating func number() -> Substring? {
            let start = index
            while index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."),
                    UInt8(ascii: "e"), UInt8(ascii: "E"):
                    index += 1
                default:
                    return index > start ? Substring(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)) : nil
                }
            }
            return index > start ? Substring(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)) : nil
        }

        /// `true` or `false`.
        mutating func bool() -> Bool? {
            if matches("true") { return true }
            if matches("false") { return false }
            return nil
        }

        private mutating func matches(_ word: StaticString) -> Bool {
            let count = word.utf8CodeUnitCount
            guard index + count <= bytes.count else { return false }
            for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] { return false }
            index += count
            return true
        }

        /// A JSON string, its escapes decoded.
        mutating func string() -> String? {
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return nil }
            index += 1
            let start = index
            // Text without escapes: one decoding of its bytes.
            while index < bytes.count, bytes[index] != UInt8(ascii: "\""), bytes[index] != UInt8(ascii: "\\") { index += 1 }
            guard index < bytes.count else { return nil }
            var text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
            while true {
                guard index < bytes.count else { return nil }
                let byte = bytes[index]
                index += 1
                if byte == UInt8(ascii: "\"") { return text }
                if byte != UInt8(ascii: "\\") {
                    let runStart = index - 1
                    while index < bytes.count, bytes[index] != UInt8(ascii: "\""), bytes[index] != UInt8(ascii: "\\") { index += 1 }
                    text += String(decoding: UnsafeBufferPointer(rebasing: bytes[runStart..<index]), as: UTF8.self)
                    continue
                }
                guard index < bytes.count else { return nil }
                let escaped = bytes[index]
                index += 1
                switch escaped {
                case UInt8(ascii: "\""): text.append("\"")
                case UInt8(ascii: "\\"): text.append("\\")
                case UInt8(ascii: "/"): text.append("/")
                case UInt8(ascii: "b"): text.append("\u{08}")
                case UInt8(ascii: "f"): text.append("\u{0C}")
                case UInt8(ascii: "n"): text.append("\n")
                case UInt8(ascii: "r"): text.append("\r")
                case UInt8(ascii: "t"): text.append("\t")
                case UInt8(ascii: "u"):
                    guard var code = hex4() else { return nil }
                    if (0xD800..<0xDC00).contains(code) {
                        guard matches("\\u"), let low = hex4(), (0xDC00..<0xE000).contains(low) else { return nil }
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let scalar = Unicode.Scalar(code) else { return nil }
                    text.unicodeScalars.append(scalar)
                default: return nil
                }
            }
        }

        private mutating func hex4() -> UInt32? {
            guard index + 4 <= bytes.count else { return nil }
            var value: UInt32 = 0
            for _ in 0..<4 {
                let byte = bytes[index]
                index += 1
                let digit: UInt8
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
                default: return nil
                }
                value = value << 4 | UInt32(digit)
            }
            return value
        }
    }
}
