import Foundation
import VouchDomain

/// Everything `vouchd` keeps, behind one interface so another backend (PostgreSQL) can be added later.
///
/// Every mutation writes its audit event in the same transaction and has committed durably when the call returns.
public protocol Store: Sendable {
    func createFix(_ fix: Fix, by principal: String, emitting events: [WebhookEvent]) throws -> Fix
    func fix(_ key: String) throws -> Fix?
    /// Fixes ordered by key, after the given key, at most `limit`.
    func fixes(state: FixState?, after key: String?, limit: Int) throws -> [Fix]
    /// Reads the fix, applies `change` inside the write transaction, stores and audits the result, and puts the
    /// events `emitting` returns in the outbox in the same transaction.
    func updateFix(_ key: String, action: String, by principal: String, note: String?, emitting: (Fix, Fix) -> [WebhookEvent],
                   _ change: (Fix) throws -> Fix) throws -> FixChange

    func targets(of key: String) throws -> [String]
    func changeTargets(of key: String, adding: [String], removing: [String], by principal: String, at time: Date) throws -> TargetChange

    /// Every fix's evaluation rule, for building the OFREP snapshot at start.
    func flagRules() throws -> [FlagRule]

    func createToken(_ token: TokenRecord) throws
    func tokens(after id: String?, limit: Int) throws -> [TokenRecord]
    func activeTokens() throws -> [TokenRecord]
    func revokeToken(_ id: String, by principal: String, at time: Date) throws -> TokenRecord
    func tokenCount() throws -> Int

    func auditEvents(fix key: String?, after id: Int64?, limit: Int) throws -> [AuditEvent]

    func createTester(_ tester: Tester, by principal: String) throws -> Tester
    func tester(_ id: String) throws -> Tester?
    func testers(after id: String?, limit: Int) throws -> [Tester]
    /// Applies `change` inside the write transaction; returns the rules of the fixes the tester is enrolled in.
    func updateTester(_ id: String, by principal: String, _ change: (Tester) throws -> Tester) throws -> TesterChange
    /// Erases the tester's personal data, keys, enrollments and comments in one transaction, and revokes their tokens.
    func withdrawTester(_ id: String, purgeFeedback: Bool, by principal: String, at time: Date) throws -> Withdrawal
    /// Everything stored about one tester (GDPR Art. 15).
    func exportTester(_ id: String) throws -> TesterExport
    /// The fix keys a tester is enrolled in.
    func enrolledFixes(of testerID: String) throws -> [String]

    func enrollments(of key: String) throws -> [Enrollment]
    func enroll(_ testerIDs: [String], in key: String, by principal: String, at time: Date) throws -> EnrollmentChange
    func unenroll(_ testerIDs: [String], from key: String, by principal: String, at time: Date) throws -> EnrollmentChange

    /// Stores a submission's records in one transaction after checking, inside it, that the fix still takes feedback
    /// at the records' revision and every tester is active and enrolled.
    func submitFeedback(_ records: [Feedback], idempotency: IdempotencyClaim?,
                        emitting: @escaping @Sendable (_ stored: [Feedback], _ latest: [Feedback], Fix) -> [WebhookEvent]) throws -> FeedbackSubmission
    func feedback(of key: String, tester: String?, revision: Int?, after seq: Int64?, limit: Int) throws -> [StoredFeedback]
    /// The latest feedback per tester on one revision, and how many records that revision has.
    func feedbackEvidence(of key: String, revision: Int) throws -> FeedbackEvidence
    /// The latest feedback per tester on one revision: what the criteria look at, without counting every record.
    func latestFeedback(of key: String, revision: Int) throws -> [Feedback]
    /// Every failing feedback on one revision, for voiding approvals given before it.
    func failingFeedback(of key: String, revision: Int) throws -> [(id: String, recordedAt: Date)]

    /// Records a decision; one per principal and revision.
    func recordApproval(_ approval: Approval, emitting events: [WebhookEvent]) throws
    func approvals(of key: String) throws -> [Approval]
    /// Fixes in a state the promotion timer looks at (testing, promoting, releasing…).
    func fixes(in states: [FixState]) throws -> [Fix]

