import Foundation
import StrataSQLite
import Testing

private struct Post {}

private enum Mood: String, StrataEnumColumnValue, StrataArrayElement {
    case calm, curious
    static var strataUnknownCase: Mood? { .calm }
}

private enum Strict: Int16, StrataEnumColumnValue, StrataArrayElement {
    case one = 1
}

/// Array fields in the runtime: the filters' SQL on each database (bound as a one-element array,
/// numbered among the other values), and SQLite's JSON text, written and read back.
@Suite("Array values")
struct ArrayValueTests {
    private let tags = StrataColumn<Post, [String]>(sql: .identifier("tags"))
    private let notes = StrataColumn<Post, [String]?>(sql: .identifier("notes"))
    private let moods = StrataColumn<Post, [Mood]>(sql: .column("moods", of: "p"))
    private let title = StrataColumn<Post, String>(sql: .identifier("title"))

    @Test func filtersAreWrittenByEachDialectAndBindAOneElementArray() {
        let filter = title == "a" && tags.contains("swift") && notes.isEmpty
        #expect(
            filter.sql.sql(SQLiteDialect.self)
                == #"(("title" = ?1) AND (EXISTS (SELECT 1 FROM json_each("tags") WHERE value IN (SELECT value FROM json_each(?2))))) AND (json_array_length("notes") = 0)"#
        )
        #expect(filter.arguments == [.text("a"), .array(.strings(["swift"]))])
        #expect(moods.contains(.curious).sql.sql(SQLiteDialect.self).contains(#"json_each("p"."moods")"#))
        #expect(moods.contains(.curious).arguments == [.array(.strings(["curious"]))], "an enum's raw value")
        #expect(notes.isNull.sql.sql(SQLiteDialect.self) == #""notes" IS NULL"#)
    }

    @Test func sqliteJSONTextRoundTripsEveryElementType() throws {
        let arrays: [StrataArray] = [
            .strings(["", "it's \"quoted\"", "back\\slash", "tab\tnew\nline\u{1}", "ünïcødé 🐦"]), .ints([Int.min, 0, Int.max]),
            .int64s([Int64.min]), .int32s([Int32.max, -1]), .int16s([Int16.min]), .doubles([0.1, -1e300, .leastNonzeroMagnitude]),
            .floats([0.1, 3.5]), .bools([true, false]), .uuids([UUID(), UUID()]), .strings([]),
            .dates([Date(timeIntervalSinceReferenceDate: 728_395_200.123456789), Date(timeIntervalSinceReferenceDate: -1e10), .distantPast]),
            .decimals([Decimal(string: "12345678901234567890.123456789012345678")!, Decimal(string: "-0.5")!, 0]),
            .data([Data([0, 0, 255]), Data(), Data("text".utf8)]), .dates([]),
        ]
        for array in arrays {
            let text = try StrataJSONArray.text(of: array)
            let parsed = try StrataJSONParser.parse(text)
            #expect(try StrataJSONArray.array(parsed, of: array.kind, column: "c") == array, "\(text)")
        }
        #expect(try StrataJSONArray.text(of: .bools([true, false])) == "[true,false]")
        #expect(try StrataJSONArray.text(of: .strings(["a\"b"])) == #"["a\"b"]"#)
        // A Date as the number its column stores (seconds since 2001), a Decimal and Data as strings.
        #expect(try StrataJSONArray.text(of: .dates([Date(timeIntervalSinceReferenceDate: 0.5)])) == "[0.5]")
        #expect(try StrataJSONArray.text(of: .decimals([Decimal(string: "1.50")!])) == #"["1.5"]"#)
        #expect(try StrataJSONArray.text(of: .data([Data([0, 1])])) == #"["AAE="]"#)
        #expect(try StrataJSONArray.array(StrataJSONParser.parse("[1,2.5]"), of: .date, column: "c")
            == .dates([Date(timeIntervalSinceReferenceDate: 1), Date(timeIntervalSinceReferenceDate: 2.5)]), "an integer is a Date too")
    }

    @Test func whatJSONCannotHoldOrAnotherTypeIsAnErrorNotACrash() throws {
        #expect(throws: StrataJSONArray.NotRepresentable.self) { try StrataJSONArray.text(of: .doubles([.nan])) }
        #expect(throws: StrataJSONArray.NotRepresentable.self) { try StrataJSONArray.text(of: .floats([.infinity])) }
        #expect(throws: StrataJSONArray.NotRepresentable.self) {
            try StrataJSONArray.text(of: .dates([Date(timeIntervalSinceReferenceDate: -.infinity)]))
        }
        #expect(throws: StrataJSONArray.NotRepresentable.self) { try StrataJSONArray.text(of: .decimals([1, .nan])) }
        let decimals = try StrataJSONParser.parse(#"["-12.50","1e-7","0","7E+3"]"#)
        #expect(try StrataJSONArray.array(decimals, of: .decimal, column: "c")
            == .decimals([Decimal(string: "-12.5")!, Decimal(string: "0.0000001")!, 0, 7000]))
        let wrong: [(String, StrataArray.Kind)] = [
            ("[1.5]", .int), ("[70000]", .int16), ("[\"x\"]", .uuid), ("[1]", .string), ("{}", .string), ("[null]", .bool),
            (#"["2024-01-31 12:00:00"]"#, .date), ("[1.5]", .decimal), (#"["1.5 EUR?"]"#, .decimal), (#"["x"]"#, .decimal), (#"["1.","-"]"#, .decimal), (#"[" 1"]"#, .decimal), (#"["NaN"]"#, .decimal), (#"["1234567890123456789012345678901234567891"]"#, .decimal),
            (#"["not base64!"]"#, .data), ("[[0,1]]", .data), ("[null]", .date),
        ]
        for (text, kind) in wrong {
            let parsed = try StrataJSONParser.parse(text)
            #expect(throws: StrataDecodingError.self, "\(text)") { try StrataJSONArray.array(parsed, of: kind, column: "c") }
        }
    }

    @Test func enumElementsReadTheirUnknownCaseOrThrow() throws {
        #expect(try Mood.strataElements(of: .strings(["curious", "gone"]), column: "c") == [.curious, .calm])
        #expect(throws: StrataDecodingError.unknownEnumValue(column: "c", type: "Strict", rawValue: "2")) {
            try Strict.strataElements(of: .int16s([1, 2]), column: "c")
        }
        #expect(throws: StrataDecodingError.self) { try Strict.strataElements(of: .strings(["1"]), column: "c") }
        #expect(Strict.strataArray([.one]) == .int16s([1]))
    }
}
