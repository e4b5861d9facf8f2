import Foundation
import VouchDomain

/// A fix before and after a change, and the evaluation rule to swap into the snapshot.
public struct FixChange: Sendable {
    public var before: Fix
    public var after: Fix
    public var rule: FlagRule
}

/// A fix's direct targets after a change, and the evaluation rule to swap into the snapshot.
public struct TargetChange: Sendable {
    public var targets: [String]
    public var added: [String]
    public var removed: [String]
    public var rule: FlagRule
}

/// A tester before and after a change, and the rules of the fixes the change touches.
public struct TesterChange: Sendable {
    public var before: Tester
    public var after: Tester
    public var rules: [FlagRule]
}

/// What a withdrawal did.
public struct Withdrawal: Sendable {
    public var tester: Tester
    public var rules: [FlagRule]
    public var revokedTokenIDs: [String]
    public var feedbackUnlinked: Int
    public var feedbackDeleted: Int
}

/// The enrollments of a fix after a change, and its rule for the snapshot.
public struct EnrollmentChange: Sendable {
    public var enrollments: [Enrollment]
    public var added: [String]
    public var removed: [String]
    public var rule: FlagRule
}

/// The records of a submission, and whether they were stored now or by an earlier request with the same key.
public struct FeedbackSubmission: Sendable {
    public var records: [Feedback]
    public var replayed: Bool
    public var deliveriesEnqueued: Int = 0
    /// The fix and its latest feedback per tester as committed with this submission (nil when replayed).
    public var fix: Fix? = nil
    public var latest: [Feedback] = []
}

/// A feedback record with its position in the log, for paging.
public struct StoredFeedback: Sendable {
    public var seq: Int64
    public var feedback: Feedback
}

/// What a fix's evidence is made of on one revision.
public struct FeedbackEvidence: Sendable {
    public var latest: [Feedback]
    public var recordCount: Int
}

/// Everything Vouch stores about one tester.
public struct TesterExport: Sendable {
    public var tester: Tester
    public var enrollments: [(fixKey: String, enrolledBy: String, enrolledAt: Date)]
    public var feedback: [Feedback]
    public var tokens: [TokenRecord]
}
