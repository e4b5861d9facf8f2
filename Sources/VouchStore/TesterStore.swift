import Foundation
import VouchDomain

/// Testers: their records, withdrawal (erasure) and export of everything stored about one.
public protocol TesterStore: Sendable {
    func createTester(_ tester: Tester, by principal: Requester) throws -> Tester
    func tester(_ id: String) throws -> Tester?
    func testers(after id: String?, limit: Int) throws -> [Tester]
    /// Applies `change` inside the write transaction.
    func updateTester(_ id: String, by principal: Requester, _ change: (Tester) throws -> Tester) throws -> TesterChange
    /// Erases the tester's personal data, keys, enrollments, panel memberships and comments in one transaction, and
    /// revokes their tokens.
    /// - Parameter notifying: the notifications to queue in the same transaction, from the tester as she was.
    func withdrawTester(_ id: String, purgeFeedback: Bool, by principal: Requester, at time: Date,
                        notifying: (Tester) throws -> [MailNotification]) throws -> Withdrawal
    /// Everything stored about one tester (GDPR Art. 15).
    func exportTester(_ id: String) throws -> TesterExport
}

extension TesterStore {
    /// A withdrawal that queues no mail.
    public func withdrawTester(_ id: String, purgeFeedback: Bool, by principal: Requester, at time: Date) throws -> Withdrawal {
        try withdrawTester(id, purgeFeedback: purgeFeedback, by: principal, at: time, notifying: { _ in [] })
    }
}
