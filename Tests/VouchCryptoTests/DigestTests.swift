import Foundation
import Testing
import VouchCrypto

/// `standard-webhooks-vectors.json`, read beside this file so it works with or without a resource declaration.
private struct Vectors: Decodable {
    struct Webhook: Decodable {
        var secret: String
        var webhookID: String
        var webhookTimestamp: Int
        var body: String
        var webhookSignature: String

        enum CodingKeys: String, CodingKey {
            case secret, body
            case webhookID = "webhook_id"
            case webhookTimestamp = "webhook_timestamp"
            case webhookSignature = "webhook_signature"
        }
    }

    struct HMACCase: Decodable {
        var keyASCII: String
        var dataASCII: String
        var hex: String

        enum CodingKeys: String, CodingKey {
            case hex
            case keyASCII = "key_ascii"
            case dataASCII = "data_ascii"
        }
    }

    var vectors: [Webhook]
    var rfc4231Case2: HMACCase

    enum CodingKeys: String, CodingKey {
        case vectors
        case rfc4231Case2 = "hmac_sha256_rfc4231_case2"
    }

    static func load(from source: String = #filePath) throws -> Vectors {
        let url = URL(fileURLWithPath: source).deletingLastPathComponent().appendingPathComponent("standard-webhooks-vectors.json")
        return try JSONDecoder().decode(Vectors.self, from: Data(contentsOf: url))
    }
}

@Suite struct DigestTests {
    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
    ])
    func sha256KnownAnswers(text: String, hex: String) {
        #expect(Digest.hex(Digest.sha256(text)) == hex)
        #expect(Digest.hex(Digest.sha256(Array(text.utf8))) == hex)
        #expect(Digest.hex(Digest.sha256(Data(text.utf8))) == hex)
    }

    @Test func constantTimeEqualityAgreesWithEquality() {
        let secret = Array("vch_0123456789abcdefghijklmnopqrstuvwxyzABCD".utf8)
        #expect(Digest.constantTimeEquals(secret, secret))
        #expect(Digest.constantTimeEquals([], []))
        // A difference in the first byte, the last byte, or the length.
        var first = secret
        first[0] ^= 1
        var last = secret
        last[last.count - 1] ^= 0x80
        #expect(!Digest.constantTimeEquals(secret, first))
        #expect(!Digest.constantTimeEquals(secret, last))
        #expect(!Digest.constantTimeEquals(secret, Array(secret.dropLast())))
        #expect(!Digest.constantTimeEquals(secret, []))
    }

    @Test func sha256OfAMillionAs() {
        let input = [UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)
        #expect(Digest.hex(Digest.sha256(input)) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test func hmacRFC4231Case2FromVectorsFile() throws {
        let vector = try Vectors.load().rfc4231Case2
        let mac = Digest.hmacSHA256(key: Array(vector.keyASCII.utf8), message: Array(vector.dataASCII.utf8))
        #expect(mac.count == 32)
        #expect(Digest.hex(mac) == vector.hex)
        #expect(vector.hex == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
    }

    @Test func hmacRFC4231Case1() {
        let mac = Digest.hmacSHA256(key: [UInt8](repeating: 0x0B, count: 20), message: Array("Hi There".utf8))
        #expect(Digest.hex(mac) == "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7")
    }

    @Test func hmacRFC4231Case6KeyLongerThanBlock() {
        let mac = Digest.hmacSHA256(
            key: [UInt8](repeating: 0xAA, count: 131),
            message: Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8)
        )
        #expect(Digest.hex(mac) == "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54")
    }

    @Test func standardWebhooksSignature() throws {
        let vectors = try Vectors.load().vectors
        #expect(!vectors.isEmpty)
        for vector in vectors {
            let secret = try #require(vector.secret.split(separator: "_", maxSplits: 1).last.map(String.init))
            #expect(vector.secret.hasPrefix("whsec_"))
            let key = try #require(Data(base64Encoded: secret))
            let signedContent = "\(vector.webhookID).\(vector.webhookTimestamp).\(vector.body)"
            let mac = Digest.hmacSHA256(key: Array(key), message: Array(signedContent.utf8))
            #expect("v1," + Data(mac).base64EncodedString() == vector.webhookSignature)
        }
    }

    @Test func hexIsLowercaseTwoDigitsPerByte() {
        #expect(Digest.hex([]) == "")
        #expect(Digest.hex([0x00, 0x0F, 0xA0, 0xFF, 0x5C]) == "000fa0ff5c")
    }

    /// Compared eight bytes at a time and then byte by byte: a difference anywhere, in a word or in the tail, counts.
    @Test func constantTimeEqualityFindsADifferenceAtEveryPosition() {
        for count in 0...41 {
            let bytes = (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
            #expect(Digest.constantTimeEquals(bytes, bytes))
            for position in 0..<count {
                var changed = bytes
                changed[position] ^= 0x01
                #expect(!Digest.constantTimeEquals(bytes, changed), "a difference at \(position) of \(count) bytes")
            }
            #expect(!Digest.constantTimeEquals(bytes, bytes + [0]))
        }
    }
}
