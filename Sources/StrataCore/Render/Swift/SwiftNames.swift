import Foundation

/// The one place where names and literals are made safe for Swift source.
public enum SwiftNames {
    /// Keywords that must be written in backticks to be used as identifiers.
    static let keywords: Set<String> = [
        "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import", "init", "inout",
        "internal", "let", "open", "operator", "private", "precedencegroup", "protocol", "public", "rethrows",
        "static", "struct", "subscript", "typealias", "var", "break", "case", "catch", "continue", "default",
        "defer", "do", "else", "fallthrough", "for", "guard", "if", "in", "repeat", "return", "throw", "switch",
        "where", "while", "Any", "as", "await", "false", "is", "nil", "self", "Self", "super", "throws", "true",
        "try", "consume", "copy", "discard", "borrowing", "consuming", "some", "any", "macro",
    ]

    /// `name`, in backticks when it is a keyword.
    public static func identifier(_ name: String) -> String {
        keywords.contains(name) ? "`\(name)`" : name
    }

    /// True when `name` follows Swift's lowerCamelCase convention (what swift-format's lint expects).
    static func isLowerCamelCase(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first else { return false }
        return !name.utf8.contains(UInt8(ascii: "_"))
            && !(first.isASCII ? ("A"..."Z").contains(first) : first.properties.isUppercase)
    }

    /// True when `name` starts with an upper-case letter (what swift-format's lint expects of types).
    static func isCapitalized(_ name: String) -> Bool {
        name.unicodeScalars.first.map { $0.isASCII ? ("A"..."Z").contains($0) : $0.properties.isUppercase } ?? false
    }

    /// A string literal (in double quotes) whose value is exactly `text`: nothing is interpolated.
    public static func stringLiteral(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": result += "\\\\"
            case "\"": result += "\\\""
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case "\0": result += "\\0"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F || (0x2028...0x2029).contains(scalar.value) {
                    result += "\\u{\(String(scalar.value, radix: 16))}"
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }

    /// An integer literal, grouped by thousands as swift-format asks (`1_000_000`).
    public static func integerLiteral(_ value: Int64) -> String {
        let digits = String(value.magnitude)
        var grouped = ""
        for (offset, digit) in digits.enumerated() {
            if offset > 0 && (digits.count - offset) % 3 == 0 && digits.count > 4 { grouped += "_" }
            grouped.append(digit)
        }
        return value < 0 ? "-" + grouped : grouped
    }

    /// A floating-point literal that reads back as `value`.
    public static func floatLiteral(_ value: Double) -> String {
        let text = "\(value)"
        return text.utf8.contains(UInt8(ascii: ".")) || text.utf8.contains(UInt8(ascii: "e")) ? text : text + ".0"
    }

    /// Documentation comment lines (`/// …`) for `doc`, indented by `indent`.
    static func docLines(_ doc: String?) -> [String] {
        guard let doc = doc?.trimmingWhitespace(andNewlines: true), !doc.isEmpty else { return [] }
        return doc.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.isEmpty ? "///" : "/// " + line.trimmingTrailingWhitespace()
        }
    }
}

extension Substring {
    func trimmingTrailingWhitespace() -> String {
        var result = self
        while let last = result.last, last == " " || last == "\t" { result = result.dropLast() }
        return String(result)
    }
}
