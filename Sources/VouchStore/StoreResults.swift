import Foundation
import VouchDomain

/// A fix before and after a change.
public struct FixChange: Sendable {
    public var before: Fix
    public var after: Fix

    public init(before: Fix, after: Fix) {
        self.before = before
        self.after = after
    }

    /// Whether the fix moved through its lifecycle or got a new revision: what its criteria are looked at again for.
    public var isTransition: Bool { before.state != after.state || before.revision != after.revision }

    /// Whether what OFREP answers for the fix may have changed (its targets are changed elsewhere).
    public var changesFlagRule: Bool {
        isTransition || before.rolloutPercentage != after.rolloutPercentage || before.rolloutBucketing != after.rolloutBucketing
    }
}

/// A fix's direct targets after a change.
public struct TargetChange: Sendable {
    public var targets: [String]
    public var added: [String]
    public var removed: [String]
}

/// A tester before and after a change.
public struct TesterChange: Sendable {
    public var before: Tester
    public var after: Tester
}

/// What a withdrawal did.
public struct Withdrawal: Sendable {
    public var tester: Tester
    public var revokedTokenIDs: [String]
    public var feedbackUnlinked: Int
    public var feedbackDeleted: Int
}

/// The enrollments of a fix after a change.
public struct EnrollmentChange: Sendable {
    public var enrollments: [Enrollment]
    public var added: [String]
    public var removed: [String]
}

/// The records of a submission, and whether they were stored now or by an earlier request with the same key.
public struct FeedbackSubmission: Sendable {
    public var records: [Feedback]
    public var replayed: Bool
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
    /// The panels she is in: their names may say which assistive technology she uses.
    public var panels: [(panelID: String, name: String, addedBy: String, addedAt: Date)]
    public var feedback: [Feedback]
    public var tokens: [TokenRecord]
    /// The fixes her feedback is on, by key: her evidence names their titles and criteria.
    public var fixes: [String: Fix] = [:]
}
