import Foundation

/// Answers on the way to joining through an invitation, before she is a tester (docs/invitations.md, "Joining").
/// Nothing here is audited: until she joins, nothing about her is kept for longer than the draft.
public protocol JoinDraftStore: Sendable {
    /// Stores a new draft, and deletes every draft that has run out on the way.
    func createJoinDraft(_ draft: JoinDraft) throws
    /// The draft the cookie's SHA-256 names, while it lasts.
    func joinDraft(idSHA256: [UInt8], at time: Date) throws -> JoinDraft?
    func saveJoinDraft(idSHA256: [UInt8], answers: String) throws
    func deleteJoinDraft(idSHA256: [UInt8]) throws
    /// Deletes the drafts that have run out; returns how many.
    func deleteExpiredJoinDrafts(at time: Date) throws -> Int
}
