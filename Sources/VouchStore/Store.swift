import Foundation
import VouchDomain
import VouchIdentity

/// Everything `vouchd` keeps, behind one interface so another backend (PostgreSQL) can be added later.
///
/// Every mutation writes its audit event in the same transaction and has committed durably when the call returns;
/// by then what it changed has been published to `changes` (a mutation that fails publishes nothing).
public protocol Store: Sendable {
    /// What each committed write changed, for the parts of the process that keep copies of stored state.
    var changes: ChangeFeed { get }
    /// The configuration revision: bumped by every transaction that changes a flag rule, a token or a fix's criteria.
    func configurationRevision() throws -> Int64
    /// What each revision after `revision` changed, oldest first: how another process catches up from a revision.
    func configurationChanges(since revision: Int64) throws -> [ConfigurationChange]
    /// Whether other vouchd share the database (PostgreSQL); they then follow each other's changes.
    var isShared: Bool { get }
    /// Publishes on `changes` what other processes changed of flags, tokens and criteria after `revision`.
    /// - Returns: the revision now reached.
    func followOtherProcesses(from revision: Int64) throws -> Int64
    /// Returns when another process announces a configuration change, or once `timeout` has passed.
    func waitForAnnouncement(timeout: Duration) throws
    /// Runs `body` while this process holds `lock` among all sharing the database; nil when another holds it.
    func whileHolding<T: Sendable>(_ lock: SharedLock, lease: Duration, _ body: (_ stillHeld: () -> Bool) throws -> T) throws -> T?

    func createFix(_ fix: Fix, by principal: Requester, emitting events: [WebhookEvent]) throws -> Fix
    func fix(_ key: String) throws -> Fix?
    /// Fixes ordered by key, after the given key, at most `limit`.
    func fixes(state: FixState?, after key: String?, limit: Int) throws -> [Fix]
    /// Reads the fix, applies `change` inside the write transaction, stores and audits the result, and puts the
    /// events `emitting` returns in the outbox in the same transaction.
    func updateFix(_ key: String, action: AuditAction, by principal: Requester, note: String?, emitting: (Fix, Fix) -> [WebhookEvent],
                   _ change: (Fix) throws -> Fix) throws -> FixChange

    func targets(of key: String) throws -> [String]
    func changeTargets(of key: String, adding: [String], removing: [String], by principal: Requester, at time: Date) throws -> TargetChange

    /// Every fix's evaluation rule, for building the OFREP snapshot at start.
    func flagRules() throws -> [FlagRule]

    func createToken(_ token: TokenRecord, principal: (name: PrincipalName, field: String)?, by requester: Requester) throws
    /// Creates the token only when the database has no token at all (the first admin token, which several vouchd
    /// starting together on one database may each try to make); returns whether it did.
    func createFirstToken(_ token: TokenRecord, principal: (name: PrincipalName, field: String)?) throws -> Bool
    func tokens(after id: String?, limit: Int) throws -> [TokenRecord]
    func activeTokens() throws -> [TokenRecord]
    /// The SHA-256 of every revoked token's secret, so a revoked token is told apart from a guess.
    func revokedTokenHashes() throws -> [[UInt8]]
    func revokeToken(_ id: String, by principal: Requester, at time: Date) throws -> TokenRecord
    func tokenCount() throws -> Int
    /// Fixes by state, feedback by verdict and webhook deliveries by status, for `/metrics`.
    func operationalCounts() throws -> OperationalCounts

    func auditEvents(fix key: String?, after id: Int64?, limit: Int) throws -> [AuditEvent]
    /// Who shaped the fix's current revision and so may not decide on it (four-eyes).
    func revisionAuthors(of fix: Fix) throws -> [RevisionAuthor]

    func createTester(_ tester: Tester, by principal: Requester) throws -> Tester
    func tester(_ id: String) throws -> Tester?
    func testers(after id: String?, limit: Int) throws -> [Tester]
    /// Applies `change` inside the write transaction.
    func updateTester(_ id: String, by principal: Requester, _ change: (Tester) throws -> Tester) throws -> TesterChange
    /// Erases the tester's personal data, keys, enrollments and comments in one transaction, and revokes their tokens.
    func withdrawTester(_ id: String, purgeFeedback: Bool, by principal: Requester, at time: Date) throws -> Withdrawal
    /// Everything stored about one tester (GDPR Art. 15).
    func exportTester(_ id: String) throws -> TesterExport
    /// The fix keys a tester is enrolled in.
    func enrolledFixes(of testerID: String) throws -> [String]

    func enrollments(of key: String) throws -> [Enrollment]
    func enroll(_ testerIDs: [String], in key: String, by principal: Requester, at time: Date) throws -> EnrollmentChange
    func unenroll(_ testerIDs: [String], from key: String, by principal: Requester, at time: Date) throws -> EnrollmentChange

    /// Stores a submission's records in one transaction: reads the fix inside it, hands it to `build`, which makes the
    /// records against it (or throws), then checks that the fix takes feedback at the records' revision and every
    /// tester is active and enrolled. A replayed idempotency claim returns the records first stored under it.
    func submitFeedback(to key: String, by requester: Requester, idempotency: IdempotencyClaim?,
                        _ build: @escaping @Sendable (Fix) throws -> [Feedback],
                        emitting: @escaping @Sendable (_ stored: [Feedback], _ latest: [Feedback], Fix) -> [WebhookEvent]) throws -> FeedbackSubmission
    func feedback(of key: String, tester: String?, revision: Int?, after seq: Int64?, limit: Int) throws -> [StoredFeedback]
    /// The latest feedback per tester on one revision, and how many records that revision has.
    func feedbackEvidence(of key: String, revision: Int) throws -> FeedbackEvidence
    /// The latest feedback per tester on one revision: what the criteria look at, without counting every record.
    func latestFeedback(of key: String, revision: Int) throws -> [Feedback]
    /// Every failing feedback on one revision, for voiding approvals given before it.
    func failingFeedback(of key: String, revision: Int) throws -> [(id: String, recordedAt: Date)]

