import Testing
import VouchJSON

@Suite struct JSONWriterTests {
    @Test(arguments: [
        (JSONValue.number(42), "42"), (.int(-7), "-7"), (.number(0), "0"), (.number(-0.0), "0"),
        (.int(1_614_265_330), "1614265330"), (.number(1.5), "1.5"), (.number(-0.25), "-0.25"),
        (.number(1e20), "1e+20"), (.null, "null"), (.bool(true), "true"), (.bool(false), "false"),
    ])
    func writesScalars(value: JSONValue, expected: String) {
        #expect(JSONWriter.string(value) == expected)
    }

    @Test func escapesStrings() {
        let text = "quote\" backslash\\ slash/ nl\n cr\r tab\t bell\u{07} nul\u{0} us\u{1F} del\u{7F} é😀"
        let expected = #""quote\" backslash\\ slash/ nl\n cr\r tab\t bell\u0007 nul\u0000 us\u001f del"# + "\u{7F} é😀\""
        #expect(JSONWriter.string(.string(text)) == expected)
    }

    @Test func writesStringIntoExistingBuffer() {
        var output = Array("x=".utf8)
        JSONWriter.writeString("a\"b", into: &output)
        #expect(String(decoding: output, as: UTF8.self) == #"x="a\"b""#)
    }

    private let sample: JSONValue = .object([
        "key": .string("tv-channel-selector-labels"),
        "value": .bool(true),
        "metadata": .object(["revision": .int(2), "state": .string("testing")]),
        "flags": .array([.int(1), .null, .array([])]),
        "empty": .object([:]),
    ])

    @Test func compactOutputHasNoSpaces() {
        #expect(JSONWriter.string(sample) == #"{"key":"tv-channel-selector-labels","value":true,"metadata":{"revision":2,"state":"testing"},"flags":[1,null,[]],"empty":{}}"#)
    }

    @Test func prettyOutputIndentsByTwoSpaces() {
        let expected = """
            {
              "key": "tv-channel-selector-labels",
              "value": true,
              "metadata": {
                "revision": 2,
                "state": "testing"
              },
              "flags": [
                1,
                null,
                []
              ],
              "empty": {}
            }
            """
        #expect(JSONWriter.string(sample, pretty: true) == expected)
    }

    @Test func bytesAndStringAgree() {
        #expect(JSONWriter.bytes(sample, pretty: true) == Array(JSONWriter.string(sample, pretty: true).utf8))
    }

    @Test(arguments: [
        #"{"key":"fix","value":false,"reason":"DISABLED","variant":"off","metadata":{"revision":1,"state":"draft"}}"#,
        #"[1,-2,3.25,1e+20,"\"\\\n\u0001","é😀",null,true,{}]"#,
        #"{"nested":[[[{"a":[]}]]]}"#,
    ])
    func compactTextRoundTrips(text: String) throws {
        #expect(JSONWriter.string(try JSONParser.parse(text)) == text)
    }

    @Test func everyControlCharacterRoundTrips() throws {
        let text = String(String.UnicodeScalarView((0..<0x20).compactMap(Unicode.Scalar.init)))
        let value = JSONValue.array([.string(text), .string("\u{D7FF}\u{E000}\u{10FFFF}")])
        #expect(try JSONParser.parse(JSONWriter.bytes(value)) == value)
        #expect(try JSONParser.parse(JSONWriter.bytes(value, pretty: true)) == value)
    }

    @Test func valuesRoundTrip() throws {
        #expect(try JSONParser.parse(JSONWriter.string(sample)) == sample)
        #expect(try JSONParser.parse(JSONWriter.string(sample, pretty: true)) == sample)
    }
}
