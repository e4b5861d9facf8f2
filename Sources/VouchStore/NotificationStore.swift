import Foundation
import VouchDomain

/// The outbox of notifications by email (docs/notifications.md): queued in the transaction of the change that causes
/// them (`enroll(_:in:by:at:notifying:)`, `withdrawTester(_:purgeFeedback:by:at:notifying:)`), claimed under a lease,
/// attempted and retried like webhook deliveries.
public protocol NotificationStore: Sendable {
    /// Claims pending notifications due at `now`, oldest first, but those in `excluding`: each is leased to `owner`
    /// until `leaseUntil`, and no other vouchd on the database claims it before then.
    func claimNotifications(at now: Date, by owner: String, leaseUntil: Date, excluding: Set<String>, limit: Int) throws -> [MailNotification]
    /// When the next pending notification is due, if any.
    func nextNotificationDue() throws -> Date?
    /// Records how an attempt ended and ends the lease; a settled notification's address is erased. Throws
    /// `LeaseLost` when `owner` no longer holds the notification (another vouchd took it over, or it was cancelled).
    func recordNotificationAttempt(_ id: String, by owner: String, at time: Date, outcome: NotificationOutcome) throws -> MailNotification
    /// The outbox, newest last, without addresses.
    func notifications(status: MailNotification.Status?, after id: String?, limit: Int) throws -> [MailNotification]
    /// Switches one kind of mail off for a recipient and cancels what of that kind is queued for her.
    /// - Returns: false when the recipient no longer exists (withdrawn) and nothing was changed.
    func optOut(recipient: String, kind: NotificationKind, at time: Date) throws -> Bool
    /// Queues what `plan` makes of the recipients, outside any other change; a notification whose id is already in
    /// the outbox is not queued again, so a plan may be made more than once.
    func queueNotifications(_ plan: (NotificationRecipients) throws -> [MailNotification]) throws
    /// The kinds a recipient switched off.
    func optOuts(of recipient: String) throws -> Set<NotificationKind>
}