    func createEndpoint(_ endpoint: WebhookEndpoint) throws
    func endpoints(after id: String?, limit: Int) throws -> [WebhookEndpoint]
    func endpoint(_ id: String) throws -> WebhookEndpoint?
    func updateEndpoint(_ id: String, by principal: String, _ change: (WebhookEndpoint) throws -> WebhookEndpoint) throws -> WebhookEndpoint
    func deleteEndpoint(_ id: String, by principal: String, at time: Date) throws
    /// Puts events in the outbox outside any fix change (a test event).
    func enqueue(_ events: [WebhookEvent], onlyTo endpointID: String?) throws -> [String]

    /// Pending deliveries due at `now`, oldest first, excluding ids already being sent.
    func dueDeliveries(at now: Date, excluding: Set<String>, limit: Int) throws -> [DeliveryJob]
    /// When the next pending delivery is due, if any.
    func nextDeliveryDue() throws -> Date?
    /// Records one attempt and its decision in one transaction.
    func recordAttempt(_ attempt: DeliveryAttempt) throws -> WebhookDelivery
    func deliveries(endpoint: String?, status: WebhookDelivery.Status?, after id: String?, limit: Int) throws -> [WebhookDelivery]
    func deliveries(ofEvent eventID: String) throws -> [WebhookDelivery]
    /// Puts a dead delivery back in the queue with a fresh set of attempts.
    func redeliver(_ id: String, by principal: String, at time: Date) throws -> WebhookDelivery
}

extension Store {
    public func updateFix(_ key: String, action: String, by principal: String, note: String?, _ change: (Fix) throws -> Fix) throws -> FixChange {
        try updateFix(key, action: action, by: principal, note: note, emitting: { _, _ in [] }, change)
    }

    public func createFix(_ fix: Fix, by principal: String) throws -> Fix {
        try createFix(fix, by: principal, emitting: [])
    }

    public func submitFeedback(_ records: [Feedback], idempotency: IdempotencyClaim?) throws -> FeedbackSubmission {
        try submitFeedback(records, idempotency: idempotency, emitting: { _, _, _ in [] })
    }
}

/// A delivery ready to send: where, what, and with which secret.
public struct DeliveryJob: Sendable {
    public var delivery: WebhookDelivery
    public var url: String
    public var secret: String
    public var body: [UInt8]
}

/// The outcome of one attempt, as the worker reports it.
public struct DeliveryAttempt: Sendable {
    public var deliveryID: String
    public var number: Int
    public var at: Date
    public var statusCode: Int?
    public var error: String?
    public var durationMilliseconds: Int
    public var decision: DeliveryDecision

    public init(deliveryID: String, number: Int, at: Date, statusCode: Int?, error: String?, durationMilliseconds: Int, decision: DeliveryDecision) {
        self.deliveryID = deliveryID
        self.number = number
        self.at = at
        self.statusCode = statusCode
        self.error = error
        self.durationMilliseconds = durationMilliseconds
        self.decision = decision
    }
}

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

/// What the store refuses, in words a client can act on.
public enum StoreError: Error, Sendable, Equatable {
    case notFound(kind: String, id: String)
    case alreadyExists(kind: String, id: String)
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

/// One tester enrolled in one fix.
public struct Enrollment: Sendable, Equatable {
    public var testerID: String
    public var enrolledBy: String
    public var enrolledAt: Date
}

/// The enrollments of a fix after a change, and its rule for the snapshot.
public struct EnrollmentChange: Sendable {
    public var enrollments: [Enrollment]
    public var added: [String]
    public var removed: [String]
    public var rule: FlagRule
}

/// An `Idempotency-Key` as a principal sent it, with the fingerprint of the request it came with.
public struct IdempotencyClaim: Sendable {
    public var principal: String
    public var key: String
    public var requestSHA256: [UInt8]

    public init(principal: String, key: String, requestSHA256: [UInt8]) {
        self.principal = principal
        self.key = key
        self.requestSHA256 = requestSHA256
    }
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

/// Why a submission or enrollment was refused by state, worded for the client (409).
public struct StoreConflict: Error, Sendable, Equatable, CustomStringConvertible {
    public var description: String

    public init(_ description: String) {
        self.description = description
    }
}

/// Everything Vouch stores about one tester.
public struct TesterExport: Sendable {
    public var tester: Tester
    public var enrollments: [(fixKey: String, enrolledBy: String, enrolledAt: Date)]
    public var feedback: [Feedback]
    public var tokens: [TokenRecord]
}
