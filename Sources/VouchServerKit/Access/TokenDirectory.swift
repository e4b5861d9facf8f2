import Synchronization
import VouchCrypto
import VouchDomain
import VouchHTTP
import VouchServices
import VouchStore
import VouchConcurrency

/// Active tokens by the SHA-256 of their secret, held in memory so authentication never waits on SQLite.
public final class TokenDirectory: Sendable {
    private struct State {
        var principals: [[UInt8]: Principal] = [:]
        /// Hashes of revoked secrets: a client still using one is out of date, not guessing.
        var revoked: Set<[UInt8]> = []
        /// Active tokens by id, for credentials that name a token rather than carry its secret (event streams).
        var byID: [String: Principal] = [:]
    }

    private struct RecentSecret {
        var secret: [UInt8] = []
        var principal: Principal?
    }

    private let state = Mutex(State())
    /// Secrets already seen, each at the place its (randomly seeded) hash value picks, so the hot path skips
    /// SHA-256 and this directory's lock; a secret that lands on a taken place replaces it. One cache per stripe of
    /// threads, each with its own copy of the principals' text, so the HTTP threads share no lock and no reference
    /// count per request. Emptied whenever a token is revoked or the tokens are loaded again. The secrets are in
    /// this process's memory anyway, in every request that carries them; never logged or stored.
    private let recent = Striped { [RecentSecret]() }
    /// Where a secret goes in a stripe's cache. Not SipHash (`Hasher`), which costs as much as the rest of the lookup:
    /// only secrets of real tokens are ever cached, so a client choosing colliding secrets can only make its own
    /// lookups miss, and a seed of this directory's own keeps the places unguessable all the same.
    private let placeHash = PlaceHash()
    /// Places in each stripe's cache, made when the stripe first caches a secret (a stripe no thread uses takes no
    /// memory); a power of two.
    private static let recentPlaces = 512
    private static let emptyRecent = [RecentSecret](repeating: RecentSecret(), count: recentPlaces)
    /// Raised (under `state`'s lock) by every revocation and load, before the caches are emptied: a lookup that
    /// found its principal before one may not cache it after (see `principal(forSecretBytes:)`).
    private let removals = Atomic<UInt64>(0)

    public init() {}

    public func load(_ tokens: [TokenRecord], revokedHashes: [[UInt8]] = []) {
        let map = Dictionary(tokens.filter { $0.revokedAt == nil }.map { ($0.secretSHA256, $0.principal) }, uniquingKeysWith: { first, _ in first })
        let revoked = Set(revokedHashes + tokens.filter { $0.revokedAt != nil }.map(\.secretSHA256))
        let byID = Dictionary(map.values.map { ($0.tokenID, $0) }, uniquingKeysWith: { first, _ in first })
        state.withLock {
            $0 = State(principals: map, revoked: revoked, byID: byID)
            removals.add(1, ordering: .releasing)
        }
        recent.forEach { $0 = [] }
    }

    /// The change feed's subscriber: new tokens work and revoked ones stop working as soon as their commit returns.
    /// Revocation is final, so commits published out of order cannot bring a revoked token back.
    public func apply(_ committed: CommittedChanges) {
        for change in committed.changes {
            switch change {
            case .tokenAdded(let token): add(token)
            case .tokenRevoked(let token): revoke(id: token.id, secretHash: token.secretSHA256)
            default: break
            }
        }
    }

    private func add(_ token: TokenRecord) {
        state.withLock { state in
            guard token.revokedAt == nil, !state.revoked.contains(token.secretSHA256) else { return }
            state.principals[token.secretSHA256] = token.principal
            state.byID[token.id] = token.principal
        }
    }

    private func revoke(id: String, secretHash: [UInt8]) {
        state.withLock { state in
            state.revoked.insert(secretHash)
            state.principals[secretHash] = nil
            state.byID[id] = nil
            removals.add(1, ordering: .releasing)
        }
        recent.forEach { $0 = [] }
    }

