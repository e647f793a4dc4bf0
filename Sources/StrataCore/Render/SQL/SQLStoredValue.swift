import Foundation
import StrataStorage

extension SQLDialect {
    /// The value a column of `encoding` stores for a schema literal, in this dialect's storage:
    /// in SQLite a UUID is its 16 bytes, a Date its seconds since 2001, a Decimal its canonical
    /// text and a Bool 0/1 (see ``ColumnEncoding``); PostgreSQL stores native values.
    ///
    /// Enum cases become their raw values. Returns nil for `null` (no default is the same as
    /// DEFAULT NULL) and for a literal that does not fit the encoding, which validation rejects.
    /// SQLite Dates are in `sqliteDateFormat` (``GeneratorConfiguration/sqliteDateFormat``).
    public func storedValue(
        of literal: Literal, as encoding: ColumnEncoding, enumDecl: EnumDecl? = nil,
        sqliteDateFormat: SQLiteDateFormat = .current
    ) -> SQLValue? {
        switch literal {
        case .null:
            return nil
        case .enumCase(let name):
            guard let rawValue = enumDecl?.case(named: name)?.rawValue, rawValue != literal else { return nil }
            return storedValue(of: rawValue, as: encoding, sqliteDateFormat: sqliteDateFormat)
        case .emptyArray:
            return rules(sqliteDateFormat: sqliteDateFormat).arrayValue([])
        case .bool, .integer, .double, .string:
            return encoding.descriptor.storedValue(of: literal, rules: rules(sqliteDateFormat: sqliteDateFormat))
        }
    }
}

/// Timestamps as PostgreSQL prints a `timestamptz` in the UTC time zone, so that a default
/// reads back exactly as written: `2024-01-31 12:00:00+00`, `2024-01-31 12:00:00.25+00`.
public enum PostgresTimestamp {
    /// The text of a date, to the microsecond PostgreSQL keeps (``PostgresStorage/microseconds(of:)``,
    /// the value the runtime binds for the same Date).
    public static func text(of date: Date) -> String {
        let microseconds = PostgresStorage.microseconds(of: date)
        var seconds = microseconds / 1_000_000
        var fraction = microseconds % 1_000_000
        if fraction < 0 {
            fraction += 1_000_000
            seconds -= 1
        }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        let since2000 = Date(timeIntervalSinceReferenceDate: -Double(PostgresStorage.referenceDateMicroseconds / 1_000_000))
        let parts = calendar.dateComponents(
            [.year, .month, .day, .hour, .minute, .second], from: since2000.addingTimeInterval(TimeInterval(seconds)))
        func pad(_ value: Int?, _ width: Int) -> String {
            let digits = String(value ?? 0)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        var text = "\(pad(parts.year, 4))-\(pad(parts.month, 2))-\(pad(parts.day, 2))"
        text += " \(pad(parts.hour, 2)):\(pad(parts.minute, 2)):\(pad(parts.second, 2))"
        if fraction != 0 {
            var digits = pad(Int(fraction), 6)
            while digits.hasSuffix("0") { digits.removeLast() }
            text += "." + digits
        }
        return text + "+00"
    }
}
