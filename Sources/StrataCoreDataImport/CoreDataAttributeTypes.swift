import Foundation
import StrataCore

/// How Core Data attribute types and default values become Strata types and defaults.
enum CoreDataAttributeTypes {
    /// The Strata type of each storable Core Data attribute type.
    static let strataTypes: [String: String] = [
        "Integer 16": "Int16", "Integer 32": "Int32", "Integer 64": "Int64", "Double": "Double", "Float": "Float",
        "Decimal": "Decimal", "String": "String", "Boolean": "Bool", "Date": "Date", "Binary": "Data", "UUID": "UUID",
        "URI": "URL",
    ]

    /// The attribute types, for messages.
    static let known = [
        "Integer 16", "Integer 32", "Integer 64", "Decimal", "Double", "Float", "String", "Boolean", "Date", "Binary",
        "UUID", "URI", "Transformable",
    ]

    /// The Strata type of `attribute`, or the error that stops it.
    static func strataType(of attribute: CoreDataAttribute, entity: String, transformableAsData: Bool) -> Result<
        String, DiagnosticsError
    > {
        if let type = strataTypes[attribute.type] { return .success(type) }
        if attribute.type == "Transformable" {
            return transformableAsData
                ? .success("Data")
                : .failure(
                    DiagnosticsError([
                        Diagnostic(
                            .error,
                            "attribute '\(entity).\(attribute.name)' is Transformable: Strata stores no archived objects; import it as Data (the archived bytes) with --transformable-as-data, or change its type in Xcode",
                            at: attribute.typeLocation)
                    ]))
        }
        return .failure(
            DiagnosticsError([
                Diagnostic(
                    .error,
                    "unknown attribute type '\(attribute.type)' of '\(entity).\(attribute.name)'; expected one of \(known.joined(separator: ", "))"
                        + Suggestion.didYouMean(attribute.type, in: known),
                    at: attribute.typeLocation)
            ]))
    }

    /// The YAML text of the default of `attribute` (of Strata type `type`), nil when it has none,
    /// and a note when Core Data reads the text as another value (`0.0` on an integer is 0); an
    /// error at the value's place when Core Data could not read it as the type.
    ///
    /// Core Data reads `defaultValueString` the way `NSString` reads numbers for the attribute's
    /// type: an integer attribute takes the integer part of a number (`0.0` is 0, `2.9` is 2), a
    /// Boolean takes `YES`/`NO`, `true`/`false` and `1`/`0`.
    static func defaultValue(of attribute: CoreDataAttribute, type: String, entity: String) -> Result<
        (value: String?, note: Diagnostic?), DiagnosticsError
    > {
        let name = "\(entity).\(attribute.name)"
        if type == "Date" {
            guard let (text, location) = attribute.defaultDateTimeInterval ?? attribute.defaultValue else {
                return .success((nil, nil))
            }
            guard let seconds = Double(text.trimmingCharacters(in: .whitespaces)), seconds.isFinite else {
                return .failure(
                    DiagnosticsError([
                        Diagnostic(
                            .error,
                            "default '\(text)' of '\(name)' does not fit Date: expected seconds since 2001-01-01",
                            at: location)
                    ]))
            }
            return .success((YAMLText.string(iso8601(secondsSince2001: seconds)), nil))
        }
        guard let (text, location) = attribute.defaultValue else { return .success((nil, nil)) }
        func misfit(_ expected: String) -> Result<(value: String?, note: Diagnostic?), DiagnosticsError> {
            .failure(
                DiagnosticsError([
                    Diagnostic(
                        .error, "default '\(text)' of '\(name)' does not fit \(attribute.type): expected \(expected)",
                        at: location)
                ]))
        }
        func read(_ value: String, as shown: String? = nil) -> Result<
            (value: String?, note: Diagnostic?), DiagnosticsError
        > {
            let note = Diagnostic(
                .note,
                "default '\(text)' of '\(name)' is read as \(shown ?? value), as Core Data reads it for \(attribute.type)",
                at: location)
            return .success((value, note))
        }
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        switch attribute.type {
        case "Integer 16", "Integer 32", "Integer 64":
            let bits = attribute.type == "Integer 16" ? 16 : attribute.type == "Integer 32" ? 32 : 64
            let fits = { (value: Int64) in
                bits == 64 || (value >= -(Int64(1) << (bits - 1)) && value < (Int64(1) << (bits - 1)))
            }
            if let value = Int64(trimmed) {
                guard fits(value) else { return misfit("an integer that fits in \(bits) bits") }
                return .success((String(value), nil))
            }
            // A number with a fraction or an exponent: Core Data keeps its integer part.
            guard let number = Double(trimmed), number.isFinite, !trimmed.lowercased().contains("x"),
                number.rounded(.towardZero).magnitude < 9.2e18
            else { return misfit("an integer that fits in \(bits) bits") }
            let value = Int64(number.rounded(.towardZero))
            guard fits(value) else { return misfit("an integer that fits in \(bits) bits") }
            return read(String(value))
        case "Double", "Float":
            guard let value = Double(trimmed), value.isFinite, attribute.type == "Double" || Float(value).isFinite
            else { return misfit("a finite number") }
            if let plain = plainNumber(trimmed) { return .success((plain, nil)) }
            return read(String(value))
        case "Decimal":
            guard plainNumber(trimmed) != nil else { return misfit("a decimal number") }
            return .success((YAMLText.string(trimmed), nil))
        case "Boolean":
            switch trimmed.lowercased() {
            case "yes" where trimmed == "YES": return .success(("true", nil))
            case "no" where trimmed == "NO": return .success(("false", nil))
            case "yes", "true", "1": return read("true", as: "YES")
            case "no", "false", "0": return read("false", as: "NO")
            default: return misfit("YES or NO")
            }
        case "UUID":
            guard let uuid = UUID(uuidString: trimmed) else {
                return misfit("a UUID")
            }
            return .success((YAMLText.string(uuid.uuidString), nil))
        case "Binary", "Transformable":
            return .failure(
                DiagnosticsError([
                    Diagnostic(
                        .error, "default of '\(name)': Strata has no literal default for Data; remove it in Xcode",
                        at: location)
                ]))
        default:
            return .success((YAMLText.string(text), nil))
        }
    }

    /// `-12`, `3.5`: digits with an optional sign and fraction; nil for anything else.
    private static func plainNumber(_ text: String) -> String? {
        var body = Substring(text)
        if body.first == "-" || body.first == "+" { body = body.dropFirst() }
        let parts = body.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count),
            parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0.isASCII && $0.isNumber } })
        else {
            return nil
        }
        return text.hasPrefix("+") ? String(text.dropFirst()) : text
    }

    /// `2024-01-31T12:00:00Z`, with fractional seconds when there are any.
    static func iso8601(secondsSince2001 seconds: Double) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        let date = Date(timeIntervalSinceReferenceDate: seconds)
        if seconds.rounded() != seconds {
            formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        }
        return formatter.string(from: date)
    }
}
