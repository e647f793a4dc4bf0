import Foundation
import StrataCore
import Testing

/// `Decimal` defaults in generated Swift are exact, non-failable expressions
/// (`SwiftNames.decimalLiteral`) equal to the `Decimal(string: text)!` they replace.
@Suite struct SwiftDecimalLiteralTests {
    /// A default's text, the expression generated for it, and the value of that very expression
    /// written here as Swift (so that the compiler reads what the generator writes).
    static let cases: [(text: String, spelling: String, value: Decimal)] = [
        ("0", "0", 0),
        ("0.00", "0", 0),
        ("-0", "0", 0),
        ("+3", "3", 3),
        ("-12", "-12", -12),
        ("1.5", "Decimal(sign: .plus, exponent: -1, significand: 15)", Decimal(sign: .plus, exponent: -1, significand: 15)),
        ("12.50", "Decimal(sign: .plus, exponent: -1, significand: 125)", Decimal(sign: .plus, exponent: -1, significand: 125)),
        ("-0.001", "Decimal(sign: .minus, exponent: -3, significand: 1)", Decimal(sign: .minus, exponent: -3, significand: 1)),
        ("1500", "1500", 1500),
        ("123456789012345678", "123_456_789_012_345_678", 123_456_789_012_345_678),
        (
            "9223372036854775808", "Decimal(sign: .plus, exponent: 0, significand: Decimal(sign: .plus, exponent: 18, significand: 9) + 223_372_036_854_775_808)",
            Decimal(sign: .plus, exponent: 0, significand: Decimal(sign: .plus, exponent: 18, significand: 9) + 223_372_036_854_775_808)
        ),
        ("1000000000000000000000000", "Decimal(sign: .plus, exponent: 24, significand: 1)", Decimal(sign: .plus, exponent: 24, significand: 1)),
        (
            "-123456789012345678901234567890.12",
            "Decimal(sign: .minus, exponent: -2, significand: Decimal(sign: .plus, exponent: 18, significand: 12_345_678_901_234) + 567_890_123_456_789_012)",
            Decimal(sign: .minus, exponent: -2, significand: Decimal(sign: .plus, exponent: 18, significand: 12_345_678_901_234) + 567_890_123_456_789_012)
        ),
        (
            "99999999999999999999999999999999999999",
            "Decimal(sign: .plus, exponent: 0, significand: Decimal(sign: .plus, exponent: 18, significand: Decimal(sign: .plus, exponent: 18, significand: 99) + 999_999_999_999_999_999) + 999_999_999_999_999_999)",
            Decimal(sign: .plus, exponent: 0, significand: Decimal(sign: .plus, exponent: 18, significand: Decimal(sign: .plus, exponent: 18, significand: 99) + 999_999_999_999_999_999) + 999_999_999_999_999_999)
        ),
    ]

    @Test func spellingsAreExactAndEqualToTheParsedText() throws {
        for (text, spelling, value) in Self.cases {
            #expect(SwiftNames.decimalLiteral(text) == spelling, "\(text)")
            let parsed = try #require(Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")), "\(text)")
            #expect(value == parsed, "\(text)")
            #expect(value.description == parsed.description, "\(text)")
        }
    }
}
