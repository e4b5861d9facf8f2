import Synchronization
import VouchCrypto
import VouchDomain

/// Active tokens by the SHA-256 of their secret, held in memory so authentication never waits on SQLite.
public final class TokenDirectory: Sendable {
    private let principals = Mutex<[[UInt8]: Principal]>([:])

    public init() {}

    public func load(_ tokens: [TokenRecord]) {
        let map = Dictionary(tokens.filter { $0.revokedAt == nil }.map { ($0.secretSHA256, $0.principal) }, uniquingKeysWith: { first, _ in first })
        principals.withLock { $0 = map }
    }

    public func add(_ token: TokenRecord) {
        principals.withLock { $0[token.secretSHA256] = token.principal }
    }

    public func remove(tokenID: String) {
        principals.withLock { map in
            map = map.filter { $0.value.tokenID != tokenID }
        }
    }

    /// The principal for a presented secret, or nil when it is unknown or revoked.
    public func principal(forSecret secret: String) -> Principal? {
        let hash = Digest.sha256(secret)
        return principals.withLock { $0[hash] }
    }

    /// A new secret: `vch_` and 40 random lowercase letters and digits (about 206 bits).
    public static func makeSecret() -> String { "vch_" + SecureRandom.alphanumeric(count: 40) }
}
