import ArgumentParser
import Foundation

/// A duration given on the command line: a number with a unit, `300ms`, `2s`, `5m`, `1h`, or a
/// bare number of seconds (`5`), as PostgreSQL's own settings take them.
package struct DurationArgument: ExpressibleByArgument, Sendable, Equatable, CustomStringConvertible {
    /// The duration.
    package var duration: Duration
    /// The text it was given as.
    package var description: String

    /// Parses `300ms`, `2s`, `1.5s`, `5m`, `1h` or `5` (seconds); nil for anything else.
    package init?(argument: String) {
        let text = argument.trimmingCharacters(in: .whitespaces)
        let units: [(suffix: String, seconds: Double)] = [("ms", 0.001), ("s", 1), ("min", 60), ("m", 60), ("h", 3600)]
        let unit = units.first { text.hasSuffix($0.suffix) && Double(text.dropLast($0.suffix.count)) != nil }
        guard let value = Double(unit.map { String(text.dropLast($0.suffix.count)) } ?? text), value.isFinite else {
            return nil
        }
        duration = .milliseconds(Int64((value * (unit?.seconds ?? 1) * 1000).rounded()))
        description = text
    }

    /// The duration of `milliseconds`, written as such.
    package init(milliseconds: Int64) {
        duration = .milliseconds(milliseconds)
        description = milliseconds % 1000 == 0 ? "\(milliseconds / 1000)s" : "\(milliseconds)ms"
    }

    /// Throws a ValidationError naming `option` unless the duration is from 0 to 24 hours.
    package func check(_ option: String) throws {
        guard (Duration.zero...Duration.seconds(86_400)).contains(duration) else {
            throw ValidationError("\(option) must be from 0 to 24h, not \(description)")
        }
    }
}
