import Testing
import VouchOIDC

@Suite struct Base64URLTests {
    // RFC 4648 §10's vectors, in the URL alphabet without padding.
    @Test(arguments: [("", ""), ("f", "Zg"), ("fo", "Zm8"), ("foo", "Zm9v"), ("foob", "Zm9vYg"), ("fooba", "Zm9vYmE"), ("foobar", "Zm9vYmFy")])
    func rfc4648Vectors(plain: String, encoded: String) {
        #expect(Base64URL.encode(Array(plain.utf8)) == encoded)
        #expect(Base64URL.decode(encoded) == Array(plain.utf8))
    }

    @Test func theURLAlphabetIsUsed() {
        #expect(Base64URL.encode([0xFB, 0xFF]) == "-_8")
        #expect(Base64URL.decode("-_8") == [0xFB, 0xFF])
    }

    @Test(arguments: ["Zg==", "+/8", "Zm9v\n", "Z", "Zh", "Zm9"])
    func otherSpellingsAreRefused(text: String) {
        // Padding, the standard alphabet, white space, a lone character, and non-zero spare bits ("Zh", "Zm9").
        #expect(Base64URL.decode(text) == nil)
    }

    @Test func everyByteRoundTrips() {
        let bytes = (0..<256).map { UInt8($0) }
        for length in 0...bytes.count { #expect(Base64URL.decode(Base64URL.encode(Array(bytes.prefix(length)))) == Array(bytes.prefix(length))) }
    }
}
