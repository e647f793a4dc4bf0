import Foundation

/// Conversions between Swift values and their PostgreSQL storage, for the types whose storage
/// holds less than the Swift value.
///
/// A `TIMESTAMPTZ` holds whole microseconds (an `Int64` of microseconds since 2000-01-01 00:00:00
/// UTC on the wire), a `Date` a `Double` of seconds since 2001-01-01. The runtime binds a Date as
/// ``microseconds(of:)`` (rounded to the nearest microsecond, halves up) and reads one as
/// ``date(microseconds:)``, so in PostgreSQL `==` means: a Date reads back as
/// ``rounded(_:)`` of the Date written, and the records that insert, upsert and update return hold
/// that rounded Date, equal to what a fetch reads. Within about 136 years of 2001 (1865 to 2137),
/// where a `Double` still resolves microseconds, rounding a rounded Date changes nothing.
public enum PostgresStorage {
    /// Microseconds from PostgreSQL's epoch (2000-01-01) to Foundation's (2001-01-01): 366 days.
    public static let referenceDateMicroseconds: Int64 = 31_622_400_000_000

    /// The stored value of a Date: the nearest whole microsecond since 2000-01-01 00:00:00 UTC
    /// (PostgreSQL's binary `timestamptz`), halves rounded up. A Date beyond what an `Int64` of
    /// microseconds holds (or infinite) gives `Int64.max` or `Int64.min`, which PostgreSQL reads as
    /// `infinity` and `-infinity`; NaN gives `Int64.min`.
    public static func microseconds(of date: Date) -> Int64 {
        let seconds = date.timeIntervalSinceReferenceDate
        // Whole seconds and the fraction apart: `seconds * 1e6` would round before `rounded()` does.
        let whole = seconds.rounded(.down)
        let limit = 9_000_000_000_000.0  // seconds; 9e18 microseconds still fit an Int64
        guard seconds.isFinite, abs(whole) < limit else { return seconds > 0 ? Int64.max : Int64.min }
        let fraction = ((seconds - whole) * 1_000_000).rounded(.toNearestOrAwayFromZero)
        let sinceReference = Int64(whole) * 1_000_000 + Int64(fraction)
        let (value, overflow) = sinceReference.addingReportingOverflow(referenceDateMicroseconds)
        return overflow ? Int64.max : value
    }

    /// The Date of a stored value in microseconds since 2000-01-01 00:00:00 UTC: the `Double`
    /// nearest to the exact number of seconds since 2001-01-01.
    public static func date(microseconds: Int64) -> Date {
        let (sinceReference, overflow) = microseconds.subtractingReportingOverflow(referenceDateMicroseconds)
        guard !overflow else { return microseconds > 0 ? .distantFuture : .distantPast }
        // Exact below 2^53 microseconds (285 years from 2001): one rounding, in the division.
        return Date(timeIntervalSinceReferenceDate: Double(sinceReference) / 1_000_000)
    }

    /// A Date as PostgreSQL keeps it: `date(microseconds: microseconds(of: date))`. What the
    /// runtime returns for a Date it has written, so that the returned record equals a fetch.
    public static func rounded(_ date: Date) -> Date {
        self.date(microseconds: microseconds(of: date))
    }
}
