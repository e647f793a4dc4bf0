import Foundation

/// How a `Date` field declared with `format:` is stored in SQLite: as ISO 8601 text in UTC, the way
/// existing databases (and SQLite's own `datetime()` and `date()`) store dates, rather than Strata's
/// exact `REAL` (``SQLiteDateFormat``). The one place that writes and parses that text, for the
/// runtime's binds and reads, the DDL's literals and `import database`.
///
/// ISO text sorts as the dates do, so SQL comparisons and `ORDER BY` on the column are right when
/// every value has the same shape. Reading accepts any text SQLite's date functions take without
/// a time zone other than UTC: `YYYY-MM-DD`, optionally followed by a space or `T`, `HH:MM`,
/// optionally `:SS` and a fraction of any number of digits, optionally ending in `Z`.
public enum SQLiteDateText: String, CaseIterable, Sendable, Hashable {
    /// `YYYY-MM-DD HH:MM:SS`, with `.SSS` (milliseconds) only when they are not zero, as SQLite's
    /// `datetime()` writes (`strftime('%Y-%m-%d %H:%M:%f')` when there is a fraction). A Date is
    /// written to the nearest millisecond.
    case timestamp
    /// `YYYY-MM-DD`: the day, a Date written as the UTC day it falls in (its time dropped); read
    /// as that day's midnight UTC.
    case date

    /// The longest text written: `YYYY-MM-DD HH:MM:SS.SSS`.
    public static let maximumLength = 23

    /// The years the text can hold (four digits, as SQLite's date functions read them).
    public static let years: ClosedRange<Int64> = 0...9999

    /// The text of `date`, or nil when its year is outside ``years`` (or it is not finite).
    public func text(of date: Date) -> String? {
        var bytes = [UInt8](repeating: 0, count: Self.maximumLength)
        let count = bytes.withUnsafeMutableBufferPointer { write(date, into: $0) }
        guard let count else { return nil }
        return String(decoding: bytes[..<count], as: UTF8.self)
    }

    /// Writes the text of `date` into `buffer` (at least ``maximumLength`` bytes) and returns its
    /// length, or nil when the year is outside ``years``: what binds write, without allocating.
    public func write(_ date: Date, into buffer: UnsafeMutableBufferPointer<UInt8>) -> Int? {
        let seconds = date.timeIntervalSince1970
        guard seconds.isFinite, abs(seconds) < 1e12 else { return nil }
        // Milliseconds, rounded: a Date read from text of milliseconds writes the same text back.
        let milliseconds = Int64((seconds * 1000).rounded())
        let dayMilliseconds: Int64 = 86_400_000
        let days = floorDivide(milliseconds, dayMilliseconds)
        let (year, month, day) = Self.civil(days: days)
        guard Self.years.contains(year) else { return nil }
        var index = 0
        func put(_ value: Int64, digits: Int) {
            var divisor: Int64 = 1
            for _ in 1..<digits { divisor *= 10 }
            var rest = value
            while divisor > 0 {
                buffer[index] = UInt8(48 + rest / divisor)
                rest %= divisor
                divisor /= 10
                index += 1
            }
        }
        func put(byte: UInt8) {
            buffer[index] = byte
            index += 1
        }
        put(year, digits: 4)
        put(byte: 45)  // -
        put(month, digits: 2)
        put(byte: 45)
        put(day, digits: 2)
        guard self == .timestamp else { return index }
        let time = milliseconds - days * dayMilliseconds
        put(byte: 32)  // space
        put(time / 3_600_000, digits: 2)
        put(byte: 58)  // :
        put(time / 60_000 % 60, digits: 2)
        put(byte: 58)
        put(time / 1000 % 60, digits: 2)
        if time % 1000 != 0 {
            put(byte: 46)  // .
            put(time % 1000, digits: 3)
        }
        return index
    }

    /// The Date of text in any shape this type reads, or nil when it is not one.
    public static func date(text: String) -> Date? {
        var text = text
        return text.withUTF8 { date(utf8: $0) }
    }

    /// The Date of UTF-8 text in any shape this type reads (see ``SQLiteDateText``), or nil: the
    /// digits parsed by hand, as a read of every row does.
    public static func date(utf8 text: UnsafeBufferPointer<UInt8>) -> Date? {
        let count = text.count
        guard count >= 10, text[4] == 45, text[7] == 45 else { return nil }
        func number(_ start: Int, _ length: Int) -> Int64? {
            var value: Int64 = 0
            for offset in start..<(start + length) {
                let digit = Int64(text[offset]) - 48
                guard digit >= 0, digit <= 9 else { return nil }
                value = value * 10 + digit
            }
            return value
        }
        guard let year = number(0, 4), let month = number(5, 2), let day = number(8, 2),
            (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year)
        else { return nil }
        var seconds = Double(days(year: year, month: month, day: day) * 86_400)
        var index = 10
        if index < count, text[index] == 32 || text[index] == 84 {  // ' ' or 'T'
            guard count >= index + 6, text[index + 3] == 58, let hour = number(index + 1, 2),
                let minute = number(index + 4, 2), hour < 24, minute < 60
            else { return nil }
            seconds += Double(hour * 3600 + minute * 60)
            index += 6
            if index < count, text[index] == 58 {
                guard count >= index + 3, let second = number(index + 1, 2), second < 60 else { return nil }
                seconds += Double(second)
                index += 3
                if index < count, text[index] == 46 {
                    index += 1
                    let start = index
                    var fraction: Int64 = 0
                    var scale: Int64 = 1
                    while index < count, text[index] >= 48, text[index] <= 57 {
                        // Digits past nanoseconds change nothing a Date holds.
                        if index - start < 9 {
                            fraction = fraction * 10 + Int64(text[index] - 48)
                            scale *= 10
                        }
                        index += 1
                    }
                    guard index > start else { return nil }
                    seconds += Double(fraction) / Double(scale)
                }
            }
        }
        if index < count, text[index] == 90 { index += 1 }  // Z
        guard index == count else { return nil }
        return Date(timeIntervalSince1970: seconds)
    }

    /// Days from 1970-01-01 to a day of the proleptic Gregorian calendar (H. Hinnant's algorithm).
    static func days(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = floorDivide(y, 400)
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The day of the proleptic Gregorian calendar `days` after 1970-01-01.
    static func civil(days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let z = days + 719_468
        let era = floorDivide(z, 146_097)
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    static func daysIn(month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }
}

private func floorDivide(_ a: Int64, _ b: Int64) -> Int64 {
    let quotient = a / b
    return a % b != 0 && (a < 0) != (b < 0) ? quotient - 1 : quotient
}
