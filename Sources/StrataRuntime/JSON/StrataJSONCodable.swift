import Foundation
import StrataStorage

/// A value stored inside JSON: a member of a JSON value type of the schema, or an element of an
/// array stored as JSON. Read from a parsed ``StrataJSON`` and written with a
/// ``StrataJSONWriter``, by hand, without `Codable`.
///
/// | Swift | JSON |
/// |---|---|
/// | `String`, `URL` (its `absoluteString`), `UUID` (its `uuidString`) | string |
/// | integers, `Double`, `Float` | number (an integer reads into a floating-point type, and a number without fraction into an integer) |
/// | `Bool` | `true` / `false` |
/// | `Date` | string `YYYY-MM-DD HH:MM:SS[.SSS]` in UTC, to the millisecond, as SQLite's `datetime()` writes |
/// | enums and value types | their raw value |
/// | `Optional` | the value, or the member left out (read: a missing member or `null` is nil) |
/// | `Array` | array |
public protocol StrataJSONCodable: Sendable {
    /// The value of parsed JSON; throws ``StrataJSONError`` for JSON of another kind.
    init(strataJSON json: StrataJSON) throws
    /// Writes the value.
    func write(to json: inout StrataJSONWriter)
    /// True for a value an object leaves out (a nil optional).
    var strataJSONIsAbsent: Bool { get }
}

extension StrataJSONCodable {
    public var strataJSONIsAbsent: Bool { false }
}

extension String: StrataJSONCodable {
    public init(strataJSON json: StrataJSON) throws {
        guard case .string(let text) = json else { throw StrataJSONError.mismatch(expected: "a string", found: json.kind) }
        self = text
    }

    public func write(to json: inout StrataJSONWriter) { json.write(self) }
}

extension Bool: StrataJSONCodable {
    public init(strataJSON json: StrataJSON) throws {
        guard case .bool(let value) = json else { throw StrataJSONError.mismatch(expected: "a Bool", found: json.kind) }
        self = value
    }

    public func write(to json: inout StrataJSONWriter) { json.write(self) }
}

/// An integer type stored as a JSON number.
public protocol StrataJSONInteger: StrataJSONCodable, FixedWidthInteger {}

extension StrataJSONInteger {
    public init(strataJSON json: StrataJSON) throws {
        switch json {
        case .integer(let value):
            guard let exact = Self(exactly: value) else {
                throw StrataJSONError.mismatch(expected: "an \(Self.self)", found: "\(value)")
            }
            self = exact
        case .double(let value):
            guard let exact = Self(exactly: value) else {
                throw StrataJSONError.mismatch(expected: "an \(Self.self)", found: "\(value)")
            }
            self = exact
        default:
            throw StrataJSONError.mismatch(expected: "an \(Self.self)", found: json.kind)
        }
    }

    public func write(to json: inout StrataJSONWriter) { json.write(Int64(self)) }
}

extension Int: StrataJSONInteger {}
extension Int64: StrataJSONInteger {}
extension Int32: StrataJSONInteger {}
extension Int16: StrataJSONInteger {}

extension Double: StrataJSONCodable {
    public init(strataJSON json: StrataJSON) throws {
        switch json {
        case .double(let value): self = value
        case .integer(let value): self = Double(value)
        default: throw StrataJSONError.mismatch(expected: "a number", found: json.kind)
        }
    }

    public func write(to json: inout StrataJSONWriter) { json.write(self) }
}

extension Float: StrataJSONCodable {
    public init(strataJSON json: StrataJSON) throws {
        self = Float(try Double(strataJSON: json))
    }

    public func write(to json: inout StrataJSONWriter) { json.write(Double(self)) }
}

extension UUID: StrataJSONCodable {
    public init(strataJSON json: StrataJSON) throws {
        guard let uuid = UUID(uuidString: try String(strataJSON: json)) else {
            throw StrataJSONError.mismatch(expected: "a UUID", found: "another string")
        }
        self = uuid
    }

    public func write(to json: inout StrataJSONWriter) { json.write(uuidString) }
}

extension URL: StrataJSONCodable {
    public init(strataJSON json: StrataJSON) throws {
        guard let url = URL(string: try String(strataJSON: json)) else {
            throw StrataJSONError.mismatch(expected: "a URL", found: "another string")
        }
        self = url
    }

    public func write(to json: inout StrataJSONWriter) { json.write(absoluteString) }
}

extension Date: StrataJSONCodable {
    public init(strataJSON json: StrataJSON) throws {
        guard let date = SQLiteDateText.date(text: try String(strataJSON: json)) else {
            throw StrataJSONError.mismatch(expected: "a date", found: "another string")
        }
        self = date
    }

    /// Writes the date as ``SQLiteDateText/timestamp`` text; a date outside years 0 to 9999 is
    /// written `null`.
    public func write(to json: inout StrataJSONWriter) {
        guard let text = SQLiteDateText.timestamp.text(of: self) else { return json.writeNull() }
        json.write(text)
    }
}

