import Foundation
import VouchCodec
import VouchCrypto
import VouchDomain
import VouchHTTP
import VouchJSON
import VouchStore

/// `/v1/fixes/{key}/feedback`: structured reports from testers, and their summary.
struct FeedbackController {
    let store: any Store
    let clock: @Sendable () -> Date

    static let maxRecordsPerRequest = 500

    func register(in router: inout APIRouter) {
        router.add("POST", "/v1/fixes/{key}/feedback", .submitOwnFeedback, submit)
        router.add("GET", "/v1/fixes/{key}/feedback", anyOf: [.readAll, .readEnrolledFixes], list)
        router.add("GET", "/v1/fixes/{key}/feedback/summary", .readAll, summary)
    }

    static func makeID() -> String { "fb_" + SecureRandom.alphanumeric(count: 16) }

    /// One record or an array of them; all are stored or none, and every bad record is reported by index and field.
    func submit(_ request: HTTPRequest, _ context: RequestContext) throws -> HTTPResponse {
        let key = context.parameters["key"]
        let body = try RequestBody.json(request)
        let idempotencyKey = try FeedbackController.idempotencyKey(in: request)
        // A tester token learns nothing of fixes its tester is not enrolled in, not even whether they exist.
        try TesterScope(store: store).requireFixAccess(context.principal, fixKey: key)
        guard let fix = try store.fix(key) else { throw StoreError.notFound(kind: "fix", id: key) }
        let isBatch: Bool
        let items: [JSONValue]
        if case .array(let elements) = body {
            guard (1...FeedbackController.maxRecordsPerRequest).contains(elements.count) else {
                throw ValidationFailure([FieldError(field: "(body)", message: "an array must hold 1 to \(FeedbackController.maxRecordsPerRequest) records, got \(elements.count)")])
            }
            isBatch = true
            items = elements
        } else {
            isBatch = false
            items = [body]
        }
        let time = clock()
        var errors: [FieldError] = []
        var records: [Feedback] = []
        for (index, item) in items.enumerated() {
            let prefix = isBatch ? "[\(index)]." : ""
            var (draft, readErrors) = FeedbackDraft.read(item, prefix: prefix)
            if context.principal.role == .tester {
                // A tester token submits as its own tester only.
                if let given = draft.tester, given != context.principal.testerID {
                    throw Problem(status: 403, detail: "a tester token may only submit feedback as its own tester (\(context.principal.testerID ?? "none"))")
                }
                draft.tester = context.principal.testerID
            }
            do {
                var record = try FeedbackValidator.makeFeedback(from: draft, id: FeedbackController.makeID(), fix: fix, channel: InProcessCall.current?.channel ?? .http,
                                                                recordedBy: context.principal.name, at: time, fieldPrefix: prefix, priorErrors: readErrors)
                // Entered on a personal link: which, made by whom, opened by whom (docs/console.md, "Personal links").
                record.link = context.principal.link
                records.append(record)
            } catch {
                errors += error.errors
            }
        }
        if !errors.isEmpty { throw ValidationFailure(errors) }
        let claim = idempotencyKey.map {
            // Scoped by token, so two tokens that share a principal name never share keys.
            IdempotencyClaim(principal: context.principal.tokenID, key: $0, requestSHA256: Digest.sha256(Array(key.utf8) + [0x0A] + request.body))
        }
        let submission = try store.submitFeedback(records, by: context.requester, idempotency: claim) { stored, latest, fix in
            stored.map { record in
                // No tester pseudonym: next to the evidence counts by technology it would tell a receiver which
                // technology that tester uses (docs/privacy.md, "What never leaves").
                WebhookEventFactory.make(.feedbackReceived, fix: fix, evidence: WebhookEventFactory.Evidence(latest: latest), extra: [
                    "feedback": .string(record.id), "verdict": .string(record.verdict.rawValue),
                    "severity": .string(record.severity.rawValue), "regression": .bool(record.regression),
                ], at: record.recordedAt)
            }
        }
        let answer: JSONValue = isBatch ? .object(["feedback": .array(submission.records.map(\.jsonValue))]) : (submission.records.first?.jsonValue ?? .null)
        var headers: [(name: String, value: String)] = []
        if submission.replayed { headers.append((name: "Idempotent-Replayed", value: "true")) }
        return .json(answer, status: 201, headers: headers)
    }

