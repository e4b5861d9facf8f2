import Foundation
import VouchDomain

/// A signed-in browser as stored: the SHA-256 of its cookie, never the cookie (docs/console.md, "Sessions").
public struct ConsoleSession: Sendable, Equatable {
    /// Who the session acts as: a staff member through one token or through the organisation's identity provider,
    /// or a tester through one personal link.
    public enum Holder: Sendable, Equatable {
        case token(id: String)
        /// Signed in through the identity provider (docs/sign-in.md): `sessionID` (`oidc_…`) is the session's own
        /// credential, which its writes confirm; the principal and role are what the ID token gave at sign-in.
        case identityProvider(sessionID: String, principal: String, role: Role)
        /// `openedBy`: the staff principal signed in in the browser that opened the link, if one was.
        case link(id: String, testerID: String, openedBy: String? = nil)
    }

    /// How many sessions one token, one link and one tester keep at most: a new one beyond that ends the oldest, so
    /// nobody holding a link or a token can grow the database by opening it again and again.
    public struct Bounds: Sendable, Equatable {
        public var perCredential: Int
        public var perTester: Int

        public init(perCredential: Int, perTester: Int) {
            self.perCredential = perCredential
            self.perTester = perTester
        }
    }

    public var idSHA256: [UInt8]
    public var holder: Holder
    /// Sent back in every form; a POST without it is refused (cross-site request forgery).
    public var csrf: String
    public var createdAt: Date
    public var lastSeenAt: Date
    /// The absolute end: no activity extends the session past it.
    public var expiresAt: Date

    public init(idSHA256: [UInt8], holder: Holder, csrf: String, createdAt: Date, lastSeenAt: Date, expiresAt: Date) {
        self.idSHA256 = idSHA256
        self.holder = holder
        self.csrf = csrf
        self.createdAt = createdAt
        self.lastSeenAt = lastSeenAt
        self.expiresAt = expiresAt
    }
}
