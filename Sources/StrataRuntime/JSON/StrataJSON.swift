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

    /// The value of `key` as `Value`: a missing member or `null` reads as nil for an optional,
    /// and is ``StrataJSONError/missingKey(_:)`` otherwise.
    @inlinable
    public func decode<Value: StrataJSONCodable>(_ key: String, as type: Value.Type = Value.self) throws -> Value {
        let value = self[key] ?? .null
        do {
            return try Value(strataJSON: value)
        } catch StrataJSONError.mismatch(_, _, let path) where value == .null && path.isEmpty {
            throw StrataJSONError.missingKey([key])
        } catch let error as StrataJSONError {
            throw error.inside(key)
        }
    }

    /// The value of `key` as `Value`, or `defaultValue` when the object has no such member or it
    /// is `null`: a key the shape added with a default, read from a value written before.
    @inlinable
    public func decode<Value: StrataJSONCodable>(_ key: String, default defaultValue: @autoclosure () -> Value) throws -> Value {
        guard let value = self[key], value != .null else { return defaultValue() }
        do {
            return try Value(strataJSON: value)
        } catch let error as StrataJSONError {
            throw error.inside(key)
        }
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
