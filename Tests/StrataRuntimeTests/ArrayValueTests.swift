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
        ]
        for array in arrays {
            let text = try StrataJSONArray.text(of: array)
            let parsed = try StrataJSONParser.parse(text)
            #expect(try StrataJSONArray.array(parsed, of: array.kind, column: "c") == array, "\(text)")
        }
        #expect(try StrataJSONArray.text(of: .bools([true, false])) == "[true,false]")
        #expect(try StrataJSONArray.text(of: .strings(["a\"b"])) == #"["a\"b"]"#)
    }

    @Test func whatJSONCannotHoldOrAnotherTypeIsAnErrorNotACrash() throws {
        #expect(throws: StrataJSONArray.NotRepresentable.self) { try StrataJSONArray.text(of: .doubles([.nan])) }
        #expect(throws: StrataJSONArray.NotRepresentable.self) { try StrataJSONArray.text(of: .floats([.infinity])) }
        for (text, kind) in [("[1.5]", StrataArray.Kind.int), ("[70000]", .int16), ("[\"x\"]", .uuid), ("[1]", .string), ("{}", .string), ("[null]", .bool)] {
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
