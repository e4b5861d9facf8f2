import Foundation
import VouchDomain

/// Which testers are enrolled in which fix.
public protocol EnrollmentStore: Sendable {
    func enrollments(of key: String) throws -> [Enrollment]
    func enroll(_ testerIDs: [String], in key: String, by principal: Requester, at time: Date) throws -> EnrollmentChange
    func unenroll(_ testerIDs: [String], from key: String, by principal: Requester, at time: Date) throws -> EnrollmentChange
    /// The fix keys a tester is enrolled in.
    func enrolledFixes(of testerID: String) throws -> [String]
}
