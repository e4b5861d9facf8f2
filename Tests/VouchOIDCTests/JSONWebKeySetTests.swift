import Testing
import VouchCrypto
import VouchJSON
import VouchOIDC

@Suite struct JSONWebKeySetTests {
    @Test func signingKeysOfBothTypesAreKeptAndOthersCounted() throws {
        let rsa = TestIssuer(.rs256, keyID: "r1")
        let ec = TestIssuer(.es256, keyID: "e1")
        var encryption = rsa.jwk
        encryption["kid"] = .string("enc")
        encryption["use"] = .string("enc")
        let symmetric: JSONObject = ["kty": .string("oct"), "kid": .string("hmac"), "k": .string("c2VjcmV0")]
        var otherCurve = ec.jwk
        otherCurve["kid"] = .string("p384")
        otherCurve["crv"] = .string("P-384")
        let keys = try JSONWebKeySet(json: TestIssuer.keySetJSON([rsa.jwk, ec.jwk, encryption, symmetric, otherCurve]))
        #expect(keys.keys.map(\.id) == ["r1", "e1"])
        #expect(keys.keys.map(\.algorithm) == [.rs256, .es256])
        #expect(keys.skipped == 3)
    }

    @Test func aKeyIsChosenByIdAndAlgorithmAndWithoutAnIdOnlyWhenThereIsOne() throws {
        let first = TestIssuer(.rs256, keyID: "a")
        let second = TestIssuer(.rs256, keyID: "b")
        let keys = try JSONWebKeySet(json: TestIssuer.keySetJSON([first.jwk, second.jwk]))
        #expect(keys.key(id: "b", algorithm: .rs256)?.id == "b")
        #expect(keys.key(id: "b", algorithm: .es256) == nil)
        #expect(keys.key(id: "c", algorithm: .rs256) == nil)
        #expect(keys.key(id: nil, algorithm: .rs256) == nil)
        let single = try first.keySet()
        #expect(single.key(id: nil, algorithm: .rs256)?.id == "a")
    }

    @Test func shortRSAKeysAreLeftOut() throws {
        let short = SigningKey.generate(.rs256, rsaBits: 1024)
        let (n, e) = short.publicComponents
        let jwk: JSONObject = ["kty": .string("RSA"), "kid": .string("old"), "n": .string(Base64URL.encode(n)), "e": .string(Base64URL.encode(e))]
        let keys = try JSONWebKeySet(json: TestIssuer.keySetJSON([jwk]))
        #expect(keys.keys.isEmpty)
        #expect(keys.skipped == 1)
    }

    @Test func aPointOffTheCurveIsAnError() throws {
        var jwk = TestIssuer(.es256, keyID: "bent").jwk
        let published = try #require(jwk["y"]?.stringValue)
        var y = try #require(Base64URL.decode(published))
        y[31] ^= 0x01
        jwk["y"] = .string(Base64URL.encode(y))
        #expect(throws: JSONWebKeySet.Invalid(reason: "key \"bent\" is not a point on P-256")) {
            try JSONWebKeySet(json: TestIssuer.keySetJSON([jwk]))
        }
    }

    @Test(arguments: [
        ("[]", "no \"keys\" array"),
        ("{\"keys\": {}}", "no \"keys\" array"),
        ("{\"keys\": [1]}", "key 1 is not an object"),
        ("{\"keys\": [{\"kty\": \"RSA\", \"kid\": \"k\", \"e\": \"AQAB\"}]}", "key \"k\" is RSA but lacks \"n\" or \"e\""),
        ("{\"keys\": [{\"kty\": \"EC\", \"crv\": \"P-256\", \"x\": \"A+B\", \"y\": \"AA\"}]}", "key 1 has a \"x\" that is not base64url"),
        ("{\"keys\": [] ", "not JSON (unexpected end of input in an object)"),
    ])
    func brokenKeySetsSayWhatIsWrong(json: String, reason: String) {
        #expect(throws: JSONWebKeySet.Invalid(reason: reason)) { try JSONWebKeySet(json: Array(json.utf8)) }
    }
}
