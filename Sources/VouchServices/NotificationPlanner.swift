import Foundation
import VouchCrypto
import VouchDomain
import VouchMail
import VouchStore

/// Which notifications by email a change causes, and to whom, in her language (docs/notifications.md). The services
/// hand what it plans to the store, which queues it in the change's own transaction; the mail's words are written
/// when it is sent.
public struct NotificationPlanner: Sendable {
    /// Whether mail is configured (`notifications.smtp_url` and `notifications.from`): without it nothing is queued,
    /// so mail does not pile up to go out all at once, late, the day it is configured.
    public var enabled: Bool
    /// `console.default_language`: the language of a tester who never chose one.
    public var defaultLanguage: String

    public init(enabled: Bool, defaultLanguage: String) {
        self.enabled = enabled
        self.defaultLanguage = defaultLanguage
    }

    static func makeID() -> String { "ntf_" + SecureRandom.alphanumeric(count: 20) }

    /// Hers if she chose one (the language she read her consent in), else the console's.
    func language(of tester: Tester) -> String {
        tester.consent.language.flatMap { InvitationService.languages.contains($0) ? $0 : nil } ?? defaultLanguage
    }

    /// To each tester with an address: she was enrolled in the fix, what to try and where.
    func enrolled(_ testers: [Tester], in key: String, revision: Int?, at time: Date) -> [MailNotification] {
        guard enabled else { return [] }
        return testers.compactMap { tester in
            guard tester.isActive, let email = tester.email else { return nil }
            return MailNotification(id: NotificationPlanner.makeID(), kind: .testerEnrolled, recipient: tester.id, address: email,
                                    language: language(of: tester), fixKey: key, revision: revision, createdAt: time)
        }
    }

    /// What a fix's change tells whom: a new revision to its enrolled testers, its release to the testers who gave
    /// feedback on it, a failed promotion to the maintainers; read from the change's own transaction.
    func fixChanged(_ before: Fix, _ after: Fix, recipients: NotificationRecipients, at time: Date) throws -> [MailNotification] {
        guard enabled else { return [] }
        let key = after.key.rawValue
        if after.revision > before.revision, after.state == .testing {
            return testers(try recipients.enrolledTesters(of: key), .newRevision, fix: after, at: time)
        }
        if after.state == .released, before.state != .released {
            return testers(try recipients.testersWithFeedback(on: key), .fixReleased, fix: after, at: time)
        }
        if after.state == .promotionFailed, before.state != .promotionFailed {
            return try maintainers(.promotionFailed, fix: after, recipients: recipients, at: time)
        }
        return []
    }

    /// A fix whose evidence meets every criterion but the approvals, to the release managers: one mail each per
    /// revision, whose id says so, however often the criteria are looked at again.
    func readyForDecision(_ fix: Fix, recipients: NotificationRecipients, at time: Date) throws -> [MailNotification] {
        guard enabled else { return [] }
        return try recipients.staff(withRoles: [.releaseManager]).map { staff in
            let id = "ntf_" + Digest.hex(Digest.sha256("ready_for_decision\n\(fix.key.rawValue)\n\(fix.revision)\n\(staff.principal)")).prefix(24)
            return MailNotification(id: id, kind: .readyForDecision, recipient: staff.principal, address: staff.email, language: defaultLanguage,
                                    fixKey: fix.key.rawValue, revision: fix.revision, createdAt: time)
        }
    }

    /// A submission with a blocking report (a blocker, or a regression) is told to the maintainers, once per
    /// submission; which tester sent it is not said.
    func blockingReported(_ records: [Feedback], on fix: Fix, recipients: NotificationRecipients, at time: Date) throws -> [MailNotification] {
        guard enabled, records.contains(where: \.isBlocking) else { return [] }
        return try maintainers(.blockingReport, fix: fix, recipients: recipients, at: time)
    }

    private func maintainers(_ kind: NotificationKind, fix: Fix, recipients: NotificationRecipients, at time: Date) throws -> [MailNotification] {
        try recipients.staff(withRoles: [.maintainer]).map { staff in
            MailNotification(id: NotificationPlanner.makeID(), kind: kind, recipient: staff.principal, address: staff.email,
                             language: defaultLanguage, fixKey: fix.key.rawValue, revision: fix.revision, createdAt: time)
        }
    }

    private func testers(_ testers: [Tester], _ kind: NotificationKind, fix: Fix, at time: Date) -> [MailNotification] {
        testers.compactMap { tester in
            guard tester.isActive, let email = tester.email else { return nil }
            return MailNotification(id: NotificationPlanner.makeID(), kind: kind, recipient: tester.id, address: email,
                                    language: language(of: tester), fixKey: fix.key.rawValue, revision: fix.revision, createdAt: time)
        }
    }

    /// To a withdrawing tester with an address: it is done. Her pseudonym is not kept with it: the mail goes to the
    /// copy of her address, which is erased once it is sent.
    func withdrawal(of tester: Tester, at time: Date) -> [MailNotification] {
        guard enabled, let email = tester.email else { return [] }
        return [MailNotification(id: NotificationPlanner.makeID(), kind: .withdrawalDone, recipient: "withdrawn", address: email,
                                 language: language(of: tester), createdAt: time)]
    }

    /// What is wrong with an address given for mail, as a field error; none for no address.
    public static func emailErrors(_ email: String??, field: String = "email") -> [FieldError] {
        // Empty clears it; anything else must be an address as it stands, without blanks around it.
        guard let email, let email, !email.isEmpty else { return [] }
        do {
            _ = try MailAddress(email, for: .to)
            return []
        } catch {
            return [FieldError(field: field, message: "must be an email address such as ana@example.org: \(error.problem)")]
        }
    }
}
