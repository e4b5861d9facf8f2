import Foundation
import Testing
import VouchDomain
@testable import VouchStore

/// The outbox of notifications by email, on each database: queued in the transaction of the change, claimed under a
/// lease, settled with the address erased, switched off by kind, and gone with a withdrawing tester.
struct StoreNotificationTests {
    let time = StoreFixtures.time
    let key = "tv-channel-selector-labels"

    func mail(_ id: String, _ kind: NotificationKind = .testerEnrolled, to recipient: String, address: String = "aiko@example.org") -> MailNotification {
        MailNotification(id: id, kind: kind, recipient: recipient, address: address, language: "ja", fixKey: key, revision: 1, createdAt: time)
    }

    @Test(arguments: StoreBackend.allCases)
    func anEnrollmentQueuesItsMailWhichOneOwnerAtATimeSends(backend: StoreBackend) throws {
        try backend.withStore { store in
            _ = try store.createFix(try StoreFixtures.fix(), by: "maria")
            _ = try store.createTester(StoreFixtures.tester("t_a", keys: []), by: "maria")
            // A refused enrollment queues nothing: the mail is in the same transaction.
            #expect(throws: ValidationFailure.self) {
                try store.enroll(["t_a", "t_nobody"], in: self.key, by: "maria", at: self.time) { _ in [self.mail("ntf_lost", to: "t_a")] }
            }
            #expect(try store.notifications(status: nil, after: nil, limit: 10).isEmpty)
            var offered: [String] = []
            _ = try store.enroll(["t_a"], in: key, by: "maria", at: time) { added in
                offered = added
                return [self.mail("ntf_1", to: "t_a")]
            }
            #expect(offered == ["t_a"])
            #expect(try store.nextNotificationDue() == time)
            let lease = time.addingTimeInterval(30)
            let claimed = try store.claimNotifications(at: time, by: "one", leaseUntil: lease, excluding: [], limit: 5)
            #expect(claimed.map(\.id) == ["ntf_1"] && claimed.first?.address == "aiko@example.org" && claimed.first?.language == "ja")
            #expect(try store.claimNotifications(at: time, by: "two", leaseUntil: lease, excluding: [], limit: 5).isEmpty, "leased to one")
            #expect(try store.nextNotificationDue() == lease)
            #expect(throws: LeaseLost.self) { try store.recordNotificationAttempt("ntf_1", by: "two", at: self.time, outcome: .sent) }
            let retry = time.addingTimeInterval(5)
            let retried = try store.recordNotificationAttempt("ntf_1", by: "one", at: time, outcome: .retry(at: retry, error: "SMTP failed"))
            #expect(retried.status == .pending && retried.attempts == 1 && retried.nextAttemptAt == retry && retried.address != nil)
            #expect(try store.claimNotifications(at: time, by: "two", leaseUntil: lease, excluding: [], limit: 5).isEmpty, "not due yet")
            let again = try store.claimNotifications(at: retry, by: "two", leaseUntil: retry.addingTimeInterval(30), excluding: [], limit: 5)
            #expect(again.map(\.id) == ["ntf_1"])
            let sent = try store.recordNotificationAttempt("ntf_1", by: "two", at: retry, outcome: .sent)
            #expect(sent.status == .sent && sent.attempts == 2 && sent.address == nil, "the copy of her address goes once it is sent")
            #expect(try store.nextNotificationDue() == nil)
            #expect(try store.notifications(status: .sent, after: nil, limit: 10).map(\.id) == ["ntf_1"])
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func anOptOutCancelsThatKindAndAWithdrawalLeavesOnlyItsOwnMail(backend: StoreBackend) throws {
        try backend.withStore { store in
            _ = try store.createFix(try StoreFixtures.fix(), by: "maria")
            for id in ["t_a", "t_b"] { _ = try store.createTester(StoreFixtures.tester(id, keys: []), by: "maria") }
            _ = try store.enroll(["t_a", "t_b"], in: key, by: "maria", at: time) { _ in [self.mail("ntf_a", to: "t_a"), self.mail("ntf_b", to: "t_b")] }
            #expect(try store.optOut(recipient: "t_a", kind: .testerEnrolled, at: time))
            #expect(try store.optOuts(of: "t_a") == [.testerEnrolled])
            #expect(try store.notifications(status: .cancelled, after: nil, limit: 10).map(\.id) == ["ntf_a"])
            // Switched off: the next one of that kind is not queued at all.
            _ = try store.unenroll(["t_a"], from: key, by: "maria", at: time)
            _ = try store.enroll(["t_a"], in: key, by: "maria", at: time) { _ in [self.mail("ntf_a2", to: "t_a")] }
            #expect(try store.notifications(status: nil, after: nil, limit: 10).map(\.id) == ["ntf_a", "ntf_b"])

            _ = try store.withdrawTester("t_b", purgeFeedback: false, by: "maria", at: time) { before in
                [MailNotification(id: "ntf_w", kind: .withdrawalDone, recipient: "withdrawn", address: before.email ?? "b@example.org",
                                  language: "en", createdAt: self.time)]
            }
            let left = try store.notifications(status: nil, after: nil, limit: 10)
            #expect(left.map(\.id) == ["ntf_a", "ntf_w"], "what was queued for her is gone, and her withdrawal's mail queued")
            #expect(try store.claimNotifications(at: time, by: "one", leaseUntil: time.addingTimeInterval(30), excluding: [], limit: 5)
                .first?.address == "b@example.org", "sendable after her identity is erased")
            #expect(try !store.optOut(recipient: "t_b", kind: .testerEnrolled, at: time), "a withdrawn tester has no choices left to keep")
            #expect(try store.optOuts(of: "t_b").isEmpty)
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func aPlanMadeTwiceIsQueuedOnceAndStaffAreFoundByTheirTokensAddress(backend: StoreBackend) throws {
        try backend.withStore { store in
            for (id, name, role, email) in [("tok_a", "rita", Role.releaseManager, "rita@example.org"), ("tok_b", "rita", .releaseManager, "rita@example.org"),
                                            ("tok_c", "sam", .releaseManager, nil), ("tok_d", "mia", .maintainer, "mia@example.org")] {
                let token = TokenRecord(id: id, name: name, principalName: name, role: role, secretSHA256: Array(id.utf8), createdBy: "maria",
                                        createdAt: time, email: email)
                try store.createToken(token, principal: nil, by: "maria")
            }
            var found: [NotificationRecipients.Staff] = []
            for _ in 0..<2 {
                try store.queueNotifications { recipients in
                    found = try recipients.staff(withRoles: [.releaseManager])
                    return found.map { MailNotification(id: "ntf_ready_\($0.principal)", kind: .readyForDecision, recipient: $0.principal,
                                                        address: $0.email, language: "en", fixKey: self.key, revision: 1, createdAt: self.time) }
                }
            }
            #expect(found == [NotificationRecipients.Staff(principal: "rita", email: "rita@example.org")], "one entry per principal, only with an address")
            #expect(try store.notifications(status: nil, after: nil, limit: 10).map(\.id) == ["ntf_ready_rita"])
            #expect(try store.optOut(recipient: "rita", kind: .readyForDecision, at: time))
            #expect(try !store.optOut(recipient: "sam", kind: .readyForDecision, at: time), "no address, nothing to switch off")
        }
    }
}
