import Foundation
import StrataStorage
import Testing

/// `SQLiteStorage.exactDecimal(text:)`: the Decimal of a number's text and nothing more, or nil
/// where `SQLiteStorage.decimal(text:)` would read a prefix or round digits away.
@Suite struct DecimalTextTests {
    @Test func numbersReadExactly() {
        let pairs = [
            ("19.99", "19.99"), ("19.990", "19.99"), ("-0.0000001", "-0.0000001"), ("007", "7"), ("-0.000", "0"),
            ("12345678901234567890.123456789012345678", "12345678901234567890.123456789012345678"),
            ("1e-7", "0.0000001"), ("7E+3", "7000"), ("100", "100"),
        ]
        for (text, description) in pairs {
            #expect(SQLiteStorage.exactDecimal(text: text)?.description == description, "\(text)")
        }
    }

    @Test func otherTextAndLostDigitsAreNil() {
        let huge = "1" + String(repeating: "0", count: 200)
        for text in ["", "-", "1.", ".5", "1.5 EUR", " 1", "1e", "NaN", "0x10", "1,5", "1234567890123456789012345678901234567891", huge, "0.\(huge)1"] {
            #expect(SQLiteStorage.exactDecimal(text: text) == nil, "\(text)")
        }
        #expect(SQLiteStorage.decimal(text: "1.5 EUR") == Decimal(string: "1.5"), "what a Decimal column reads")
    }
}
