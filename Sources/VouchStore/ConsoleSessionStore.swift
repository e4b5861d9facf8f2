import Foundation

/// Console sessions by the SHA-256 of their cookie, and a tester's answers between the feedback pages.
///
/// Revoking the token a session signed in with deletes it.
public protocol ConsoleSessionStore: Sendable {
    func createConsoleSession(_ session: ConsoleSession, by requester: Requester, keepingAtMost bounds: ConsoleSession.Bounds) throws
    func consoleSessionCount(link id: String) throws -> Int
    func consoleSession(idSHA256: [UInt8], at time: Date) throws -> ConsoleSession?
    func touchConsoleSession(idSHA256: [UInt8], at time: Date) throws
    func deleteConsoleSession(idSHA256: [UInt8]) throws
    @discardableResult
    func deleteStaleConsoleSessions(at time: Date, idleBefore: Date) throws -> Int
    /// A tester's answers between the feedback pages, per session and fix.
    func consoleDraft(session idSHA256: [UInt8], fix key: String) throws -> String?
    func saveConsoleDraft(session idSHA256: [UInt8], fix key: String, answers: String, at time: Date) throws
    func deleteConsoleDraft(session idSHA256: [UInt8], fix key: String) throws
    /// A sign-in through the identity provider on its way there: the SHA-256 of the browser's pre-session cookie,
    /// where to go afterwards, and when it ends (docs/sign-in.md).
    func createOIDCSignIn(idSHA256: [UInt8], next: String, expiresAt: Date) throws
    /// Deletes the sign-in and returns its `next` when it existed and had not ended: each is used once.
    func takeOIDCSignIn(idSHA256: [UInt8], at time: Date) throws -> String?
}
