import Foundation
import VouchDomain

/// Which testers are enrolled in which fix.
public protocol EnrollmentStore: Sendable {
    func enrollments(of key: String) throws -> [Enrollment]
    /// Enrolls the testers, and the members of the panels who have not withdrawn, those not enrolled yet; refused with a
    /// `FieldError` per tester or panel that does not exist, and per tester who withdrew.
    /// - Parameter notifying: the notifications to queue in the same transaction, given the testers newly enrolled.
    func enroll(_ testerIDs: [String], panels: [String], in key: String, by principal: Requester, at time: Date,
                notifying: ([String]) throws -> [MailNotification]) throws -> EnrollmentChange
    func unenroll(_ testerIDs: [String], from key: String, by principal: Requester, at time: Date) throws -> EnrollmentChange
    /// The fix keys a tester is enrolled in.
    func enrolledFixes(of testerID: String) throws -> [String]
}

extension EnrollmentStore {
    /// An enrollment of testers alone that queues no mail.
    public func enroll(_ testerIDs: [String], in key: String, by principal: Requester, at time: Date) throws -> EnrollmentChange {
        try enroll(testerIDs, panels: [], in: key, by: principal, at: time, notifying: { _ in [] })
    }

    /// An enrollment of testers alone.
    public func enroll(_ testerIDs: [String], in key: String, by principal: Requester, at time: Date,
                       notifying: ([String]) throws -> [MailNotification]) throws -> EnrollmentChange {
        try enroll(testerIDs, panels: [], in: key, by: principal, at: time, notifying: notifying)
    }

    /// An enrollment that queues no mail.
    public func enroll(_ testerIDs: [String], panels: [String], in key: String, by principal: Requester, at time: Date) throws -> EnrollmentChange {
        try enroll(testerIDs, panels: panels, in: key, by: principal, at: time, notifying: { _ in [] })
    }
}
