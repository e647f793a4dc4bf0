import Foundation
import StrataStorage

/// `String`: TEXT.
struct StringScalar: ScalarDescriptor {
    var integerRange: ClosedRange<Int64>? { nil }
    var isFloatingPoint: Bool { false }
    var losslessTargets: Set<ScalarType> { [] }

    func parseDefault(_ value: DefaultScalar) -> Result<Literal, DefaultMismatch> {
        value.kind == .string ? .success(.string(value.text)) : .failure(DefaultMismatch(expected: "a string (quote it)"))
    }

    func storedValue(of literal: Literal, rules: any SQLDialectRules) -> SQLValue? {
        if case .string(let text) = literal { return .text(text) }
        return nil
    }

    func swiftExpression(of literal: Literal) -> String {
        if case .string(let text) = literal { return SwiftNames.stringLiteral(text) }
        return literal.description
    }
}

/// `Int`, `Int64`, `Int32`, `Int16`: integers of a range.
struct IntegerScalar: ScalarDescriptor {
    let type: ScalarType

    var integerRange: ClosedRange<Int64>? {
        switch type {
        case .int16: return Int64(Int16.min)...Int64(Int16.max)
        case .int32: return Int64(Int32.min)...Int64(Int32.max)
        default: return Int64.min...Int64.max
        }
    }
    var isFloatingPoint: Bool { false }
    var losslessTargets: Set<ScalarType> {
        switch type {
        case .int16: return [.int32, .int64, .int, .double, .float, .decimal, .string]
        case .int32: return [.int64, .int, .double, .decimal, .string]
        default: return [.int64, .int, .decimal, .string]
        }
    }

    func parseDefault(_ value: DefaultScalar) -> Result<Literal, DefaultMismatch> {
        guard value.kind == .integer, let number = value.integer else { return .failure(DefaultMismatch(expected: "an integer")) }
        guard integerRange?.contains(number) ?? true else {
            return .failure(DefaultMismatch(expected: "an integer that fits in \(type.name)"))
        }
        return .success(.integer(number))
    }

    func storedValue(of literal: Literal, rules: any SQLDialectRules) -> SQLValue? {
        if case .integer(let number) = literal { return .integer(number) }
        return nil
    }

    func swiftExpression(of literal: Literal) -> String {
        if case .integer(let number) = literal { return SwiftNames.integerLiteral(number) }
        return literal.description
    }
}

/// `Double`, `Float`: REAL / DOUBLE PRECISION.
struct FloatingPointScalar: ScalarDescriptor {
    let type: ScalarType

    var integerRange: ClosedRange<Int64>? { nil }
    var isFloatingPoint: Bool { true }
    var losslessTargets: Set<ScalarType> { type == .float ? [.double] : [] }

    func parseDefault(_ value: DefaultScalar) -> Result<Literal, DefaultMismatch> {
        guard value.kind == .integer || value.kind == .float, let number = value.number, number.isFinite else {
            return .failure(DefaultMismatch(expected: "a finite number"))
        }
        return .success(.double(number))
    }

    func storedValue(of literal: Literal, rules: any SQLDialectRules) -> SQLValue? {
        switch literal {
        case .integer(let number): return .real(Double(number))
        case .double(let number): return .real(number)
        default: return nil
        }
    }

    func swiftExpression(of literal: Literal) -> String {
        switch literal {
        case .integer(let number): return SwiftNames.floatLiteral(Double(number))
        case .double(let number): return SwiftNames.floatLiteral(number)
        default: return literal.description
        }
    }
}

/// `Bool`: INTEGER 0/1 in SQLite, BOOLEAN in PostgreSQL.
struct BoolScalar: ScalarDescriptor {
    var integerRange: ClosedRange<Int64>? { nil }
    var isFloatingPoint: Bool { false }
    var losslessTargets: Set<ScalarType> { [] }

    func parseDefault(_ value: DefaultScalar) -> Result<Literal, DefaultMismatch> {
        guard value.kind == .bool, let flag = value.flag else { return .failure(DefaultMismatch(expected: "true or false")) }
        return .success(.bool(flag))
    }

