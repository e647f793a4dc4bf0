import Foundation

extension SQLiteStorage {
    /// The Decimal whose value `text` writes exactly: a number and nothing more (`-12.50`,
    /// `0.0000001`, `1e-7`), which a Decimal holds without rounding a digit away; nil for other
    /// text (`1.5 EUR`, `NaN`), and for more significant digits than a Decimal's 128-bit mantissa
    /// holds. What array elements are read with, where ``decimal(text:)`` would read a number's
    /// prefix or round.
    public static func exactDecimal(text: String) -> Decimal? {
        guard let number = DecimalText(text), let decimal = decimal(text: text) else { return nil }
        // Without an exponent, the Decimal must write the same digits back.
        if number.hasExponent { return decimal }
        return SQLiteStorage.text(of: decimal) == number.canonical ? decimal : nil
    }
}

/// The parts of a number's text: an optional `-`, digits, optionally `.` and digits, optionally
/// `e`/`E`, a sign and digits.
struct DecimalText {
    /// True for text with an exponent.
    var hasExponent: Bool
    /// The number as a Decimal's `description` writes it: no leading zero before the point but
    /// one, no trailing zero after it, no point without digits after it, `0` for zero.
    var canonical: String

    init?(_ text: String) {
        var bytes = text.utf8[...]
        func digits() -> Substring.UTF8View? {
            let run = bytes.prefix { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
            bytes = bytes.dropFirst(run.count)
            return run.isEmpty ? nil : run
        }
        let isNegative = bytes.first == UInt8(ascii: "-")
        if isNegative { bytes = bytes.dropFirst() }
        guard let integer = digits() else { return nil }
        var fraction = bytes.prefix(0)
        if bytes.first == UInt8(ascii: ".") {
            bytes = bytes.dropFirst()
            guard let digits = digits() else { return nil }
            fraction = digits
        }
        hasExponent = bytes.first == UInt8(ascii: "e") || bytes.first == UInt8(ascii: "E")
        if hasExponent {
            bytes = bytes.dropFirst()
            if bytes.first == UInt8(ascii: "+") || bytes.first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
            guard digits() != nil else { return nil }
        }
        guard bytes.isEmpty else { return nil }
        let whole = String(decoding: integer.drop { $0 == UInt8(ascii: "0") }, as: UTF8.self)
        var decimals = Substring(decoding: fraction, as: UTF8.self)
        while decimals.last == "0" { decimals = decimals.dropLast() }
        let number = (whole.isEmpty ? "0" : whole) + (decimals.isEmpty ? "" : "." + decimals)
        canonical = isNegative && number != "0" ? "-" + number : number
    }
}