    static func idempotencyKey(in request: HTTPRequest) throws -> String? {
        guard let key = request.header("idempotency-key") else { return nil }
        guard (1...255).contains(key.count), key.unicodeScalars.allSatisfy({ $0.value >= 0x21 && $0.value <= 0x7E }) else {
            throw ValidationFailure([FieldError(field: "Idempotency-Key", message: "must be 1 to 255 visible ASCII characters, such as a UUID")])
        }
        return key
    }

    func list(_ request: HTTPRequest, _ context: RequestContext) throws -> HTTPResponse {
        let key = context.parameters["key"]
        let limit = try Paging.limit(from: request.query["limit"])
        var tester = request.query["tester"]
        if context.principal.role == .tester {
            try TesterScope(store: store).requireFixAccess(context.principal, fixKey: key)
            if let tester, tester != context.principal.testerID {
                throw Problem(status: 403, detail: "a tester token may only read its own tester's feedback")
            }
            tester = context.principal.testerID
        }
        var revision: Int?
        if let text = request.query["revision"] {
            guard let number = Int(text), number >= 1 else { throw FieldError(field: "revision", message: "must be a whole number of 1 or more, got '\(text)'") }
            revision = number
        }
        var after: Int64?
        if let cursor = try Cursor.decode(request.query["cursor"]) {
            guard let seq = Int64(cursor) else { throw FieldError(field: "cursor", message: "must be a next_cursor value from a previous page") }
            after = seq
        }
        let stored = try store.feedback(of: key, tester: tester, revision: revision, after: after, limit: limit + 1)
        let page = Cursor.page(stored, limit: limit) { String($0.seq) }
        return .json(.object(["feedback": .array(page.items.map(\.feedback.jsonValue)), "next_cursor": .optional(page.next)]))
    }

    func summary(_ request: HTTPRequest, _ context: RequestContext) throws -> HTTPResponse {
        let key = context.parameters["key"]
        guard let fix = try store.fix(key) else { throw StoreError.notFound(kind: "fix", id: key) }
        let evidence = try store.feedbackEvidence(of: key, revision: fix.revision)
        let summary = FeedbackSummary(fixKey: key, revision: fix.revision, latest: evidence.latest, recordCount: evidence.recordCount)
        return .json(FeedbackController.json(summary))
    }

    static func json(_ summary: FeedbackSummary) -> JSONValue {
        func counts(_ counts: FeedbackSummary.Counts) -> JSONValue {
            .object(["passed": .int(counts.passed), "failed": .int(counts.failed), "cant_tell": .int(counts.cantTell), "total": .int(counts.total)])
        }
        func brief(_ record: Feedback) -> JSONValue {
            .object([
                "tester": .string(record.testerID ?? "withdrawn"), "feedback": .string(record.id), "verdict": .string(record.verdict.rawValue),
                "severity": .string(record.severity.rawValue), "regression": .bool(record.regression),
                "assistive_tech": .string(record.assistiveTech.rawValue), "platform": .string(record.platform.rawValue),
                "browser": .optional(record.browser?.rawValue), "task_outcome": .string(record.taskOutcome.rawValue), "recorded_at": .string(Timestamp.string(record.recordedAt)),
            ])
        }
        return .object([
            "fix": .string(summary.fixKey), "revision": .int(summary.revision), "records": .int(summary.recordCount),
            "testers": .int(summary.latest.count), "by_verdict": counts(summary.byVerdict),
            "by_assistive_tech": .object(JSONObject(summary.byAssistiveTech.map { (key: $0.technology.rawValue, value: counts($0.counts)) })),
            "by_platform": .object(JSONObject(summary.byPlatform.map { (key: $0.platform.rawValue, value: counts($0.counts)) })),
            "by_browser": .object(JSONObject(summary.byBrowser.map { (key: $0.browser.rawValue, value: counts($0.counts)) })),
            "latest": .array(summary.latest.map(brief)), "blocking": .array(summary.blocking.map(brief)),
        ])
    }
}
