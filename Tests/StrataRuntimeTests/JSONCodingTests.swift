import Foundation
import StrataRuntime
import Testing

/// JSON text is parsed and written by hand: every RFC 8259 form reads, hostile text is an error
/// (never a crash), and what is written reads back equal.
@Suite struct JSONCodingTests {
    @Test func parsesEveryKind() throws {
        let json = try StrataJSONParser.parse(#" { "a": [1, -2.5, 3e2, true, false, null], "b": "x\"\\\/\n\u00e9\ud83d\ude00", "c": {} } "#)
        let object = try json.object()
        #expect(object["a"] == .array([.integer(1), .double(-2.5), .double(300), .bool(true), .bool(false), .null]))
        #expect(object["b"] == .string("x\"\\/\né😀"))
        #expect(object["c"] == .object(StrataJSONObject()))
        #expect(object.members.map(\.key) == ["a", "b", "c"])
    }

    @Test(arguments: [
        "", "{", "[1,]", "{\"a\" 1}", "{\"a\":1,}", "01", "1.", "-", "tru", "\"abc", "\"\u{1}\"", "[1] 2", "\"\\x\"",
        "\"\\u12\"", "{1:2}", "nul", "1e999",
    ])
    func refusesInvalidText(text: String) {
        #expect(throws: StrataJSONError.self) { try StrataJSONParser.parse(text) }
    }

    @Test func deepNestingIsAnErrorNotACrash() {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(throws: StrataJSONError.self) { try StrataJSONParser.parse(deep) }
        let fine = String(repeating: "[", count: 200) + String(repeating: "]", count: 200)
        #expect(throws: Never.self) { try StrataJSONParser.parse(fine) }
    }

    @Test func writesAndReadsBack() throws {
        let texts = ["", "plain", "quote \" and \\ and /", "tab\tnew\nline\r\u{1}\u{1F}", "é😀", "\u{0}"]
        for text in texts {
            let written = StrataJSONWriter.text(of: text)
            #expect(try String(strataJSON: StrataJSONParser.parse(written)) == text)
        }
        #expect(StrataJSONWriter.text(of: "a\"b\n\u{1}") == #""a\"b\n\u0001""#)
        let numbers: [Double] = [0, -0.5, 1e-7, 123456789.125, .greatestFiniteMagnitude]
        for number in numbers {
            #expect(try Double(strataJSON: StrataJSONParser.parse(StrataJSONWriter.text(of: number))) == number)
        }
        #expect(StrataJSONWriter.text(of: Double.nan) == "null")
        #expect(try Int64(strataJSON: StrataJSONParser.parse(StrataJSONWriter.text(of: Int64.min))) == .min)
        #expect(StrataJSONWriter.text(of: [1, 2, 3] as [Int]) == "[1,2,3]")
        #expect(StrataJSONWriter.text(of: [[String]]([["a"], []])) == #"[["a"],[]]"#)
    }

    @Test func objectsLeaveOutNilMembers() {
        var writer = StrataJSONWriter()
        writer.object { json in
            json.member("a", 1 as Int)
            json.member("b", String?.none)
            json.member("c", ["x"] as [String])
            json.member("d", Bool?.some(true))
        }
        #expect(writer.text == #"{"a":1,"c":["x"],"d":true}"#)
    }

    @Test func typedReadsSayWhatIsWrong() throws {
        let object = try StrataJSONParser.parse(#"{"n": 1.5, "s": "x", "big": 70000, "list": [1, "two"]}"#).object()
        #expect(throws: StrataJSONError.mismatch(expected: "an Int", found: "1.5", path: ["n"])) { try object.decode("n", as: Int.self) }
        #expect(throws: StrataJSONError.missingKey(["gone"])) { try object.decode("gone", as: String.self) }
        #expect(try object.decode("gone", as: String?.self) == nil)
        #expect(try object.decode("gone", default: 12) == 12)
        #expect(throws: StrataJSONError.mismatch(expected: "an Int16", found: "70000", path: ["big"])) { try object.decode("big", as: Int16.self) }
        #expect(throws: StrataJSONError.mismatch(expected: "an Int", found: "a string", path: ["list", "1"])) { try object.decode("list", as: [Int].self) }
        #expect(try object.decode("n", as: Float.self) == 1.5)
    }

    @Test func datesURLsAndUUIDsAreStrings() throws {
        let date = Date(timeIntervalSince1970: 1_700_000_000.25)
        #expect(StrataJSONWriter.text(of: date) == #""2023-11-14 22:13:20.250""#)
        #expect(try Date(strataJSON: StrataJSONParser.parse(StrataJSONWriter.text(of: date))) == date)
        let url = try #require(URL(string: "https://example.com/a?b=c"))
        #expect(try URL(strataJSON: StrataJSONParser.parse(StrataJSONWriter.text(of: url))) == url)
        let uuid = UUID()
        #expect(try UUID(strataJSON: StrataJSONParser.parse(StrataJSONWriter.text(of: uuid))) == uuid)
        #expect(throws: StrataJSONError.self) { try UUID(strataJSON: .string("nope")) }
    }
}
