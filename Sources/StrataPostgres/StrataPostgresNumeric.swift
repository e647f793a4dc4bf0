import Foundation
import PostgresNIO
import StrataRuntime

/// A Decimal in a `NUMERIC` column or an element of a `NUMERIC[]`: bound as PostgresNIO binds a
/// Decimal, and read from the binary `NUMERIC` by hand (text as PostgresNIO reads it). A stored
/// value no Decimal equals (`NaN`, an infinity, more significant digits than a Decimal's 128-bit
/// mantissa holds, a magnitude past its range) is an error, where PostgresNIO's Decimal decoding
/// reads `NaN` as 0, rounds digits away, or stops the process. Decimal's NaN, which `NUMERIC`'s
/// binary coding has no form for (PostgresNIO's encoding stops the process), is an error to bind.
struct StrataPostgresNumeric: PostgresArrayEncodable, PostgresArrayDecodable, Sendable {
    let decimal: Decimal

    init(_ decimal: Decimal) { self.decimal = decimal }

    /// A Decimal that is NaN, being bound.
    struct NotANumber: Error, CustomStringConvertible {
        var description: String {
            "Decimal.nan has no NUMERIC form in PostgreSQL's binary coding: Decimal fields hold numbers"
        }
    }

    static var psqlType: PostgresDataType { .numeric }
    static var psqlFormat: PostgresFormat { .binary }
    static var psqlArrayType: PostgresDataType { .numericArray }

    func encode<JSONEncoder: PostgresJSONEncoder>(
        into byteBuffer: inout ByteBuffer, context: PostgresEncodingContext<JSONEncoder>
    ) throws {
        guard !decimal.isNaN else { throw NotANumber() }
        decimal.encode(into: &byteBuffer, context: context)
    }

    init<JSONDecoder: PostgresJSONDecoder>(
        from buffer: inout ByteBuffer, type: PostgresDataType, format: PostgresFormat,
        context: PostgresDecodingContext<JSONDecoder>
    ) throws {
        if format == .text {
            decimal = try Decimal(from: &buffer, type: type, format: format, context: context)
            return
        }
        guard type == .numeric,
            let (count, weight, sign, _) = buffer.readMultipleIntegers(
                endianness: .big, as: (Int16, Int16, UInt16, Int16).self),
            count >= 0, sign == 0 || sign == 0x4000, buffer.readableBytes == Int(count) * 2
        else {
            throw PostgresDecodingError.Code.failure
        }
        var groups: [Int16] = []
        groups.reserveCapacity(Int(count))
        while let group = buffer.readInteger(endianness: .big, as: Int16.self) { groups.append(group) }
        // No digit rounded away (``SQLiteStorage/exactDecimal(text:)``).
        guard let text = Self.text(groups: groups, weight: Int(weight), isNegative: sign == 0x4000),
            let decimal = SQLiteStorage.exactDecimal(text: text)
        else {
            throw PostgresDecodingError.Code.failure
        }
        self.decimal = decimal
    }

    /// The text of a binary `NUMERIC` (base-10000 digit groups, the first `weight` groups from
    /// the point), without leading or trailing zeros, as a Decimal's `description` writes it;
    /// nil for a group that is no base-10000 digit.
    static func text(groups: [Int16], weight: Int, isNegative: Bool) -> String? {
        guard groups.allSatisfy({ (0..<10_000).contains($0) }) else { return nil }
        var digits = ""
        let leading = max(0, -(weight + 1))
        digits += String(repeating: "0000", count: leading)
        for group in groups {
            let text = String(group)
            digits += String(repeating: "0", count: 4 - text.count) + text
        }
        let point = max(0, (weight + 1) * 4)
        if digits.count < point { digits += String(repeating: "0", count: point - digits.count) }
        var integer = digits.prefix(point).drop { $0 == "0" }
        var fraction = digits.dropFirst(point)
        while fraction.last == "0" { fraction = fraction.dropLast() }
        if integer.isEmpty { integer = "0" }
        let number = fraction.isEmpty ? String(integer) : integer + "." + fraction
        return isNegative && number != "0" ? "-" + number : number
    }
}
