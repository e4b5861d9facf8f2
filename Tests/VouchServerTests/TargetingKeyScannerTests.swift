import Testing
@testable import VouchAPI
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

    /// The compact shape's quick path reads exactly what the token-by-token cursor reads, or leaves the body to it.
    @Test func theCompactPathAgreesWithTheCursor() {
        let head = Array(#"{"context":{"targetingKey":""#.utf8)
        let tail = Array(#""}}"#.utf8)
        var bodies: [[UInt8]] = (0...255).map { head + [UInt8($0)] + tail }
        for key in ["", "user-1", #"a"b"#, #"a\b"#, "jürgen", "x\u{7F}", #""}}"#, #"u"},"v":{"w":""#] {
            bodies.append(head + Array(key.utf8) + tail)
            bodies.append(head + Array(key.utf8) + tail + [0x20])
            bodies.append([0x20] + head + Array(key.utf8) + tail)
            bodies.append(head + Array(key.utf8) + Array(#"" }}"#.utf8))
        }
        bodies += [head, tail, head + tail.dropLast(), Array(head.dropLast()) + tail, []]
        var quick = 0
        for body in bodies {
            let (compact, spaced) = body.withUnsafeBufferPointer { (TargetingKeyScanner.compactKeyRange(in: $0), TargetingKeyScanner.spacedKeyRange(in: $0)) }
            if let compact {
                quick += 1
                #expect(compact == spaced, "body \(String(decoding: body, as: UTF8.self))")
            }
            #expect(TargetingKeyScanner.targetingKeyRange(in: body) == spaced)
        }
        // Every printable ASCII key byte but the quote and the backslash, and the two plain keys above, took the quick path.
        #expect(quick == 93 + 2)
    }
}
