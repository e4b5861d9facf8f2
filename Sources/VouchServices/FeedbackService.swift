import Foundation
import VouchCrypto
import VouchDomain
import VouchJSON
import VouchStore

/// Testers' structured reports on a fix: submitted by the tester or on her behalf, listed, and summed up.
public struct FeedbackService: Sendable {
    let store: any FeedbackStore & FixStore & EnrollmentStore
    let clock: @Sendable () -> Date
    let notifications: NotificationPlanner

    /// The most records one submission may carry.
    public static let maxRecordsPerSubmission = 500

    /// A submission's idempotency key, with the bytes of the request it came with: the same key with other bytes is
    /// refused, the same key with the same bytes returns the records first stored.
    public struct Idempotency: Sendable {
        public var key: String
        public var request: [UInt8]

        public init(key: String, request: [UInt8]) {
            self.key = key
            self.request = request
        }
    }

    public init(store: any FeedbackStore & FixStore & EnrollmentStore,
                notifications: NotificationPlanner = NotificationPlanner(enabled: false, defaultLanguage: "en"),
                clock: @escaping @Sendable () -> Date) {
        self.notifications = notifications
        self.store = store
        self.clock = clock
    }

    static func makeID() -> String { "fb_" + SecureRandom.alphanumeric(count: 16) }

    /// Stores every draft or none, each checked against the fix as the write transaction reads it; every bad record is
    /// reported by its field, numbered (`[2].verdict`) when `numbered`.
    /// - Parameters:
    ///   - readErrors: what reading each draft already found wrong, by the draft's index, reported with the rest.
    ///   - channel: where the feedback was entered, unless a draft names its own.
    public func submit(_ drafts: [FeedbackDraft], readErrors: [[FieldError]] = [], numbered: Bool = false, to key: String, by principal: Principal,
                       channel: FeedbackChannel, idempotency: Idempotency? = nil) throws -> FeedbackSubmission {
        let submission = try Submission(self, drafts, readErrors: readErrors, numbered: numbered, to: key, by: principal, channel: channel,
                                        idempotency: idempotency)
        return try store.submitFeedback(to: key, by: submission.requester, idempotency: submission.claim, submission.build,
                                        emitting: submission.emitting, notifying: submission.notifying)
    }

    /// `submit` for a caller that does not wait for the commit (the API under load): the checks that need no
    /// commit throw at once; `completion` then gets the stored records or the error, on the thread that led the
    /// group commit, perhaps this one before the call returns (docs/architecture.md, "Writes and group commit").
    public func submit(_ drafts: [FeedbackDraft], readErrors: [[FieldError]] = [], numbered: Bool = false, to key: String, by principal: Principal,
                       channel: FeedbackChannel, idempotency: Idempotency? = nil,
                       completion: @escaping @Sendable (Result<FeedbackSubmission, any Error>) -> Void) throws {
        let submission = try Submission(self, drafts, readErrors: readErrors, numbered: numbered, to: key, by: principal, channel: channel,
                                        idempotency: idempotency)
        store.submitFeedback(to: key, by: submission.requester, idempotency: submission.claim, submission.build,
                             emitting: submission.emitting, notifying: submission.notifying, completion: completion)
    }

    /// One submission, checked as far as it can be before the write: who may submit, to which fix, and what the
    /// write transaction does with the drafts (make the records against the fix it reads, the webhook events, the mail).
    private struct Submission {
        let requester: Requester
        let claim: IdempotencyClaim?
        let build: @Sendable (Fix) throws -> [Feedback]
        let emitting: @Sendable ([Feedback], [Feedback], Fix) -> [WebhookEvent]
        let notifying: @Sendable ([Feedback], Fix, NotificationRecipients) throws -> [MailNotification]

