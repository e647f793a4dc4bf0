import Foundation
import StrataCore
import StrataSQLText
import StrataStorage

/// A column default read from a database as the `default:` of a field, when it is a literal the
/// schema language can write for the field's type.
enum ImportedDefault {
    /// The YAML text of `canonical` (a default in ``SQLCanonicalForm``) for a field of `type`,
    /// or nil when it is not such a literal (an expression, a function call, a value out of range).
    static func yaml(_ canonical: String, type: ScalarType, dialect: SQLDialect) -> String? {
        guard var tokens = try? SQLLexer(dialect: dialect.syntax).significantTokens(canonical) else { return nil }
        // A negative number is a sign and a number.
        if tokens.count == 2, tokens[0].isSymbol("-"), tokens[1].kind == .number {
            let value = "-" + tokens[1].value
            tokens = [SQLToken(kind: .number, value: value, text: value)]
        }
        guard tokens.count == 1, let token = tokens.first else { return nil }
        switch (type, token.kind) {
        case (.string, .string), (.string, .number):
            return YAMLText.string(token.value)
        case (.int, .number), (.int64, .number), (.int32, .number), (.int16, .number):
            guard let value = Int64(token.value), type.integerRange?.contains(value) == true else { return nil }
            return String(value)
        case (.double, .number), (.float, .number):
            guard let value = Double(token.value), value.isFinite else { return nil }
            return token.value
        case (.decimal, .number), (.decimal, .string):
            return SQLiteStorage.decimal(text: token.value) == nil ? nil : YAMLText.string(token.value)
        case (.bool, .number):
            return ["0": "false", "1": "true"][token.value]
        case (.bool, .word):
            return ["TRUE": "true", "FALSE": "false"][token.value.uppercased()]
        case (.uuid, .string):
            return UUID(uuidString: token.value).map { YAMLText.string($0.uuidString) }
        case (.uuid, .blob):
            let bytes = hexBytes(token.value)
            let uuid = bytes.withUnsafeBytes { SQLiteStorage.uuid(bytes: $0.baseAddress, count: $0.count) }
            return uuid.map { YAMLText.string($0.uuidString) }
        case (.date, .number):
            // SQLite: seconds since 2001, written back only when whole (the ISO 8601 text keeps them exactly).
            guard let seconds = Double(token.value), seconds.rounded() == seconds else { return nil }
            return YAMLText.string(iso8601(Date(timeIntervalSinceReferenceDate: seconds)))
        case (.date, .string):
            // PostgreSQL prints a timestamptz default in the session's zone, UTC: `2024-01-31 12:00:00+00`.
            var text = token.value.replacingOccurrences(of: " ", with: "T")
            if text.hasSuffix("+00") { text = String(text.dropLast(3)) + "Z" }
            let formatter = ISO8601DateFormatter()
            guard let date = formatter.date(from: text) else { return nil }
            return YAMLText.string(iso8601(date))
        default:
            return nil
        }
    }

    /// The text of a default that is a string literal, or nil.
    static func text(_ canonical: String, dialect: SQLDialect) -> String? {
        guard let tokens = try? SQLLexer(dialect: dialect.syntax).significantTokens(canonical), tokens.count == 1,
            tokens[0].kind == .string
        else { return nil }
        return tokens[0].value
    }

    private static func iso8601(_ date: Date) -> String { ISO8601DateFormatter().string(from: date) }

    private static func hexBytes(_ hex: String) -> [UInt8] {
        let digits = Array(hex.utf8)
        guard digits.count % 2 == 0 else { return [] }
        var bytes: [UInt8] = []
        for index in stride(from: 0, to: digits.count, by: 2) {
            guard let byte = UInt8(String(decoding: digits[index...index + 1], as: UTF8.self), radix: 16) else {
                return []
            }
            bytes.append(byte)
        }
        return bytes
    }
}
