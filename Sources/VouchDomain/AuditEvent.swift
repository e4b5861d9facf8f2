import Foundation

/// One recorded mutation: who did what to which fix, with the state before and after.
public struct AuditEvent: Sendable, Equatable {
    public var id: Int64
    public var at: Date
    public var principal: String
    public var action: AuditAction
    public var fixKey: String?
    /// What else the event concerns (a token id), when not a fix.
    public var subject: String?
    /// Why, in the principal's words (a revise note, a rollback reason).
    public var note: String?
    /// JSON text of the state before and after; nil where there was none.
    public var before: String?
    public var after: String?
    /// How the principal acted when not through a token of their own: "link l_… created by maria" (a tester's
    /// personal link, and who opened it); nil for a token and for vouchd itself.
    public var via: String?

    public init(id: Int64 = 0, at: Date, principal: String, action: AuditAction, fixKey: String? = nil, subject: String? = nil, note: String? = nil,
                before: String? = nil, after: String? = nil, via: String? = nil) {
        self.id = id
        self.at = at
        self.principal = principal
        self.action = action
        self.fixKey = fixKey
        self.subject = subject
        self.note = note
        self.before = before
        self.after = after
        self.via = via
    }
}