extension StrataJSON: StrataJSONCodable, StrataColumnValue {
    /// The value itself.
    public init(strataJSON json: StrataJSON) { self = json }

    public func write(to json: inout StrataJSONWriter) { json.write(self) }

    /// Its compact text, as stored.
    public var strataSQLValue: StrataSQLValue { .json(StrataJSONWriter.text(of: self)) }

    /// The stored JSON, parsed.
    @inlinable
    public static func read(from row: inout some StrataRowReader) throws -> StrataJSON { try row.readJSON() }

    /// Binds its compact text.
    @inlinable
    public func bind(to binder: inout some StrataValueBinder) throws { try binder.bind(json: StrataJSONWriter.text(of: self)) }
}

extension Optional: StrataJSONCodable where Wrapped: StrataJSONCodable {
    public init(strataJSON json: StrataJSON) throws {
        self = json == .null ? nil : try Wrapped(strataJSON: json)
    }

    public func write(to json: inout StrataJSONWriter) {
        guard let self else { return json.writeNull() }
        self.write(to: &json)
    }

    public var strataJSONIsAbsent: Bool { self == nil }
}

extension Array: StrataJSONCodable where Element: StrataJSONCodable {
    public init(strataJSON json: StrataJSON) throws {
        self = try json.elements(Element.init(strataJSON:))
    }

    public func write(to json: inout StrataJSONWriter) {
        json.array { json in
            for element in self { element.write(to: &json) }
        }
    }
}

extension StrataJSON {
    /// The elements of a JSON array, each read by `element`; throws ``StrataJSONError`` for JSON
    /// that is no array, and the error of an element with its index in the path.
    public func elements<Element>(_ element: (StrataJSON) throws -> Element) throws -> [Element] {
        var elements: [Element] = []
        let values = try array()
        elements.reserveCapacity(values.count)
        for (index, value) in values.enumerated() {
            do {
                elements.append(try element(value))
            } catch let error as StrataJSONError {
                throw error.inside("\(index)")
            }
        }
        return elements
    }
}

extension StrataJSONCodable where Self: StrataEnumColumnValue, RawValue: StrataJSONCodable {
    /// The case of the raw value; one that matches no case reads as the enum's `unknown` case,
    /// or is an error when it has none.
    public init(strataJSON json: StrataJSON) throws {
        let raw = try RawValue(strataJSON: json)
        guard let value = Self(rawValue: raw) ?? Self.strataUnknownCase else {
            throw StrataJSONError.mismatch(expected: "a case of \(Self.self)", found: "\(raw)")
        }
        self = value
    }

    public func write(to json: inout StrataJSONWriter) { rawValue.write(to: &json) }
}

extension StrataJSONCodable where Self: StrataRawColumnValue, RawValue: StrataJSONCodable {
    /// The value of the raw value; one the type refuses is an error.
    public init(strataJSON json: StrataJSON) throws {
        let raw = try RawValue(strataJSON: json)
        guard let value = Self(rawValue: raw) else {
            throw StrataJSONError.mismatch(expected: "a \(Self.self)", found: "\(raw)")
        }
        self = value
    }

    public func write(to json: inout StrataJSONWriter) { rawValue.write(to: &json) }
}

/// A JSON value type of the schema (`types: { Settings: { json: … } }`): a struct stored as JSON
/// text on SQLite and `JSONB` on PostgreSQL, read and bound once for both. Generated JSON types
/// conform in `<Model>Records.swift`.
public protocol StrataJSONColumnValue: StrataColumnValue, StrataJSONCodable {}

extension StrataJSONColumnValue {
    /// The value's JSON text, as stored.
    public var strataSQLValue: StrataSQLValue { .json(StrataJSONWriter.text(of: self)) }

    /// The value of the stored JSON; JSON of another shape is
    /// ``StrataDecodingError/malformedJSON(column:type:reason:)``.
    @inlinable
    public static func read(from row: inout some StrataRowReader) throws -> Self {
        let json = try row.readJSON()
        do {
            return try Self(strataJSON: json)
        } catch let error as StrataJSONError {
            throw StrataDecodingError.malformedJSON(
                column: row.previousColumnName, type: String(describing: Self.self), reason: error.description)
        }
    }

    /// Binds the value's JSON text.
    @inlinable
    public func bind(to binder: inout some StrataValueBinder) throws {
        try binder.bind(json: StrataJSONWriter.text(of: self))
    }
}

extension StrataJSONObject {
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
}

extension StrataJSONWriter {
    /// The JSON text of `value`.
    public static func text(of value: some StrataJSONCodable) -> String {
        var writer = StrataJSONWriter()
        value.write(to: &writer)
        return writer.text
    }

    /// Writes a member of an object; a nil optional is left out, as `Codable` does.
    public mutating func member(_ key: String, _ value: some StrataJSONCodable) {
        guard !value.strataJSONIsAbsent else { return }
        self.key(key)
        value.write(to: &self)
    }
}
