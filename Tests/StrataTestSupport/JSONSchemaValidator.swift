import Foundation
import Yams

/// A validator for the subset of JSON Schema (draft-07) that Strata's schemas
/// (`Docs/JSONSchema/*.schema.json`) use: `type`, `enum`, `properties`, `additionalProperties`,
/// `required`, `minProperties`, `items`, `minItems`, `minLength`, `minimum`, `oneOf` and local
/// `$ref`s (`#/definitions/…`). A keyword outside the subset is reported as a problem, so the
/// schemas cannot use one silently unchecked. No JSON Schema package is available to Swift here.
public struct JSONSchemaValidator {
    /// A value of a YAML or JSON document, typed the way JSON Schema sees it.
    public indirect enum Value: Equatable {
        case null
        case bool(Bool)
        case integer(Int)
        case number(Double)
        case string(String)
        case array([Value])
        case object([(String, Value)])

        public static func == (lhs: Value, rhs: Value) -> Bool {
            switch (lhs, rhs) {
            case (.null, .null): return true
            case (.bool(let a), .bool(let b)): return a == b
            case (.integer(let a), .integer(let b)): return a == b
            case (.number(let a), .number(let b)): return a == b
            case (.string(let a), .string(let b)): return a == b
            case (.array(let a), .array(let b)): return a == b
            case (.object(let a), .object(let b)): return a.map(\.0) == b.map(\.0) && a.map(\.1) == b.map(\.1)
            default: return false
            }
        }

        /// A YAML document as YAML 1.1 resolves it (Yams' default resolver, as an editor's YAML
        /// language server does): `true`, `12`, `1.5`, `null` typed, everything else a string.
        public static func yaml(_ text: String) throws -> Value {
            guard let node = try Yams.compose(yaml: text) else { return .null }
            return from(node)
        }

        static func from(_ node: Node) -> Value {
            switch node {
            case .mapping(let mapping): return .object(mapping.map { (($0.key.string ?? ""), from($0.value)) })
            case .sequence(let sequence): return .array(sequence.map(from))
            case .alias: return .null
            case .scalar(let scalar):
                switch Tag.Name(rawValue: node.tag.rawValue) {
                case .null: return .null
                case .bool: return .bool(node.bool ?? false)
                case .int: return node.int.map(Value.integer) ?? .string(scalar.string)
                case .float: return node.float.map(Value.number) ?? .string(scalar.string)
                default: return .string(scalar.string)
                }
            }
        }

        /// The member `key` of an object.
        public subscript(key: String) -> Value? {
            guard case .object(let members) = self else { return nil }
            return members.first { $0.0 == key }?.1
        }
    }

    /// The schema, as read from its JSON file.
    public let schema: Value

    /// The keywords this validator understands; any other in a schema is a problem.
    static let keywords: Set<String> = [
        "$schema", "$id", "title", "description", "type", "enum", "properties", "additionalProperties", "required",
        "minProperties", "items", "minItems", "minLength", "minimum", "oneOf", "$ref", "definitions",
    ]

    /// Reads a schema file (JSON is read as the YAML it also is, which keeps integers, numbers
    /// and booleans apart on every platform).
    public init(contentsOf url: URL) throws {
        schema = try Value.yaml(String(contentsOf: url, encoding: .utf8))
    }

    /// The problems of `value` against the schema, each `path: what is wrong` (empty when valid).
    public func problems(_ value: Value) -> [String] {
        problems(value, against: schema, at: "$")
    }

    private func problems(_ value: Value, against schema: Value, at path: String) -> [String] {
        guard case .object(let members) = schema else { return ["\(path): the schema is not an object"] }
        var found: [String] = []
        for (keyword, _) in members where !Self.keywords.contains(keyword) {
            found.append("\(path): the validator does not know the keyword '\(keyword)'")
        }
        if case .string(let reference)? = schema["$ref"] {
            guard let resolved = resolve(reference) else { return found + ["\(path): unresolved $ref \(reference)"] }
            return found + problems(value, against: resolved, at: path)
        }
        if let types = schema["type"] {
            let names: [String]
            switch types {
            case .string(let name): names = [name]
            case .array(let items):
                names = items.compactMap { if case .string(let name) = $0 { return name } else { return nil } }
            default: names = []
            }
            if !names.contains(where: { Self.matches(value, type: $0) }) {
                return found + ["\(path): expected \(names.joined(separator: " or ")), found \(Self.kind(of: value))"]
            }
        }
        if case .array(let allowed)? = schema["enum"], !allowed.contains(value) {
            found.append("\(path): \(Self.describe(value)) is not one of the allowed values")
        }
        if case .array(let options)? = schema["oneOf"] {
            let matching = options.filter { problems(value, against: $0, at: path).isEmpty }
            if matching.count != 1 {
                let details = matching.isEmpty ? options.flatMap { problems(value, against: $0, at: path) } : []
                found.append(
                    "\(path): matches \(matching.count) of the \(options.count) forms, not exactly one"
                        + (details.isEmpty ? "" : " (" + details.joined(separator: "; ") + ")"))
            }
        }
        switch value {
        case .object(let entries):
            if case .integer(let minimum)? = schema["minProperties"], entries.count < minimum {
                found.append("\(path): needs at least \(minimum) entries")
            }
            if case .array(let required)? = schema["required"] {
                for case .string(let key) in required where !entries.contains(where: { $0.0 == key }) {
                    found.append("\(path): missing key '\(key)'")
                }
            }
            let properties = schema["properties"]
            for (key, item) in entries {
                if let property = properties?[key] {
                    found += problems(item, against: property, at: "\(path).\(key)")
                } else if let additional = schema["additionalProperties"] {
                    if additional == .bool(false) {
                        found.append("\(path): key '\(key)' is not allowed")
                    } else if case .object = additional {
                        found += problems(item, against: additional, at: "\(path).\(key)")
                    }
                }
            }
        case .array(let items):
            if case .integer(let minimum)? = schema["minItems"], items.count < minimum {
                found.append("\(path): needs at least \(minimum) items")
            }
            if let itemSchema = schema["items"] {
                for (offset, item) in items.enumerated() {
                    found += problems(item, against: itemSchema, at: "\(path)[\(offset)]")
                }
            }
        case .string(let text):
            if case .integer(let minimum)? = schema["minLength"], text.count < minimum {
                found.append("\(path): must have at least \(minimum) characters")
            }
        case .integer(let number):
            if case .integer(let minimum)? = schema["minimum"], number < minimum {
                found.append("\(path): must be at least \(minimum)")
            }
        default: break
        }
        return found
    }

    private func resolve(_ reference: String) -> Value? {
        guard reference.hasPrefix("#/") else { return nil }
        var current: Value? = schema
        for part in reference.dropFirst(2).split(separator: "/") { current = current?[String(part)] }
        return current
    }

    static func matches(_ value: Value, type: String) -> Bool {
        switch (type, value) {
        case ("null", .null), ("boolean", .bool), ("integer", .integer), ("number", .integer), ("number", .number),
            ("string", .string), ("array", .array), ("object", .object):
            return true
        default: return false
        }
    }

    static func kind(of value: Value) -> String {
        switch value {
        case .null: "null"
        case .bool: "boolean"
        case .integer: "integer"
        case .number: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }

    static func describe(_ value: Value) -> String {
        if case .string(let text) = value { return "'\(text)'" }
        return kind(of: value)
    }
}
