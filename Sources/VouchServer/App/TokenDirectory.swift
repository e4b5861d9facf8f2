import Synchronization
import VouchCrypto
import VouchDomain

/// Active tokens by the SHA-256 of their secret, held in memory so authentication never waits on SQLite.
public final class TokenDirectory: Sendable {
    private struct State {
        var principals: [[UInt8]: Principal] = [:]
        /// Secrets already seen, so the hot path skips SHA-256; bounded, and emptied whenever a token is revoked.
        /// The secrets are in this process's memory anyway, in every request that carries them; never logged or stored.
        var recent: [String: Principal] = [:]
    }

    private static let maxRecent = 4_096
    private let state = Mutex(State())

    public init() {}

    public func load(_ tokens: [TokenRecord]) {
        let map = Dictionary(tokens.filter { $0.revokedAt == nil }.map { ($0.secretSHA256, $0.principal) }, uniquingKeysWith: { first, _ in first })
        state.withLock { $0 = State(principals: map) }
    }

    public func add(_ token: TokenRecord) {
        state.withLock { $0.principals[token.secretSHA256] = token.principal }
    }

    public func remove(tokenID: String) {
        state.withLock { state in
            state.principals = state.principals.filter { $0.value.tokenID != tokenID }
            state.recent = [:]
        }
    }

    /// The principal for a presented secret, or nil when it is unknown or revoked.
    public func principal(forSecret secret: String) -> Principal? {
        if let known = state.withLock({ $0.recent[secret] }) { return known }
        let hash = Digest.sha256(secret)
        return state.withLock { state in
            guard let principal = state.principals[hash] else { return nil }
            if state.recent.count >= TokenDirectory.maxRecent { state.recent = [:] }
            state.recent[secret] = principal
            return principal
        }
    }

    /// A new secret: `vch_` and 40 random lowercase letters and digits (about 206 bits).
    public static func makeSecret() -> String { "vch_" + SecureRandom.alphanumeric(count: 40) }
}