    /// Revokes the token with this id, found revoked in the database before the change feed brought the news.
    public func revokeNow(tokenID: String) {
        guard let secretHash = state.withLock({ state in state.principals.first { $0.value.tokenID == tokenID }?.key }) else { return }
        revoke(id: tokenID, secretHash: secretHash)
    }

    /// The principal for a presented secret, or nil when it is unknown or revoked.
    ///
    /// Secrets are only ever compared in constant time: the cache is keyed by a hash value and the secret it holds
    /// is then compared with `Digest.constantTimeEquals`; the directory itself is keyed by SHA-256 of the secret.
    public func principal(forSecret secret: String) -> Principal? {
        secret.withUTF8Bytes(principal(forSecretBytes:))
    }

    /// The same for the secret's bytes where they are (in the request), so the hot path copies nothing.
    ///
    /// A principal found in the directory is cached in the calling thread's stripe only if no revocation or load
    /// happened since it was found: one that did has emptied (or is emptying) every stripe, and a cached entry made
    /// after that would outlive it.
    public func principal(forSecretBytes presented: UnsafeRawBufferPointer) -> Principal? {
        lookUp(presented) { $0 }
    }

    /// Only the role of the secret's principal: what OFREP's evaluation asks, without copying out (and later
    /// releasing) the principal's three strings.
    public func role(forSecretBytes presented: UnsafeRawBufferPointer) -> Role? {
        lookUp(presented) { $0.role }
    }

    /// Finds the secret's principal and reads what the caller needs of it; a cached one is read in place.
    private func lookUp<Value: Sendable>(_ presented: UnsafeRawBufferPointer, _ read: (Principal) -> Value) -> Value? {
        let place = Int(truncatingIfNeeded: placeHash.hash(presented)) & (TokenDirectory.recentPlaces - 1)
        // Compared in place under the stripe's lock, so nothing of the cached secret or principal is copied out.
        let cached = recent.withCurrent { places -> Value? in
            guard !places.isEmpty, let principal = places[place].principal,
                  places[place].secret.withUnsafeBytes({ Digest.constantTimeEquals(presented, $0) }) else { return nil }
            return read(principal)
        }
        if let cached { return cached }
        let hash = Digest.sha256(presented)
        let found = state.withLock { state -> (principal: Principal, removals: UInt64)? in
            // The dictionary finds the entry by SHA-256; the bytes are then confirmed in constant time.
            guard let index = state.principals.index(forKey: hash) else { return nil }
            let (storedHash, principal) = state.principals[index]
            guard Digest.constantTimeEquals(storedHash, hash) else { return nil }
            return (principal, removals.load(ordering: .relaxed))
        }
        guard let found else { return nil }
        let entry = RecentSecret(secret: Array(presented), principal: TokenDirectory.ownCopy(of: found.principal))
        recent.withCurrent { places in
            guard removals.load(ordering: .acquiring) == found.removals else { return }
            if places.isEmpty { places = TokenDirectory.emptyRecent }
            places[place] = entry
        }
        return read(found.principal)
    }

    /// The principal with text of its own, so that copies of it in one stripe share no reference count with
    /// another's (a String over 15 bytes is an object whose count every copy changes).
    private static func ownCopy(of principal: Principal) -> Principal {
        func own(_ text: String) -> String { String(decoding: Array(text.utf8), as: UTF8.self) }
        return Principal(name: own(principal.name), role: principal.role, testerID: principal.testerID.map(own), tokenID: own(principal.tokenID),
                         eventStreams: principal.eventStreams, flagDefinitions: principal.flagDefinitions)
    }

    /// The active token with this id, or nil when there is none or it was revoked.
    public func principal(tokenID: String) -> Principal? {
        state.withLock { $0.byID[tokenID] }
    }

    /// Whether the secret belongs to a token that was revoked (rather than to no token at all).
    public func isRevoked(secret: String) -> Bool {
        let hash = Digest.sha256(secret)
        return state.withLock { $0.revoked.contains(hash) }
    }

    /// A new secret: `vch_` and 40 random lowercase letters and digits (about 206 bits).
    public static func makeSecret() -> String { TokenService.makeSecret() }
}
