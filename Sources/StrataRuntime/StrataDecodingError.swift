import Foundation

/// A stored value that generated code cannot turn into its Swift type.
public enum StrataDecodingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// NULL in a column whose field is not optional.
    case unexpectedNull(column: String)
    /// A value that is not a valid encoding of the type (a BLOB that is not 16 bytes for a UUID…).
    case malformed(column: String, type: String)
    /// Text in a column of dates stored as ISO 8601 text (`format:`) that is not such a date.
    case malformedDate(column: String, value: String)
    /// An integer that does not fit the field's type.
    case outOfRange(column: String, type: String, value: Int64)
    /// A raw value that matches no case of an enum without an `unknown` case.
    case unknownEnumValue(column: String, type: String, rawValue: String)
    /// JSON that is not valid, or not of the shape of the Swift type that reads it.
    case malformedJSON(column: String, type: String, reason: String)
    /// A row with fewer columns than the record has fields (0-based position of the first missing one).
    case missingColumn(position: Int)

    public var description: String {
        switch self {
        case .unexpectedNull(let column):
            return "column \(column) is NULL, but its field is not optional"
        case .malformed(let column, let type):
            return "column \(column) does not hold a valid \(type)"
        case .malformedDate(let column, let value):
            return "column \(column) holds '\(value)', which is not a date as YYYY-MM-DD, optionally followed by HH:MM[:SS[.fraction]] in UTC"
        case .outOfRange(let column, let type, let value):
            return "column \(column) holds \(value), which does not fit \(type)"
        case .unknownEnumValue(let column, let type, let rawValue):
            return "column \(column) holds \(rawValue), which is no case of \(type) (and \(type) has no unknown case)"
        case .malformedJSON(let column, let type, let reason):
            return "column \(column) does not hold a \(type): \(reason)"
        case .missingColumn(let position):
            return "the row has no column \(position + 1): it was not selected with the record's columns"
        }
    }
}
