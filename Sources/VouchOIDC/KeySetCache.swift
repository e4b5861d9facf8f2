import Foundation
import Synchronization

/// The provider's key set, kept between sign-ins and fetched again once when a token names a key it lacks, so a
/// provider's key rotation is picked up without a restart while a token with a made-up `kid` cannot make vouchd fetch
/// the key set on every attempt more than once each (docs/sign-in.md).
public final class KeySetCache: Sendable {
    private let keys = Mutex<JSONWebKeySet?>(nil)
    private let fetch: @Sendable () throws -> JSONWebKeySet

    /// `fetch` reads the key set from the provider (the daemon's HTTP client); its errors pass through.
    public init(fetch: @escaping @Sendable () throws -> JSONWebKeySet) {
        self.fetch = fetch
    }

    /// The claims of `token`, checked with the cached keys, or with freshly fetched ones when the cached set has no key
    /// of its `kid`. Refusals are `IDTokenRefusal`; a failed fetch is the fetch's own error.
    public func verify(_ token: String, with verifier: IDTokenVerifier, nonce: String, now: Date) throws -> IDTokenClaims {
        let cached: JSONWebKeySet? = keys.withLock { stored in stored }
        let current: JSONWebKeySet
        if let cached { current = cached } else { current = try refreshed() }
        do {
            return try verifier.verify(token, keys: current, nonce: nonce, now: now)
        } catch {
            guard case .unknownKey = error else { throw error }
        }
        let fresh = try refreshed()
        return try verifier.verify(token, keys: fresh, nonce: nonce, now: now)
    }

    private func refreshed() throws -> JSONWebKeySet {
        let fresh = try fetch()
        keys.withLock { stored in stored = fresh }
        return fresh
    }
}
