import Foundation

/// What a notification by email is about; each kind can be switched off by its recipient on its own, but for the
/// mail that confirms a withdrawal (docs/notifications.md).
public enum NotificationKind: String, CaseIterable, Sendable {
    /// To a tester: she was enrolled in a fix, what to try and where.
    case testerEnrolled = "tester_enrolled"
    /// To a tester: a fix she tests has a new revision to try again.
    case newRevision = "new_revision"
    /// To a tester: a fix she gave feedback on was released to everyone.
    case fixReleased = "fix_released"
    /// To a tester: her withdrawal is done; sent once, to the address she had, after it was erased.
    case withdrawalDone = "withdrawal_done"
    /// To release managers: a fix's evidence meets its criteria and waits for their decision.
    case readyForDecision = "ready_for_decision"
    /// To maintainers: a tester reported a blocker or a regression on a fix.
    case blockingReport = "blocking_report"
    /// To maintainers: a fix's promotion failed (a required webhook did not take it).
    case promotionFailed = "promotion_failed"

    /// Whether the mail carries `List-Unsubscribe`: everything but the last mail a withdrawn tester gets.
    public var canUnsubscribe: Bool { self != .withdrawalDone }
}

/// One notification in the outbox: to whom, about what, in which language, and how sending it went.
///
/// `address` is a copy of the recipient's address taken when the notification was queued, so a withdrawal mail still
/// reaches her after her identity is erased; it is erased too once the notification is settled. `recipient` is the
/// pseudonym (`t_…`) of a tester, or `withdrawn` for the mail that confirms a withdrawal.
public struct MailNotification: Sendable, Equatable {
    public enum Status: String, Sendable, CaseIterable {
        case pending, sent, dead, cancelled
    }

    public var id: String
    public var kind: NotificationKind
    public var recipient: String
    public var address: String?
    /// `en` or `ja`: the recipient's language.
    public var language: String
    public var fixKey: String?
    public var revision: Int?
    public var status: Status
    public var attempts: Int
    public var nextAttemptAt: Date?
    public var lastError: String?
    public var createdAt: Date
    public var updatedAt: Date

    public init(id: String, kind: NotificationKind, recipient: String, address: String?, language: String, fixKey: String? = nil,
                revision: Int? = nil, status: Status = .pending, attempts: Int = 0, nextAttemptAt: Date? = nil, lastError: String? = nil,
                createdAt: Date, updatedAt: Date? = nil) {
        self.id = id
        self.kind = kind
        self.recipient = recipient
        self.address = address
        self.language = language
        self.fixKey = fixKey
        self.revision = revision
        self.status = status
        self.attempts = attempts
        self.nextAttemptAt = nextAttemptAt ?? (status == .pending ? createdAt : nil)
        self.lastError = lastError
        self.createdAt = createdAt
        self.updatedAt = updatedAt ?? createdAt
    }
}

/// How one attempt at sending a notification ended, as the outbox records it.
public enum NotificationOutcome: Sendable, Equatable {
    case sent
    case retry(at: Date, error: String)
    case dead(error: String)
}