    func storedValue(of literal: Literal, rules: any SQLDialectRules) -> SQLValue? {
        if case .bool(let flag) = literal { return rules.stored(flag) }
        return nil
    }

    func swiftExpression(of literal: Literal) -> String {
        if case .bool(let flag) = literal { return flag ? "true" : "false" }
        return literal.description
    }
}

/// `UUID`: 16 bytes in SQLite, UUID in PostgreSQL; a default is written as its string.
struct UUIDScalar: ScalarDescriptor {
    var integerRange: ClosedRange<Int64>? { nil }
    var isFloatingPoint: Bool { false }
    var losslessTargets: Set<ScalarType> { [] }

    func parseDefault(_ value: DefaultScalar) -> Result<Literal, DefaultMismatch> {
        guard value.kind == .string, UUID(uuidString: value.text) != nil else {
            return .failure(DefaultMismatch(expected: "a UUID string such as \"3F2504E0-4F89-11D3-9A0C-0305E82C3301\""))
        }
        return .success(.string(value.text.uppercased()))
    }

    func storedValue(of literal: Literal, rules: any SQLDialectRules) -> SQLValue? {
        guard case .string(let text) = literal, let uuid = UUID(uuidString: text) else { return nil }
        return rules.stored(uuid)
    }

    func swiftExpression(of literal: Literal) -> String {
        "UUID(uuidString: \(SwiftNames.stringLiteral(text(of: literal))))!"
    }
}

/// `Date`: a REAL of seconds in SQLite (see ``ColumnEncoding``), TIMESTAMPTZ in PostgreSQL; a
/// default is an ISO 8601 date-time string.
struct DateScalar: ScalarDescriptor {
    var integerRange: ClosedRange<Int64>? { nil }
    var isFloatingPoint: Bool { false }
    var losslessTargets: Set<ScalarType> { [] }

    func parseDefault(_ value: DefaultScalar) -> Result<Literal, DefaultMismatch> {
        guard DateLiteral.parse(value.text) != nil else {
            return .failure(DefaultMismatch(expected: "an ISO 8601 date-time string such as \"2024-01-31T12:00:00Z\""))
        }
        return .success(.string(value.text))
    }

    func storedValue(of literal: Literal, rules: any SQLDialectRules) -> SQLValue? {
        guard case .string(let text) = literal, let date = DateLiteral.parse(text) else { return nil }
        return rules.stored(date)
    }

    func swiftExpression(of literal: Literal) -> String {
        // The Double the Date holds, so the Swift default is the very Date the SQL default stores.
        let seconds = DateLiteral.parse(text(of: literal))?.timeIntervalSinceReferenceDate ?? 0
        return "Date(timeIntervalSinceReferenceDate: \(SwiftNames.floatLiteral(seconds)))"
    }
}

/// `Data`: BLOB / BYTEA; no literal default.
struct DataScalar: ScalarDescriptor {
    var integerRange: ClosedRange<Int64>? { nil }
    var isFloatingPoint: Bool { false }
    var losslessTargets: Set<ScalarType> { [] }

    func parseDefault(_ value: DefaultScalar) -> Result<Literal, DefaultMismatch> {
        .failure(DefaultMismatch(expected: "null: Data fields have no literal default"))
    }

    func storedValue(of literal: Literal, rules: any SQLDialectRules) -> SQLValue? { nil }

    func swiftExpression(of literal: Literal) -> String { literal.description }
}

/// `Decimal`: its canonical text in SQLite, NUMERIC in PostgreSQL.
struct DecimalScalar: ScalarDescriptor {
    var integerRange: ClosedRange<Int64>? { nil }
    var isFloatingPoint: Bool { false }
    var losslessTargets: Set<ScalarType> { [.string] }

    func parseDefault(_ value: DefaultScalar) -> Result<Literal, DefaultMismatch> {
        guard value.kind == .integer || value.kind == .float || value.kind == .string, DecimalLiteral.isValid(value.text) else {
            return .failure(DefaultMismatch(expected: "a decimal number such as 12.50"))
        }
        return .success(.string(value.text))
    }

