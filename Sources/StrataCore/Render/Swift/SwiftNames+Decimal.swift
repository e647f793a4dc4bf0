extension SwiftNames {
    /// A Swift expression for the `Decimal` a decimal literal's text (``DecimalLiteral``: a sign,
    /// digits, an optional fraction) reads as with `Decimal(string:)`, exact and not failable: an
    /// integer literal for a whole number that fits in `Int` (`0`, `-12`), otherwise
    /// `Decimal(sign:exponent:significand:)` (`12.5` is `Decimal(sign: .plus, exponent: -1,
    /// significand: 125)`). A significand too long for `Int` is a sum of parts of 18 digits each.
    public static func decimalLiteral(_ text: String) -> String {
        var digits = Substring(text)
        var isNegative = false
        if let first = digits.first, first == "-" || first == "+" {
            isNegative = first == "-"
            digits.removeFirst()
        }
        let parts = digits.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        var significand = String(parts[0]) + (parts.count > 1 ? String(parts[1]) : "")
        var exponent = -(parts.count > 1 ? parts[1].count : 0)
        // As Decimal(string:) stores it, without trailing zeros: `12.50` is 125 x 10^-1.
        while significand.count > 1, significand.hasSuffix("0") {
            significand.removeLast()
            exponent += 1
        }
        significand = String(significand.drop { $0 == "0" })
        if significand.isEmpty { return "0" }
        if exponent >= 0, significand.count + exponent <= 18,
            let value = Int64(significand + String(repeating: "0", count: exponent))
        {
            return integerLiteral(isNegative ? -value : value)
        }
        let sign = isNegative ? ".minus" : ".plus"
        return "Decimal(sign: \(sign), exponent: \(exponent), significand: \(decimalSignificand(Substring(significand))))"
    }

    /// A non-negative integer of any length as a `Decimal` expression: an integer literal up to 18
    /// digits, otherwise its leading digits scaled past the last 18, plus those.
    private static func decimalSignificand(_ digits: Substring) -> String {
        guard digits.count > 18 else { return integerLiteral(Int64(digits) ?? 0) }
        let high = digits.dropLast(18)
        let low = digits.suffix(18).drop { $0 == "0" }
        let scaled = "Decimal(sign: .plus, exponent: 18, significand: \(decimalSignificand(high)))"
        return low.isEmpty ? scaled : "\(scaled) + \(integerLiteral(Int64(low) ?? 0))"
    }
}
