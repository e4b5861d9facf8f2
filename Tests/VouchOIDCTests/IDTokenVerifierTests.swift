import Foundation
import Testing
import VouchCrypto
import VouchJSON
import VouchOIDC

@Suite struct IDTokenVerifierTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)
    let verifier = IDTokenVerifier(issuer: TestIssuer.issuer, clientID: TestIssuer.clientID)

    private func refusal(_ token: String, keys: JSONWebKeySet, nonce: String = TestIssuer.nonce, at time: Date? = nil) -> IDTokenRefusal? {
        do {
            _ = try verifier.verify(token, keys: keys, nonce: nonce, now: time ?? now)
            return nil
        } catch {
            return error
        }
    }

    @Test(arguments: SignatureAlgorithm.allCases)
    func aGoodTokenIsAcceptedWithItsClaims(algorithm: SignatureAlgorithm) throws {
        let issuer = TestIssuer(algorithm)
        let claims = try verifier.verify(issuer.token(claims: TestIssuer.claims(now: now)), keys: issuer.keySet(), nonce: TestIssuer.nonce, now: now)
        #expect(claims.issuer == TestIssuer.issuer)
        #expect(claims.subject == "248289761001")
        #expect(claims.audiences == [TestIssuer.clientID])
        #expect(claims.expiresAt == now.addingTimeInterval(300))
        #expect(claims.strings("groups") == ["vouch-release-managers"])
        #expect(claims.strings("email") == ["Ana@Example.org"])
        #expect(claims.strings("exp") == nil)
    }

    @Test(arguments: SignatureAlgorithm.allCases)
    func aTokenSignedByAnotherKeyOfTheSameIdIsRefused(algorithm: SignatureAlgorithm) throws {
        let genuine = TestIssuer(algorithm)
        let impostor = TestIssuer(algorithm) // same kid, another key
        let token = impostor.token(claims: TestIssuer.claims(now: now))
        #expect(refusal(token, keys: try genuine.keySet()) == .badSignature)
    }

    @Test(arguments: SignatureAlgorithm.allCases)
    func aTamperedPayloadIsRefused(algorithm: SignatureAlgorithm) throws {
        let issuer = TestIssuer(algorithm)
        let parts = issuer.token(claims: TestIssuer.claims(now: now)).split(separator: ".").map(String.init)
        var claims = TestIssuer.claims(now: now)
        claims["groups"] = .array([.string("vouch-admins")])
        let tampered = [parts[0], TestIssuer.encode(claims), parts[2]].joined(separator: ".")
        #expect(refusal(tampered, keys: try issuer.keySet()) == .badSignature)
        // One flipped bit of the signature is enough too.
        var signature = try #require(Base64URL.decode(parts[2]))
        signature[signature.count / 2] ^= 0x01
        let flipped = [parts[0], parts[1], Base64URL.encode(signature)].joined(separator: ".")
        #expect(refusal(flipped, keys: try issuer.keySet()) == .badSignature)
    }

    @Test func algNoneAndOtherAlgorithmsAreRefusedBeforeAnyKeyIsTried() throws {
        let issuer = TestIssuer(.rs256)
        let claims = TestIssuer.encode(TestIssuer.claims(now: now))
        let none = TestIssuer.encode(["alg": .string("none"), "kid": .string(issuer.keyID)]) + "." + claims + "."
        #expect(refusal(none, keys: try issuer.keySet()) == .unsupportedAlgorithm("none"))
        // HS256 with the public key as the secret is the classic confusion; it is refused by name.
        let hmac = TestIssuer.encode(["alg": .string("HS256"), "kid": .string(issuer.keyID)]) + "." + claims + ".c2ln"
        #expect(refusal(hmac, keys: try issuer.keySet()) == .unsupportedAlgorithm("HS256"))
        let missing = TestIssuer.encode(["kid": .string(issuer.keyID)]) + "." + claims + ".c2ln"
        #expect(refusal(missing, keys: try issuer.keySet()) == .malformed("the header has no \"alg\""))
    }

    @Test func anRSAKeyCannotCheckAnES256HeaderOrTheOtherWayRound() throws {
        let rsa = TestIssuer(.rs256)
        // An RS256 signature presented as ES256 under the same kid: the key set has no ES256 key of that id.
        let relabelled = rsa.token(claims: TestIssuer.claims(now: now), header: rsa.header(algorithm: "ES256"))
        #expect(refusal(relabelled, keys: try rsa.keySet()) == .unknownKey(id: rsa.keyID))
    }

    @Test func anUnknownKeyIdIsItsOwnRefusalSoTheCallerCanFetchTheKeysAgain() throws {
        let old = TestIssuer(.es256, keyID: "2026-11")
        let rotated = TestIssuer(.es256, keyID: "2026-12")
        let token = rotated.token(claims: TestIssuer.claims(now: now))
        #expect(refusal(token, keys: try old.keySet()) == .unknownKey(id: "2026-12"))
        let both = try JSONWebKeySet(json: TestIssuer.keySetJSON([old.jwk, rotated.jwk]))
        #expect(refusal(token, keys: both) == nil)
    }

    @Test func theIssuerMustBeExactlyTheConfiguredOne() throws {
        let issuer = TestIssuer(.rs256)
        var claims = TestIssuer.claims(now: now)
        claims["iss"] = .string(TestIssuer.issuer + "/")
        #expect(refusal(issuer.token(claims: claims), keys: try issuer.keySet())
                == .wrongIssuer(expected: TestIssuer.issuer, found: TestIssuer.issuer + "/"))
        claims["iss"] = nil
        #expect(refusal(issuer.token(claims: claims), keys: try issuer.keySet()) == .missingClaim("iss"))
    }

    @Test func theAudienceMustNameThisClient() throws {
        let issuer = TestIssuer(.es256)
        var claims = TestIssuer.claims(now: now)
        claims["aud"] = .string("another-app")
        #expect(refusal(issuer.token(claims: claims), keys: try issuer.keySet()) == .wrongAudience(expected: TestIssuer.clientID))
        claims["aud"] = .array([.string("another-app"), .string("a-third")])
        #expect(refusal(issuer.token(claims: claims), keys: try issuer.keySet()) == .wrongAudience(expected: TestIssuer.clientID))
        claims["aud"] = .number(7)
        #expect(refusal(issuer.token(claims: claims), keys: try issuer.keySet())
                == .malformed("\"aud\" is not a string or an array of strings"))
    }

    @Test func severalAudiencesNeedAnAuthorizedPartyThatIsThisClient() throws {
        let issuer = TestIssuer(.rs256)
        var claims = TestIssuer.claims(now: now)
        claims["aud"] = .array([.string(TestIssuer.clientID), .string("another-app")])
        #expect(refusal(issuer.token(claims: claims), keys: try issuer.keySet()) == .missingClaim("azp"))
        claims["azp"] = .string("another-app")
        #expect(refusal(issuer.token(claims: claims), keys: try issuer.keySet()) == .wrongAuthorizedParty(expected: TestIssuer.clientID))
        claims["azp"] = .string(TestIssuer.clientID)
        #expect(refusal(issuer.token(claims: claims), keys: try issuer.keySet()) == nil)
    }

    @Test func expiryAllowsAtMostSixtySecondsOfSkew() throws {
        let issuer = TestIssuer(.es256)
        let token = issuer.token(claims: TestIssuer.claims(now: now, lifetime: 300))
        let keys = try issuer.keySet()
        #expect(refusal(token, keys: keys, at: now.addingTimeInterval(359)) == nil)
        #expect(refusal(token, keys: keys, at: now.addingTimeInterval(360)) == .expired(secondsAgo: 60))
        #expect(refusal(token, keys: keys, at: now.addingTimeInterval(3600)) == .expired(secondsAgo: 3300))
        // A larger skew asked for is held to 60 seconds.
        let lenient = IDTokenVerifier(issuer: TestIssuer.issuer, clientID: TestIssuer.clientID, skew: 3600)
        #expect(throws: IDTokenRefusal.expired(secondsAgo: 60)) {
            try lenient.verify(token, keys: keys, nonce: TestIssuer.nonce, now: now.addingTimeInterval(360))
        }
    }

    @Test func aTokenIssuedInTheFutureIsRefusedBeyondTheSkew() throws {
        let issuer = TestIssuer(.rs256)
        let keys = try issuer.keySet()
        let soon = issuer.token(claims: TestIssuer.claims(now: now.addingTimeInterval(60)))
        #expect(refusal(soon, keys: keys) == nil)
        let later = issuer.token(claims: TestIssuer.claims(now: now.addingTimeInterval(61)))
        #expect(refusal(later, keys: keys) == .issuedInTheFuture(secondsAhead: 61))
        var claims = TestIssuer.claims(now: now)
        claims["iat"] = nil
        #expect(refusal(issuer.token(claims: claims), keys: keys) == .missingClaim("iat"))
        claims["iat"] = .string("yesterday")
        #expect(refusal(issuer.token(claims: claims), keys: keys) == .malformed("\"iat\" is not a number of seconds"))
    }

    @Test func theNonceMustBeTheOneThisSignInSent() throws {
        let issuer = TestIssuer(.es256)
        let keys = try issuer.keySet()
        let token = issuer.token(claims: TestIssuer.claims(now: now))
        #expect(refusal(token, keys: keys, nonce: "another-sign-in") == .wrongNonce)
        #expect(refusal(token, keys: keys, nonce: "") == .wrongNonce)
        var claims = TestIssuer.claims(now: now)
        claims["nonce"] = nil
        #expect(refusal(issuer.token(claims: claims), keys: keys) == .missingClaim("nonce"))
    }

    @Test func aSubjectIsRequired() throws {
        let issuer = TestIssuer(.rs256)
        var claims = TestIssuer.claims(now: now)
        claims["sub"] = nil
        #expect(refusal(issuer.token(claims: claims), keys: try issuer.keySet()) == .missingClaim("sub"))
    }

    @Test func aCriticalHeaderExtensionIsRefused() throws {
        let issuer = TestIssuer(.rs256)
        var header = issuer.header()
        header["crit"] = .array([.string("exp")])
        #expect(refusal(issuer.token(claims: TestIssuer.claims(now: now), header: header), keys: try issuer.keySet()) == .criticalHeader)
    }

    @Test(arguments: [
        ("a.b", "a signed token has 3 parts separated by dots, this one has 2"),
        ("a.b.c.d.e", "a signed token has 3 parts separated by dots, this one has 5"),
        ("e30=.e30.", "the header is not base64url"),
        ("e30.e+0.", "the claims are not base64url"),
        ("W10.e30.", "the header is not a JSON object"),
        ("e30.bm90IGpzb24.", "the claims are not JSON"),
    ])
    func malformedTokensAreRefusedWithTheReason(token: String, reason: String) throws {
        let keys = try TestIssuer(.es256).keySet()
        #expect(refusal(token, keys: keys) == .malformed(reason))
    }

    @Test func aRefusalNeverQuotesTheToken() throws {
        let issuer = TestIssuer(.rs256)
        let token = issuer.token(claims: TestIssuer.claims(now: now))
        let keys = try issuer.keySet()
        let refused = try #require(refusal(token, keys: keys, nonce: "other"))
        #expect(!refused.description.contains(token.split(separator: ".")[2]))
        #expect(!refused.description.contains(TestIssuer.nonce))
    }
}
