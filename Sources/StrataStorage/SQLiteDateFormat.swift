import Foundation

/// How a `Date` is stored in a SQLite `REAL` column: the one place that decides it, for the DDL's
/// literals (StrataCore), the runtime's binds and reads (StrataRuntime) and the conversion of
/// databases written before the format changed.
///
/// The current format is ``secondsSinceReferenceDate``: the very `Double` a `Date` holds
/// (`timeIntervalSinceReferenceDate`, seconds since 2001-01-01 00:00:00 UTC, as Core Data stores
/// it), so every `Date` reads back `==` to the one written. In SQL,
/// `datetime("col" + 978307200, 'unixepoch')` is its UTC timestamp (see ``unixEpochOffset``).
public enum SQLiteDateFormat: Int, CaseIterable, Sendable, Hashable {
    /// Seconds since 1970-01-01 00:00:00 UTC: what Strata 0.5 and earlier stored. Converting a
    /// `Date` to it adds a rounding step, so about half of all dates read back unequal. Kept only
    /// to read the checksums of old migrations and to convert old databases.
    case secondsSince1970 = 1
    /// Seconds since 2001-01-01 00:00:00 UTC (`Date.timeIntervalSinceReferenceDate`): exact.
    case secondsSinceReferenceDate = 2

    /// The format Strata writes.
    public static let current = SQLiteDateFormat.secondsSinceReferenceDate

    /// The seconds between 1970-01-01 and 2001-01-01 (UTC): add them to a value of
    /// ``secondsSinceReferenceDate`` to get Unix seconds, e.g. `"col" + 978307200`.
    public static let referenceDateUnixSeconds: Int64 = 978_307_200

    /// What to add to a stored value to get seconds since 1970 (0 for ``secondsSince1970``).
    @inlinable
    public var unixEpochOffset: Int64 {
        switch self {
        case .secondsSince1970: return 0
        case .secondsSinceReferenceDate: return SQLiteDateFormat.referenceDateUnixSeconds
        }
    }

    /// A Date as stored in this format.
    @inlinable
    public func seconds(of date: Date) -> Double {
        switch self {
        case .secondsSince1970: return date.timeIntervalSince1970
        case .secondsSinceReferenceDate: return date.timeIntervalSinceReferenceDate
        }
    }

    /// The Date of seconds stored in this format.
    @inlinable
    public func date(seconds: Double) -> Date {
        switch self {
        case .secondsSince1970: return Date(timeIntervalSince1970: seconds)
        case .secondsSinceReferenceDate: return Date(timeIntervalSinceReferenceDate: seconds)
        }
    }

    /// A SQL expression of the UTC timestamp text (`YYYY-MM-DD HH:MM:SS.SSS`) of a column in this
    /// format, given its quoted name: `strftime('%Y-%m-%d %H:%M:%f', "col" + 978307200, 'unixepoch')`.
    public func timestampSQL(quotedColumn: String) -> String {
        "strftime('%Y-%m-%d %H:%M:%f', \(unixSecondsSQL(quotedColumn: quotedColumn)), 'unixepoch')"
    }

    /// A SQL expression of a column's value in this format as seconds since 1970, given its quoted
    /// name: `"col" + 978307200`.
    public func unixSecondsSQL(quotedColumn: String) -> String {
        unixEpochOffset == 0 ? quotedColumn : "\(quotedColumn) + \(unixEpochOffset)"
    }
}
