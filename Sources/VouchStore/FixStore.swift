import Foundation
import VouchDomain

/// Fixes: their lifecycle, criteria and evaluation rules.
public protocol FixStore: Sendable {
    func createFix(_ fix: Fix, by principal: Requester, emitting events: [WebhookEvent]) throws -> Fix
    func fix(_ key: String) throws -> Fix?
    /// Fixes ordered by key, after the given key, at most `limit`.
    func fixes(state: FixState?, after key: String?, limit: Int) throws -> [Fix]
    /// Fixes in a state the promotion timer looks at (testing, promoting, releasing…).
    func fixes(in states: [FixState]) throws -> [Fix]
    /// Reads the fix, applies `change` inside the write transaction, stores and audits the result, and puts the
    /// events `emitting` returns, and the notifications by email `notifying` plans, in their outboxes in the same
    /// transaction.
    func updateFix(_ key: String, action: AuditAction, by principal: Requester, note: String?, emitting: (Fix, Fix) -> [WebhookEvent],
                   notifying: (Fix, Fix, NotificationRecipients) throws -> [MailNotification],
                   _ change: (Fix) throws -> Fix) throws -> FixChange
    /// Every fix's evaluation rule, for building the OFREP snapshot at start.
    func flagRules() throws -> [FlagRule]
}

extension FixStore {
    public func updateFix(_ key: String, action: AuditAction, by principal: Requester, note: String?, emitting: (Fix, Fix) -> [WebhookEvent],
                          _ change: (Fix) throws -> Fix) throws -> FixChange {
        try updateFix(key, action: action, by: principal, note: note, emitting: emitting, notifying: { _, _, _ in [] }, change)
    }

    public func updateFix(_ key: String, action: AuditAction, by principal: Requester, note: String?, _ change: (Fix) throws -> Fix) throws -> FixChange {
        try updateFix(key, action: action, by: principal, note: note, emitting: { _, _ in [] }, change)
    }

    public func createFix(_ fix: Fix, by principal: Requester) throws -> Fix {
        try createFix(fix, by: principal, emitting: [])
    }
}
