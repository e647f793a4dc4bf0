import Foundation

/// Number formatting for the report.
enum Format {
    /// `1,000` for 1000.
    static func count(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var out = ""
        for (offset, character) in digits.enumerated() {
            if offset > 0 && (digits.count - offset) % 3 == 0 { out.append(",") }
            out.append(character)
        }
        return value < 0 ? "-" + out : out
    }

    /// `12.3 MB` (decimal units, as `ls -h --si`).
    static func bytes(_ value: Int) -> String {
        let bytes = Double(value)
        if bytes >= 1e9 { return String(format: "%.2f GB", bytes / 1e9) }
        if bytes >= 1e6 { return String(format: "%.1f MB", bytes / 1e6) }
        if bytes >= 1e3 { return String(format: "%.1f kB", bytes / 1e3) }
        return "\(value) B"
    }

    /// A value in its unit: `812.4 ms`, `1.93 s`, `48.2 MB`, `10.3x`.
    static func value(_ value: Double, _ unit: Figure.Unit) -> String {
        switch unit {
        case .seconds:
            if value >= 10 { return String(format: "%.1f s", value) }
            if value >= 1 { return String(format: "%.2f s", value) }
            if value >= 0.01 { return String(format: "%.1f ms", value * 1e3) }
            return String(format: "%.2f ms", value * 1e3)
        case .bytes:
            return bytes(Int(value.rounded()))
        case .factor:
            return String(format: "%.2fx", value)
        }
    }

    /// `1.07x`.
    static func ratio(_ value: Double) -> String {
        String(format: "%.2fx", value)
    }
}
