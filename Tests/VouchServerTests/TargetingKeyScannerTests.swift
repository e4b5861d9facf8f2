import Testing
import VouchJSON
@testable import VouchServer

/// The scanner takes only the plain body shape and leaves everything else to the full parser, which decides
/// every other answer and its words.
struct TargetingKeyScannerTests {
    @Test(arguments: [
        (#"{"context":{"targetingKey":"user-1"}}"#, "user-1"),
        (" {\n\t\"context\" : { \"targetingKey\" :\r\n \"a b/c~\" } } ", "a b/c~"),
        (#"{"context":{"targetingKey":""}}"#, ""),
    ])
    func readsThePlainShape(body: String, key: String) throws {
        #expect(TargetingKeyScanner.targetingKey(in: Array(body.utf8)) == key)
        // The full parser reads the same key from the same bytes.
        let parsed = try JSONParser.parse(body)
        #expect(parsed["context"]?["targetingKey"]?.stringValue == key)
    }

    @Test(arguments: [
        #"{"context":{"targetingKey":"user\u002d1"}}"#, // an escape
        #"{"context":{"targetingKey":"user\"1"}}"#,
        #"{"context":{"targetingKey":"jürgen"}}"#, // not ASCII: the parser checks the UTF-8
        #"{"context":{"targetingKey":42}}"#,
        #"{"context":{"targetingKey":null}}"#,
        #"{"context":{"targetingKey":"u","plan":"pro"}}"#, // another member
        #"{"context":{"plan":"pro","targetingKey":"u"}}"#,
        #"{"context":{"targetingKey":"u"},"flags":[]}"#,
        #"{"context":{"targetingKey":"u","targetingKey":"v"}}"#, // a repeated name is the parser's error
        #"{"context":{"targetingKey":"u"}}}"#, // text after the value
        #"{"context":{"targetingKey":"u"}"#, // cut short
        #"{"context":{"targetingKey":"u"#,
        #"{"context":{}}"#,
        #"{"context":"u"}"#,
        #"{"Context":{"targetingKey":"u"}}"#,
        "{\"context\":{\"targetingKey\":\"u\u{7F}\"}}", // DEL is left to the parser
        "{\"context\":{\"targetingKey\":\"u\tv\"}}", // a control character inside the string
        "\u{FEFF}{\"context\":{\"targetingKey\":\"u\"}}",
        "",
    ])
    func leavesEverythingElseToTheParser(body: String) {
        #expect(TargetingKeyScanner.targetingKey(in: Array(body.utf8)) == nil)
    }
}
