import Foundation
import VouchDomain

/// What a fix's criteria are evaluated on (`CriteriaEvaluator.Input` without the settings and the time), read in one
/// transaction: the check after every submission of feedback read them in five.
public struct CriteriaRecords: Sendable {
    /// The latest feedback per tester on the fix's current revision.
    public var latest: [Feedback]
    /// For each approval of that revision, the first failing feedback at or after it (by time, then seq), once
    /// each, in that order: what voids an approval (`CriteriaEvaluator.standing(of:input:)`).
    public var failing: [(id: String, recordedAt: Date)]
    public var approvals: [Approval]
    /// Who shaped the current revision.
    public var authors: [RevisionAuthor]

    public init(latest: [Feedback], failing: [(id: String, recordedAt: Date)], approvals: [Approval], authors: [RevisionAuthor]) {
        self.latest = latest
        self.failing = failing
        self.approvals = approvals
        self.authors = authors
    }
}
