import Dispatch
import Foundation
import Synchronization
import VouchCrypto
import VouchDomain
import VouchHTTP
import VouchServerKit
import VouchStore

/// Console sessions: made at sign-in or when a personal link is opened, found again by the cookie, ended by sign-out,
/// idleness, their absolute end, or the end of the token or link behind them (docs/console.md, "Sessions").
///
/// Only the SHA-256 of the cookie is stored; the cookie is `HttpOnly`, `SameSite=Strict`, limited to `/console/`,
/// and `Secure` when the console is served over TLS.
package final class ConsoleSessions: Sendable {
    static let cookieName = "vouch_console"
    /// A sign-in form's own token, before there is a session: it stops another site from signing a browser in with
    /// the attacker's token (login CSRF).
    static let signInCookieName = "vouch_sign_in"
    /// A sign-in through the identity provider on its way there (docs/sign-in.md): `SameSite=Lax`, since the provider
    /// sends the browser back from its own site, and limited to the callback's path.
    static let oidcCookieName = "vouch_oidc"
    static let oidcCookiePath = "/console/sign-in/oidc/"
    /// How long a person may take at the provider's sign-in page.
    static let oidcSignInSeconds = 600
    /// Activity is written back at most this often, so browsing costs a read, not a write, per page.
    static let touchIntervalSeconds: Double = 60

    let store: any Store
    let tokens: TokenDirectory
    let settings: ConsoleSettings
    let clock: @Sendable () -> Date
    /// New secrets on their way from the form that made them to the one page that shows them.
    let reveals = SecretReveals()
    /// Deletes ended sessions (and their drafts) now and then; their cookies would open nothing anyway.
    /// `nonisolated(unsafe)`: made once in `init`, then only resumed and cancelled under `sweeping`.
    nonisolated(unsafe) private let sweeper: any DispatchSourceTimer
    private let sweeping = Mutex(false)
    static let sweepIntervalSeconds = 600
    /// Sessions one token or link keeps at most (a phone, a tablet and a computer, with room to spare), and one
    /// tester; a new session beyond that ends the oldest (docs/console.md, "Sessions").
    static let bounds = ConsoleSession.Bounds(perCredential: 5, perTester: 10)

    package init(store: any Store, tokens: TokenDirectory, settings: ConsoleSettings, clock: @escaping @Sendable () -> Date) {
        self.store = store
        self.tokens = tokens
        self.settings = settings
        self.clock = clock
        sweeper = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "vouch.console.sweeper", qos: .utility))
    }

    /// The session the request's cookie names and the person it acts as, or nil when there is none (any more).
    func resolve(_ request: HTTPRequest) throws -> (session: ConsoleSession, principal: Principal)? {
        guard let cookie = request.cookie(ConsoleSessions.cookieName), !cookie.isEmpty, cookie.utf8.count <= 128 else { return nil }
        let hash = Digest.sha256(cookie)
        let now = clock()
        guard let session = try store.consoleSession(idSHA256: hash, at: now) else { return nil }
        if now.timeIntervalSince(session.lastSeenAt) > Double(settings.sessionIdleSeconds) {
            try store.deleteConsoleSession(idSHA256: hash)
            return nil
        }
        let principal: Principal
        switch session.holder {
        case .token(let id):
            // The token directory follows every revocation at once; the store deletes the rows in the same commit.
            guard let tokenPrincipal = tokens.principal(tokenID: id) else { return nil }
            principal = tokenPrincipal
        case .identityProvider(let id, let name, let role):
            // What the ID token said at sign-in; the session ends no later than the token (docs/sign-in.md).
            principal = Principal(name: name, role: role, tokenID: id, viaIdentityProvider: true)
        case .link(let id, let testerID, let openedBy):
            // The tester's own pseudonym, as a tester token's principal: what her feedback records as `recorded_by`;
            // with the link, its creator and who opened it, so what staff entered on it is never taken for her own act.
            let createdBy = try store.testerLinks(of: testerID).first { $0.id == id }?.createdBy ?? ""
            principal = Principal(name: testerID, role: .tester, testerID: testerID, tokenID: id,
                                  link: LinkUse(id: id, createdBy: createdBy, openedBy: openedBy))
        }
        if now.timeIntervalSince(session.lastSeenAt) > ConsoleSessions.touchIntervalSeconds {
            try store.touchConsoleSession(idSHA256: hash, at: now)
        }
        return (session, principal)
    }

    /// Starts a session for `requester` (whose token or link is confirmed as the session is stored); returns the cookie
    /// header that carries it.
    func start(_ holder: ConsoleSession.Holder, for requester: Requester, endingNoLaterThan limit: Date? = nil,
               secure: Bool) throws -> (name: String, value: String) {
        let secret = SecureRandom.alphanumeric(count: 43)
        let now = clock()
        var expiresAt = now.addingTimeInterval(Double(settings.sessionLifetimeSeconds))
        if let limit { expiresAt = min(expiresAt, limit) }
        try store.createConsoleSession(ConsoleSession(idSHA256: Digest.sha256(secret), holder: holder, csrf: SecureRandom.alphanumeric(count: 32),
                                                      createdAt: now, lastSeenAt: now, expiresAt: expiresAt),
                                       by: requester, keepingAtMost: ConsoleSessions.bounds)
        return ConsoleSessions.cookie(ConsoleSessions.cookieName, secret, maxAge: Int(expiresAt.timeIntervalSince(now)), secure: secure)
    }

    /// Ends the request's session, if any; returns the header that clears the cookie.
    func end(_ request: HTTPRequest, secure: Bool) throws -> (name: String, value: String) {
        if let cookie = request.cookie(ConsoleSessions.cookieName), !cookie.isEmpty, cookie.utf8.count <= 128 {
            try store.deleteConsoleSession(idSHA256: Digest.sha256(cookie))
        }
        return ConsoleSessions.cookie(ConsoleSessions.cookieName, "", maxAge: 0, secure: secure)
    }

    /// Whether cookies for this request must be `Secure`: the console's public address is `https`, or a proxy in
    /// front says the browser used TLS.
    func isSecure(_ request: HTTPRequest) -> Bool {
        settings.isPublicURLSecure || request.header("x-forwarded-proto")?.lowercased() == "https"
    }

    static func cookie(_ name: String, _ value: String, maxAge: Int, secure: Bool, path: String = "/console/",
                       sameSite: String = "Strict") -> (name: String, value: String) {
        (name: "Set-Cookie", value: "\(name)=\(value); Path=\(path); Max-Age=\(max(0, maxAge)); HttpOnly; SameSite=\(sameSite)" + (secure ? "; Secure" : ""))
    }

    /// The pre-session cookie of a sign-in through the identity provider, or the header that clears it (empty value).
    static func oidcCookie(_ value: String, secure: Bool) -> (name: String, value: String) {
        cookie(oidcCookieName, value, maxAge: value.isEmpty ? 0 : oidcSignInSeconds, secure: secure, path: oidcCookiePath, sameSite: "Lax")
    }

    /// Starts deleting sessions past their absolute end or idle time, every ten minutes.
    package func startSweeping(onError: @escaping @Sendable (any Error) -> Void) {
        sweeper.schedule(deadline: .now() + .seconds(ConsoleSessions.sweepIntervalSeconds), repeating: .seconds(ConsoleSessions.sweepIntervalSeconds))
        sweeper.setEventHandler { [weak self] in
            guard let self else { return }
            do { try self.sweep() } catch { onError(error) }
        }
        if resumeOnce() { sweeper.resume() }
    }

    /// Stops the sweeps. A dispatch source must not be released while never resumed, so one that never ran is
    /// resumed to be cancelled.
    package func stopSweeping() {
        if resumeOnce() { sweeper.resume() }
        sweeper.cancel()
    }

    /// True the first time only.
    private func resumeOnce() -> Bool {
        sweeping.withLock { resumed in
            defer { resumed = true }
            return !resumed
        }
    }

    deinit { stopSweeping() }

    /// Deletes every session past its absolute end or idle longer than allowed; returns how many.
    @discardableResult
    func sweep() throws -> Int {
        let now = clock()
        // Answers on the way to joining go too, so nothing of someone who left half-way stays an hour (JoinService).
        return try store.deleteStaleConsoleSessions(at: now, idleBefore: now.addingTimeInterval(-Double(settings.sessionIdleSeconds)))
            + store.deleteExpiredJoinDrafts(at: now)
    }

    /// Compares a form's CSRF token with the session's, in constant time.
    static func matches(_ presented: String?, _ expected: String) -> Bool {
        guard let presented, !expected.isEmpty else { return false }
        return Digest.constantTimeEquals(Array(presented.utf8), Array(expected.utf8))
    }
}
