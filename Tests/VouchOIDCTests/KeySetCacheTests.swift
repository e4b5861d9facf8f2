import Foundation
import Synchronization
import Testing
import VouchCrypto
import VouchJSON
import VouchOIDC

@Suite struct KeySetCacheTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)
    let verifier = IDTokenVerifier(issuer: TestIssuer.issuer, clientID: TestIssuer.clientID)

    /// A provider's published key set that the test changes, counting how often it is read.
    final class Published: Sendable {
        let keys: Mutex<[JSONObject]>
        let fetches = Mutex(0)

        init(_ keys: [JSONObject]) { self.keys = Mutex(keys) }

        func fetch() throws -> JSONWebKeySet {
            fetches.withLock { $0 += 1 }
            return try JSONWebKeySet(json: TestIssuer.keySetJSON(keys.withLock { $0 }))
        }
    }

    @Test func aRotatedKeyIsPickedUpByFetchingOnceAndThenCached() throws {
        let old = TestIssuer(.rs256, keyID: "old")
        let new = TestIssuer(.es256, keyID: "new")
        let published = Published([old.jwk])
        let cache = KeySetCache(fetch: published.fetch)
        _ = try cache.verify(old.token(claims: TestIssuer.claims(now: now)), with: verifier, nonce: TestIssuer.nonce, now: now)
        _ = try cache.verify(old.token(claims: TestIssuer.claims(now: now)), with: verifier, nonce: TestIssuer.nonce, now: now)
        #expect(published.fetches.withLock { $0 } == 1)
        published.keys.withLock { $0 = [new.jwk] }
        let claims = try cache.verify(new.token(claims: TestIssuer.claims(now: now)), with: verifier, nonce: TestIssuer.nonce, now: now)
        #expect(claims.subject == "248289761001")
        _ = try cache.verify(new.token(claims: TestIssuer.claims(now: now)), with: verifier, nonce: TestIssuer.nonce, now: now)
        #expect(published.fetches.withLock { $0 } == 2)
    }

    @Test func anUnknownKeyIsFetchedForOnceAndThenRefused() throws {
        let genuine = TestIssuer(.es256, keyID: "k1")
        let stranger = TestIssuer(.es256, keyID: "made-up")
        let published = Published([genuine.jwk])
        let cache = KeySetCache(fetch: published.fetch)
        #expect(throws: IDTokenRefusal.unknownKey(id: "made-up")) {
            try cache.verify(stranger.token(claims: TestIssuer.claims(now: now)), with: verifier, nonce: TestIssuer.nonce, now: now)
        }
        // The first read filled the cache, the refusal read once more; never a loop.
        #expect(published.fetches.withLock { $0 } == 2)
    }

    @Test func otherRefusalsDoNotFetchAgain() throws {
        let issuer = TestIssuer(.rs256)
        let published = Published([issuer.jwk])
        let cache = KeySetCache(fetch: published.fetch)
        #expect(throws: IDTokenRefusal.wrongNonce) {
            try cache.verify(issuer.token(claims: TestIssuer.claims(now: now)), with: verifier, nonce: "other", now: now)
        }
        #expect(published.fetches.withLock { $0 } == 1)
    }
}
