import Foundation

/// A release manager's recorded decision on one revision of a fix.
public struct Approval: Sendable, Equatable {
    public enum Decision: String, Sendable, CaseIterable {
        case approve
        case reject
    }

    public var id: String
    public var fixKey: String
    public var revision: Int
    public var principal: String
    public var decision: Decision
    public var comment: String?
    /// A fingerprint of the evidence the approver saw (`EvidenceFingerprint`).
    public var evidenceHash: String
    public var recordedAt: Date

    public init(id: String, fixKey: String, revision: Int, principal: String, decision: Decision, comment: String?, evidenceHash: String,
                recordedAt: Date) {
        self.id = id
        self.fixKey = fixKey
        self.revision = revision
        self.principal = principal
        self.decision = decision
        self.comment = comment
        self.evidenceHash = evidenceHash
        self.recordedAt = recordedAt
    }
}

/// Whether an approval still counts, and if not, why.
public enum ApprovalStanding: Sendable, Equatable {
    case valid
    case otherRevision(Int)
    case expired(at: Date)
    case voidedByFailingFeedback(feedbackID: String)

    public var isValid: Bool { self == .valid }

    public var explanation: String {
        switch self {
        case .valid: "valid"
        case .otherRevision(let revision): "given for revision \(revision), not the current one"
        case .expired(let time): "expired at \(time.formatted(.iso8601))"
        case .voidedByFailingFeedback(let id): "voided by failing feedback \(id) recorded after it"
        }
    }
}