    /// Records a decision; one per principal and revision.
    func recordApproval(_ approval: Approval, by requester: Requester, replacing: String?, emitting events: [WebhookEvent]) throws
    func approvals(of key: String) throws -> [Approval]
    /// Fixes in a state the promotion timer looks at (testing, promoting, releasing…).
    func fixes(in states: [FixState]) throws -> [Fix]

    func createEndpoint(_ endpoint: WebhookEndpoint, by requester: Requester) throws
    func endpoints(after id: String?, limit: Int) throws -> [WebhookEndpoint]
    func endpoint(_ id: String) throws -> WebhookEndpoint?
    func updateEndpoint(_ id: String, by principal: Requester, _ change: (WebhookEndpoint) throws -> WebhookEndpoint) throws -> WebhookEndpoint
    func deleteEndpoint(_ id: String, by principal: Requester, at time: Date) throws
    /// Puts events in the outbox outside any fix change (a test event).
    func enqueue(_ events: [WebhookEvent], onlyTo endpointID: String?, by requester: Requester) throws -> [String]

    /// Claims pending deliveries due at `now`, oldest first, excluding ids already being sent: each is leased to
    /// `owner` until `leaseUntil`, and no other process sharing the database claims it before then.
    func claimDeliveries(at now: Date, by owner: String, leaseUntil: Date, excluding: Set<String>, limit: Int) throws -> [DeliveryJob]
    /// When the next pending delivery is due, if any.
    func nextDeliveryDue() throws -> Date?
    /// Records one attempt and its decision in one transaction, and ends the delivery's lease; throws `LeaseLost`
    /// when the attempt's process no longer holds it.
    func recordAttempt(_ attempt: DeliveryAttempt) throws -> WebhookDelivery
    func deliveries(endpoint: String?, status: WebhookDelivery.Status?, after id: String?, limit: Int) throws -> [WebhookDelivery]
    func deliveries(ofEvent eventID: String) throws -> [WebhookDelivery]
    /// Puts a dead delivery back in the queue with a fresh set of attempts.
    func redeliver(_ id: String, by principal: Requester, at time: Date) throws -> WebhookDelivery

    /// The signing key called `name`, made with `generate` by the first caller and the same for every caller after.
    func serverKey(named name: String, generate: () -> [UInt8]) throws -> [UInt8]

    /// Testers' personal console links: created for an active tester, listed, found by the SHA-256 of the secret,
    /// revoked (which ends the sessions the link opened). Withdrawal deletes them.
    func createTesterLink(_ link: TesterLink, by requester: Requester) throws
    func testerLinks(of testerID: String) throws -> [TesterLink]
    func testerLink(secretSHA256: [UInt8]) throws -> TesterLink?
    func revokeTesterLink(_ id: String, of testerID: String, by principal: Requester, at time: Date) throws -> TesterLink
    /// Console sessions by the SHA-256 of their cookie. Revoking the token a session signed in with deletes it.
    func createConsoleSession(_ session: ConsoleSession, by requester: Requester, keepingAtMost bounds: ConsoleSession.Bounds) throws
    func consoleSessionCount(link id: String) throws -> Int
    func consoleSession(idSHA256: [UInt8], at time: Date) throws -> ConsoleSession?
    func touchConsoleSession(idSHA256: [UInt8], at time: Date) throws
    func deleteConsoleSession(idSHA256: [UInt8]) throws
    @discardableResult
    func deleteStaleConsoleSessions(at time: Date, idleBefore: Date) throws -> Int
    /// A tester's answers between the feedback pages, per session and fix.
    func consoleDraft(session idSHA256: [UInt8], fix key: String) throws -> String?
    func saveConsoleDraft(session idSHA256: [UInt8], fix key: String, answers: String, at time: Date) throws
    func deleteConsoleDraft(session idSHA256: [UInt8], fix key: String) throws
}

extension Store {
    public func updateFix(_ key: String, action: AuditAction, by principal: Requester, note: String?, _ change: (Fix) throws -> Fix) throws -> FixChange {
        try updateFix(key, action: action, by: principal, note: note, emitting: { _, _ in [] }, change)
    }

    public func createFix(_ fix: Fix, by principal: Requester) throws -> Fix {
        try createFix(fix, by: principal, emitting: [])
    }

    /// Stores records already made against the fix as the caller read it.
    public func submitFeedback(_ records: [Feedback], by requester: Requester, idempotency: IdempotencyClaim?,
                               emitting: @escaping @Sendable (_ stored: [Feedback], _ latest: [Feedback], Fix) -> [WebhookEvent]) throws -> FeedbackSubmission {
        try submitFeedback(to: records.first?.fixKey ?? "", by: requester, idempotency: idempotency, { _ in records }, emitting: emitting)
    }

    public func submitFeedback(_ records: [Feedback], by requester: Requester, idempotency: IdempotencyClaim?) throws -> FeedbackSubmission {
        try submitFeedback(records, by: requester, idempotency: idempotency, emitting: { _, _, _ in [] })
    }
}
