import Foundation

/// A signed-in browser as stored: the SHA-256 of its cookie, never the cookie (docs/console.md, "Sessions").
public struct ConsoleSession: Sendable, Equatable {
    /// Who the session acts as: a staff member through one token, or a tester through one personal link.
    public enum Holder: Sendable, Equatable {
        case token(id: String)
        case link(id: String, testerID: String)
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
