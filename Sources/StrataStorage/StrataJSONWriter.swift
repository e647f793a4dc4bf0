/// Writes JSON text, compact and in a stable order (members in the order written): what a JSON
/// value type of the schema, or an array on SQLite, is stored as. Strings are escaped as
/// RFC 8259 requires and nothing more, so text written once reads back the same.
public struct StrataJSONWriter: Sendable {
    /// The text written so far.
    public private(set) var text = ""
    var needsComma = false

    /// An empty writer.
    public init() {}

    mutating func separate() {
        if needsComma { text.append(",") }
        needsComma = true
    }

    /// Writes `null`.
    public mutating func writeNull() {
        separate()
        text.append("null")
    }

    /// Writes `true` or `false`.
    public mutating func write(_ value: Bool) {
        separate()
        text.append(value ? "true" : "false")
    }

    /// Writes an integer.
    public mutating func write(_ value: Int64) {
        separate()
        text.append(String(value))
    }

    /// Writes a number; a value that is not finite (which JSON cannot hold) is written `null`.
    public mutating func write(_ value: Double) {
        separate()
        text.append(value.isFinite ? String(describing: value) : "null")
    }

    /// Writes a string, quoted and escaped.
    public mutating func write(_ value: String) {
        separate()
        text.append("\"")
        var pending = value.utf8.startIndex
        let utf8 = value.utf8
        var index = pending
        while index != utf8.endIndex {
            let byte = utf8[index]
            if byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                text.append(contentsOf: value[pending..<index])
                text.append(Self.escape(byte))
                pending = utf8.index(after: index)
            }
            index = utf8.index(after: index)
        }
        text.append(contentsOf: value[pending..<utf8.endIndex])
        text.append("\"")
    }

    static func escape(_ byte: UInt8) -> String {
        switch byte {
        case UInt8(ascii: "\""): return "\\\""
        case UInt8(ascii: "\\"): return "\\\\"
        case 0x0A: return "\\n"
        case 0x0D: return "\\r"
        case 0x09: return "\\t"
        case 0x08: return "\\b"
        case 0x0C: return "\\f"
        default:
            let hex = String(byte, radix: 16)
            return "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        }
    }

    /// Writes an object whose members `body` writes with ``member(_:_:)``.
    public mutating func object(_ body: (inout StrataJSONWriter) -> Void) {
        separate()
        text.append("{")
        needsComma = false
        body(&self)
        text.append("}")
        needsComma = true
    }

    /// Writes an array whose elements `body` writes.
    public mutating func array(_ body: (inout StrataJSONWriter) -> Void) {
        separate()
        text.append("[")
        needsComma = false
        body(&self)
        text.append("]")
        needsComma = true
    }

    /// Writes a member's key; the value written next is its value.
    public mutating func key(_ key: String) {
        write(key)
        text.append(":")
        needsComma = false
    }

    /// Writes a parsed JSON value, members in their order.
    public mutating func write(_ json: StrataJSON) {
        switch json {
        case .null: writeNull()
        case .bool(let value): write(value)
        case .integer(let value): write(value)
        case .double(let value): write(value)
        case .string(let text): write(text)
        case .array(let elements): array { writer in elements.forEach { writer.write($0) } }
        case .object(let object):
            self.object { writer in
                for member in object.members {
                    writer.key(member.key)
                    writer.write(member.value)
                }
            }
        }
    }

    /// The compact text of a parsed JSON value.
    public static func text(of json: StrataJSON) -> String {
        var writer = StrataJSONWriter()
        writer.write(json)
        return writer.text
    }
}
