/// A JSON value, as parsed from a column that stores JSON (``StrataJSON/parse(_:)``): what a
/// JSON value type of the schema, or an array on SQLite, is decoded from. Integers keep their
/// 64 bits; an object keeps its members in their order.
public enum StrataJSON: Hashable, Sendable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number without fraction or exponent that fits 64 bits.
    case integer(Int64)
    /// Any other number.
    case double(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([StrataJSON])
    /// An object.
    case object(StrataJSONObject)

    /// What the value is, in error messages: `a string`, `an object`…
    public var kind: String {
        switch self {
        case .null: return "null"
        case .bool: return "a Bool"
        case .integer, .double: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }

    /// The members of an object; throws for any other value.
    @inlinable
    public func object() throws -> StrataJSONObject {
        guard case .object(let object) = self else { throw StrataJSONError.mismatch(expected: "an object", found: kind) }
        return object
    }

    /// The elements of an array; throws for any other value.
    @inlinable
    public func array() throws -> [StrataJSON] {
        guard case .array(let elements) = self else { throw StrataJSONError.mismatch(expected: "an array", found: kind) }
        return elements
    }
}

/// The members of a JSON object, in their order: looked up by a linear search, faster than
/// hashing for the handful of keys a stored value has.
public struct StrataJSONObject: Hashable, Sendable {
    /// The members, in their order.
    public var members: [(key: String, value: StrataJSON)]

    /// An object of `members`.
    public init(_ members: [(key: String, value: StrataJSON)] = []) {
        self.members = members
    }

    /// The value of `key`, or nil when the object has no such member.
    @inlinable
    public subscript(key: String) -> StrataJSON? {
        for member in members where member.key == key { return member.value }
        return nil
    }

    public static func == (lhs: StrataJSONObject, rhs: StrataJSONObject) -> Bool {
        lhs.members.count == rhs.members.count
            && zip(lhs.members, rhs.members).allSatisfy { $0.key == $1.key && $0.value == $1.value }
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(members.count)
        for member in members {
            hasher.combine(member.key)
            hasher.combine(member.value)
        }
    }
}

/// JSON that is not valid, or not of the shape its Swift type reads.
public enum StrataJSONError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Text that is not JSON, at a byte offset.
    case syntax(offset: Int, reason: String)
    /// A value of another kind than the type reads, at a path of keys.
    case mismatch(expected: String, found: String, path: [String] = [])
    /// A member that a non-optional property needs is missing (or `null`), at a path of keys.
    case missingKey([String])

    /// The error, for a value found at `key` of an object.
    public func inside(_ key: String) -> StrataJSONError {
        switch self {
        case .syntax: return self
        case .mismatch(let expected, let found, let path): return .mismatch(expected: expected, found: found, path: [key] + path)
        case .missingKey(let path): return .missingKey([key] + path)
        }
    }

    public var description: String {
        switch self {
        case .syntax(let offset, let reason):
            return "invalid JSON at byte \(offset): \(reason)"
        case .mismatch(let expected, let found, let path):
            return path.isEmpty ? "expected \(expected), found \(found)" : "'\(path.joined(separator: "."))' holds \(found), expected \(expected)"
        case .missingKey(let path):
            return "'\(path.joined(separator: "."))' is missing"
        }
    }
}

extension StrataJSON: Codable {
    /// Decodes any JSON value (through a `Decoder`: an app sending a record over the network).
    public init(from decoder: any Decoder) throws {
        if var array = try? decoder.unkeyedContainer() {
            var elements: [StrataJSON] = []
            while !array.isAtEnd { elements.append(try array.decode(StrataJSON.self)) }
            self = .array(elements)
            return
        }
        if let object = try? decoder.container(keyedBy: StrataJSONKey.self) {
            self = .object(StrataJSONObject(try object.allKeys.map { ($0.stringValue, try object.decode(StrataJSON.self, forKey: $0)) }))
            return
        }
        let value = try decoder.singleValueContainer()
        if value.decodeNil() {
            self = .null
        } else if let flag = try? value.decode(Bool.self) {
            self = .bool(flag)
        } else if let integer = try? value.decode(Int64.self) {
            self = .integer(integer)
        } else if let number = try? value.decode(Double.self) {
            self = .double(number)
        } else {
            self = .string(try value.decode(String.self))
        }
    }

    /// Encodes the value as the JSON it is.
    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .null:
            var container = encoder.singleValueContainer()
            try container.encodeNil()
        case .bool(let flag):
            var container = encoder.singleValueContainer()
            try container.encode(flag)
        case .integer(let integer):
            var container = encoder.singleValueContainer()
            try container.encode(integer)
        case .double(let number):
            var container = encoder.singleValueContainer()
            try container.encode(number)
        case .string(let text):
            var container = encoder.singleValueContainer()
            try container.encode(text)
        case .array(let elements):
            var container = encoder.unkeyedContainer()
            for element in elements { try container.encode(element) }
        case .object(let object):
            var container = encoder.container(keyedBy: StrataJSONKey.self)
            for member in object.members { try container.encode(member.value, forKey: StrataJSONKey(member.key)) }
        }
    }
}

/// A key of a JSON object, for `Codable`.
struct StrataJSONKey: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }
    init(_ key: String) { stringValue = key }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}