        init(_ service: FeedbackService, _ drafts: [FeedbackDraft], readErrors: [[FieldError]], numbered: Bool, to key: String, by principal: Principal,
             channel: FeedbackChannel, idempotency: Idempotency?) throws {
            try AccessDenied.unless(principal, may: .submitOwnFeedback)
            // A tester learns nothing of fixes she is not enrolled in, not even whether they exist.
            try TesterScope(store: service.store).requireFixAccess(principal, fixKey: key)
            let time = service.clock()
            requester = Requester(principal)
            claim = idempotency.map {
                // Scoped by token, so two tokens that share a principal name never share keys.
                IdempotencyClaim(principal: principal.tokenID, key: $0.key, requestSHA256: Digest.sha256(Array(key.utf8) + [0x0A] + $0.request))
            }
            build = { fix in
                try FeedbackService.records(from: drafts, readErrors: readErrors, numbered: numbered, fix: fix, by: principal, channel: channel, at: time)
            }
            emitting = { stored, latest, fix in
                stored.map { record in
                    // No tester pseudonym: next to the evidence counts by technology it would tell a receiver which
                    // technology that tester uses (docs/privacy.md, "What never leaves").
                    WebhookEventFactory.make(.feedbackReceived, fix: fix, evidence: WebhookEventFactory.Evidence(latest: latest), extra: [
                        "feedback": .string(record.id), "verdict": .string(record.verdict.rawValue),
                        "severity": .string(record.severity.rawValue), "regression": .bool(record.regression),
                    ], at: record.recordedAt)
                }
            }
            notifying = { [notifications = service.notifications] stored, fix, recipients in
                try notifications.blockingReported(stored, on: fix, recipients: recipients, at: time)
            }
        }
    }

    /// The records the drafts make against `fix`, or every problem they have.
    static func records(from drafts: [FeedbackDraft], readErrors: [[FieldError]], numbered: Bool, fix: Fix, by principal: Principal,
                        channel: FeedbackChannel, at time: Date) throws -> [Feedback] {
        guard (1...maxRecordsPerSubmission).contains(drafts.count) else {
            throw ValidationFailure([FieldError(field: "(body)", message: "an array must hold 1 to \(maxRecordsPerSubmission) records, got \(drafts.count)")])
        }
        var errors: [FieldError] = []
        var records: [Feedback] = []
        for (index, submitted) in drafts.enumerated() {
            let prefix = numbered ? "[\(index)]." : ""
            var draft = submitted
            if principal.role == .tester {
                // A tester submits as her own tester only.
                if let given = draft.tester, given != principal.testerID {
                    throw AccessDenied("a tester token may only submit feedback as its own tester (\(principal.testerID ?? "none"))")
                }
                draft.tester = principal.testerID
            }
            do {
                var record = try FeedbackValidator.makeFeedback(from: draft, id: makeID(), fix: fix, channel: channel, recordedBy: principal.name, at: time,
                                                                fieldPrefix: prefix, priorErrors: readErrors.indices.contains(index) ? readErrors[index] : [])
                // Entered on a personal link: which, made by whom, opened by whom (docs/console.md, "Personal links").
                record.link = principal.link
                records.append(record)
            } catch {
                errors += error.errors
            }
        }
        if !errors.isEmpty { throw ValidationFailure(errors) }
        return records
    }

    /// A page of the fix's feedback in the order it arrived; a tester sees only her own.
    public func feedback(of key: String, tester: String?, revision: Int?, after seq: Int64?, limit: Int, for principal: Principal) throws -> [StoredFeedback] {
        try AccessDenied.unless(principal, mayAnyOf: [.readAll, .readEnrolledFixes])
        var tester = tester
        if principal.role == .tester {
            try TesterScope(store: store).requireFixAccess(principal, fixKey: key)
            if let tester, tester != principal.testerID {
                throw AccessDenied("a tester token may only read its own tester's feedback")
            }
            tester = principal.testerID
        }
        return try store.feedback(of: key, tester: tester, revision: revision, after: seq, limit: limit)
    }

    /// The current revision's evidence: the latest report per tester, counted by verdict, technology and platform.
    public func summary(of key: String, for principal: Principal) throws -> FeedbackSummary {
        try AccessDenied.unless(principal, may: .readAll)
        guard let fix = try store.fix(key) else { throw StoreError.notFound(kind: "fix", id: key) }
        let evidence = try store.feedbackEvidence(of: key, revision: fix.revision)
        return FeedbackSummary(fixKey: key, revision: fix.revision, latest: evidence.latest, recordCount: evidence.recordCount)
    }
}
