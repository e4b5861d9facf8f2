import Testing
import VouchJSON

@Suite struct JSONParserTests {
    @Test(arguments: [
        ("null", JSONValue.null), ("true", .bool(true)), ("false", .bool(false)),
        ("0", .number(0)), ("-0", .number(0)), ("42", .number(42)), ("-1.5", .number(-1.5)),
        ("123456789012345", .number(123_456_789_012_345)), ("-99999999999999", .number(-99_999_999_999_999)),
        ("12345678901234567890", .number(1.2345678901234567e19)), ("[7,-8]", .array([.number(7), .number(-8)])),
        ("1e3", .number(1_000)), ("2.5E-1", .number(0.25)), ("1E+2", .number(100)),
        ("\"\"", .string("")), ("\"vouch\"", .string("vouch")), ("[]", .array([])), ("{}", .object([:])),
        (" \t\r\n[ 1 , \"a\" ]\n", .array([.number(1), .string("a")])),
    ])
    func parsesValues(text: String, expected: JSONValue) throws {
        #expect(try JSONParser.parse(text) == expected)
    }

    @Test func keepsMemberOrderAndNesting() throws {
        let value = try JSONParser.parse(#"{"b": 1, "a": {"c": [true, null, {"d": "e"}]}}"#)
        let object = try #require(value.objectValue)
        #expect(object.keys == ["b", "a"])
        #expect(value["a"]?["c"]?.arrayValue?[2]["d"]?.stringValue == "e")
    }

    @Test func parsesBytes() throws {
        #expect(try JSONParser.parse(Array(#"{"context":{"targetingKey":"user-1"}}"#.utf8))["context"]?["targetingKey"] == .string("user-1"))
    }

    @Test(arguments: [
        (#""\"\\\/\b\f\n\r\t""#, "\"\\/\u{08}\u{0C}\n\r\t"),
        (#""\u0041\u00e9\u20AC""#, "Aé€"),
        (#""\u0000""#, "\u{0}"),
        (#""\uD83D\uDE00""#, "😀"),
        (#""\ud83c\udf0d and \uD834\uDD1E""#, "🌍 and 𝄞"),
        (#""a\u0022b""#, "a\"b"),
        ("\"日本語 😀 as raw UTF-8\"", "日本語 😀 as raw UTF-8"),
        ("\"\u{7F}\"", "\u{7F}"),
    ])
    func decodesEscapesAndUnicode(text: String, expected: String) throws {
        #expect(try JSONParser.parse(text) == .string(expected))
    }

    @Test(arguments: [
        // Trailing text.
        "{} x", "1 2", "[1],", "nullnull", "\"a\"\"b\"",
        // Duplicate keys, also when spelled differently.
        #"{"a": 1, "a": 2}"#, #"{"a": 1, "\u0061": 2}"#, #"{"x": {"a": 1, "b": 2, "a": 3}}"#,
        // Control characters in strings.
        "\"a\u{01}b\"", "\"line\nbreak\"", "\"tab\there\"", "\"\\n then \u{1F}\"",
        // Bad escapes.
        #""\x""#, #""\'""#, #""\u12G4""#, #""\u12""#, #""\U0041""#, #""\uD83D""#, #""\uDE00""#, #""\uD83D\u0041""#, #""\uD83Dx""#,
        // Unterminated input.
        "\"abc", "\"abc\\", "[1, 2", "{\"a\": 1", "{\"a\"", "{\"a\":", "[", "{", "",
        // Numbers that RFC 8259 does not allow.
        "01", "00", "-01", "[01]", "1.", ".5", "-", "+1", "1e", "1e+", "0x10", "1e400", "NaN", "Infinity",
        // Other malformed text.
        "   ", "tru", "nul", "True", "[1,]", #"{"a": 1,}"#, "{a: 1}", "{'a': 1}", "[1 2]", #"{"a" 1}"#, "[,1]",
    ])
    func rejects(text: String) throws {
        let error = try #require(throws: JSONParseError.self) { try JSONParser.parse(text) }
        #expect(error.description.hasPrefix("invalid JSON at byte \(error.offset): "))
        #expect((0...text.utf8.count).contains(error.offset))
    }

    @Test(arguments: [
        [0x22, 0xFF, 0x22],
        [0x22, 0xC0, 0xAF, 0x22],
        [0x22, 0xE6, 0x97, 0x22],
        [0x22, 0xED, 0xA0, 0x80, 0x22],
        [0x22, 0x5C, 0x6E, 0xFF, 0x22],
        [0x7B, 0x22, 0xFE, 0x22, 0x3A, 0x31, 0x7D],
    ] as [[UInt8]])
    func rejectsInvalidUTF8(bytes: [UInt8]) throws {
        let error = try #require(throws: JSONParseError.self) { try JSONParser.parse(bytes) }
        #expect(error.reason.contains("UTF-8"))
    }

    @Test func errorsPointAtTheProblem() throws {
        let trailing = try #require(throws: JSONParseError.self) { try JSONParser.parse("{} x") }
        #expect(trailing.offset == 3)
        let comma = try #require(throws: JSONParseError.self) { try JSONParser.parse("[1,]") }
        #expect(comma.offset == 3)
        let duplicate = try #require(throws: JSONParseError.self) { try JSONParser.parse(#"{"a":1,"a":2}"#) }
        #expect(duplicate.reason.contains("'a' appears twice"))
        #expect(duplicate.offset == 7, "points at the second 'a'")
        let control = try #require(throws: JSONParseError.self) { try JSONParser.parse("\"ab\u{01}\"") }
        #expect(control.offset == 3)
    }

    private func nested(_ depth: Int, open: String, close: String, inner: String = "0") -> String {
        String(repeating: open, count: depth) + inner + String(repeating: close, count: depth)
    }

    @Test func acceptsSixtyFourLevels() throws {
        #expect(throws: Never.self) { try JSONParser.parse(nested(64, open: "[", close: "]")) }
        #expect(throws: Never.self) { try JSONParser.parse(nested(64, open: #"{"a":"#, close: "}")) }
        #expect(throws: Never.self) { try JSONParser.parse(nested(32, open: "[{\"a\":", close: "}]")) }
    }

    @Test func refusesSixtyFiveLevels() throws {
        for text in [nested(65, open: "[", close: "]"), nested(65, open: #"{"a":"#, close: "}"), nested(100_000, open: "[", close: "]")] {
            let error = try #require(throws: JSONParseError.self) { try JSONParser.parse(text) }
            #expect(error.reason == "nested deeper than 64 levels")
        }
    }

    @Test func depthCountsNestingNotContainers() throws {
        let deepSibling = nested(63, open: "[", close: "]")
        let text = "[" + Array(repeating: deepSibling, count: 3).joined(separator: ",") + "]"
        #expect(throws: Never.self) { try JSONParser.parse(text) }
    }
}

@Suite struct JSONParserLargeObjectTests {
    private func object(members count: Int, last: String? = nil) -> String {
        let members = (0..<count).map { #""m\#($0)":\#($0)"# } + (last.map { [$0] } ?? [])
        return "{" + members.joined(separator: ",") + "}"
    }

    @Test func findsEveryMemberOfALargeObject() throws {
        let value = try JSONParser.parse(object(members: 6_400))
        let parsed = try #require(value.objectValue)
        #expect(parsed.keys.count == 6_400)
        for number in 0..<6_400 { #expect(parsed["m\(number)"] == .int(number)) }
    }

    @Test func refusesARepeatedNameAtTheEndOfALargeObject() throws {
        let error = try #require(throws: JSONParseError.self) { try JSONParser.parse(object(members: 6_400, last: #""m17":0"#)) }
        #expect(error.reason == "member 'm17' appears twice")
    }

    @Test func cutsALongRepeatedNameShortInTheMessage() throws {
        let name = String(repeating: "n", count: 5_000)
        let error = try #require(throws: JSONParseError.self) { try JSONParser.parse(#"{"\#(name)":1,"\#(name)":2}"#) }
        #expect(error.reason == "member '\(String(repeating: "n", count: 64))…' appears twice")
    }
}
