import Foundation

/// Dates for the round-trip tests of every database: the 200 of issue 16 (about half of which read
/// back unequal when stored as seconds since 1970), then deterministic pseudo-random ones over
/// ±300 years with every kind of fraction, dates before 1970 and 2001, large and tiny magnitudes,
/// sub-microsecond fractions and neighbours one ulp apart.
public enum DateSamples {
    /// The dates of issue 16: `785_000_000 + k * 0.123456789` seconds since 2001, k in 0..<200.
    public static let issue: [Date] = (0..<200).map { Date(timeIntervalSinceReferenceDate: 785_000_000 + Double($0) * 0.123456789) }

    /// Hand-picked edges: the epochs, their neighbours, large values, sub-microsecond fractions.
    public static let edges: [Date] = [
        0, -0.0, 1e-9, -1e-9, 0.5e-6, 1.5e-6, -0.5e-6, 0.123456789012, -978_307_200, -978_307_200.000_000_1,
        -978_307_199.999_999_9, -31_622_400, -1e10, 1e10, -6.3e10, 6.3e10, 1e12, -1e12, 4_102_444_800.25,
        Date().timeIntervalSinceReferenceDate, 785_000_000.000_000_1, 785_000_000.999_999_9, 1234.567_890_123_4,
        (785_000_000.0).nextUp, (785_000_000.0).nextDown, (-978_307_200.0).nextUp, Double(Int32.max), -Double(Int32.max),
    ].map { Date(timeIntervalSinceReferenceDate: $0) }

    /// `count` pseudo-random dates (a fixed seed): seconds within ±300 years of 2001, half of them
    /// with a random fraction of a second, a quarter with a microsecond fraction, a quarter whole.
    public static func random(_ count: Int) -> [Date] {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 11
        }
        let span = 300.0 * 365.25 * 86_400
        return (0..<count).map { index in
            let whole = (Double(next() % 1_000_000_000) / 1_000_000_000 * 2 - 1) * span
            let fraction = Double(next()) / Double(1 << 53)
            switch index % 4 {
            case 0, 1: return Date(timeIntervalSinceReferenceDate: whole + fraction)
            case 2: return Date(timeIntervalSinceReferenceDate: whole.rounded(.down) + (fraction * 1e6).rounded() / 1e6)
            default: return Date(timeIntervalSinceReferenceDate: whole.rounded(.down))
            }
        }
    }

    /// The issue's dates, the edges and pseudo-random ones: 10,228 in all.
    public static let all: [Date] = issue + edges + random(10_000)
}