    func storedValue(of literal: Literal, rules: any SQLDialectRules) -> SQLValue? {
        switch literal {
        case .integer(let number): return storedDecimal(String(number), rules: rules)
        case .double(let number): return storedDecimal(String(number), rules: rules)
        case .string(let text): return storedDecimal(text, rules: rules)
        default: return nil
        }
    }

    func swiftExpression(of literal: Literal) -> String {
        SwiftNames.decimalLiteral(text(of: literal))
    }
}

/// The text of a string literal (descriptors of types written as strings).
private func text(of literal: Literal) -> String {
    if case .string(let text) = literal { return text }
    return literal.description
}

/// `URL`: TEXT (its `absoluteString`) on both databases; a default is a URL string.
struct URLScalar: ScalarDescriptor {
    var integerRange: ClosedRange<Int64>? { nil }
    var isFloatingPoint: Bool { false }
    /// Every URL is text; not every text is a URL, so `String` to `URL` needs a `transform`.
    var losslessTargets: Set<ScalarType> { [.string] }

    func parseDefault(_ value: DefaultScalar) -> Result<Literal, DefaultMismatch> {
        guard value.kind == .string, let url = URL(string: value.text), url.scheme != nil else {
            return .failure(DefaultMismatch(expected: "an absolute URL string such as \"https://example.com/\""))
        }
        return .success(.string(url.absoluteString))
    }

    func storedValue(of literal: Literal, rules: any SQLDialectRules) -> SQLValue? {
        guard case .string(let text) = literal, let url = URL(string: text) else { return nil }
        return .text(url.absoluteString)
    }

    /// `URL(string: "…")!`: the generator checked that the text is a URL.
    func swiftExpression(of literal: Literal) -> String {
        guard case .string(let text) = literal else { return literal.description }
        return "URL(string: \(SwiftNames.stringLiteral(text)))!"
    }
}

/// JSON (a field typed `JSON`, or a JSON value type's storage): text on SQLite, `JSONB` on
/// PostgreSQL. A default is JSON text (`default: '{}'`), checked by the generator.
struct JSONScalar: ScalarDescriptor {
    var integerRange: ClosedRange<Int64>? { nil }
    var isFloatingPoint: Bool { false }
    /// JSON is text; not every text is JSON, so `String` to `JSON` needs a `transform`.
    var losslessTargets: Set<ScalarType> { [.string] }

    func parseDefault(_ value: DefaultScalar) -> Result<Literal, DefaultMismatch> {
        guard value.kind == .string, let json = try? StrataJSONParser.parse(value.text) else {
            return .failure(DefaultMismatch(expected: "JSON text such as '{}' or '[]'"))
        }
        return .success(.string(StrataJSONWriter.text(of: json)))
    }

    func storedValue(of literal: Literal, rules: any SQLDialectRules) -> SQLValue? {
        guard case .string(let text) = literal, (try? StrataJSONParser.parse(text)) != nil else { return nil }
        return .text(text)
    }

    /// `StrataJSON(parsing: "…")`: the generator checked that the text is JSON, so the
    /// initializer's literal reads back; it is written as the JSON value's own Swift.
    func swiftExpression(of literal: Literal) -> String {
        guard case .string(let text) = literal, let json = try? StrataJSONParser.parse(text) else { return ".null" }
        return JSONSwiftLiteral.expression(of: json)
    }
}

/// A JSON value as a Swift expression of ``StrataJSON`` (`.object(["a": .integer(1)])`): a
/// default of a `JSON` field, written without parsing anything at run time.
enum JSONSwiftLiteral {
    static func expression(of json: StrataJSON) -> String {
        switch json {
        case .null: return ".null"
        case .bool(let value): return ".bool(\(value))"
        case .integer(let value): return ".integer(\(value))"
        case .double(let value): return ".double(\(value))"
        case .string(let text): return ".string(\(SwiftNames.stringLiteral(text)))"
        case .array(let elements): return ".array([" + elements.map(expression).joined(separator: ", ") + "])"
        case .object(let object):
            let members = object.members.map { "(\(SwiftNames.stringLiteral($0.key)), \(expression(of: $0.value)))" }
            return ".object(StrataJSONObject([" + members.joined(separator: ", ") + "]))"
        }
    }
}
