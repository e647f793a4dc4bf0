import GRDB
import StrataCore
import StrataStorage

/// What the values of a SQLite column that would import as `String` say about dates: whether
/// every one is ISO 8601 text exactly as one ``SQLiteDateText`` format writes it (so that the
/// column imports as a `Date` field with that `format:`, every value reading back and writing
/// back as the same text), or a value that is not.
public enum TextDateSurvey: Hashable, Sendable {
    /// No value that is not NULL.
    case empty
    /// Every value that is not NULL is text in this format.
    case dates(SQLiteDateText)
    /// A value that is text in no format (or mixes formats with the values before it).
    case notDates(example: String)

    /// The survey of `column` of `table`: one pass over its values, stopping at the first that
    /// no format writes.
    package static func of(_ db: Database, table: String, column: String) throws -> TextDateSurvey {
        let quote = SQLIdentifier.quoted
        let rows = try DatabaseValue.fetchCursor(
            db, sql: "SELECT \(quote(column)) FROM \(quote(table)) WHERE \(quote(column)) IS NOT NULL")
        var formats = Set(SQLiteDateText.allCases)
        var seen = false
        while let value = try rows.next() {
            seen = true
            // Only text is a date: a number in a DATETIME column (NUMERIC affinity) is not one.
            guard case .string(let text) = value.storage else { return .notDates(example: Self.shown(value)) }
            guard let date = SQLiteDateText.date(text: text) else { return .notDates(example: text) }
            formats = formats.filter { $0.text(of: date) == text }
            if formats.isEmpty { return .notDates(example: text) }
        }
        guard seen else { return .empty }
        return SQLiteDateText.allCases.last(where: formats.contains).map { .dates($0) } ?? .empty
    }

    /// A value that is not text, as a warning shows it.
    private static func shown(_ value: DatabaseValue) -> String {
        switch value.storage {
        case .int64(let number): return String(number)
        case .double(let number): return String(number)
        case .string(let text): return text
        case .blob(let data): return "a BLOB of \(data.count) bytes"
        case .null: return "NULL"
        }
    }
}
