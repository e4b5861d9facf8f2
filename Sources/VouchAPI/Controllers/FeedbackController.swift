import Foundation
import VouchCodec
import VouchDomain
import VouchHTTP
import VouchJSON
import VouchServerKit
import VouchServices
import VouchStore

/// `/v1/fixes/{key}/feedback`: structured reports from testers, and their summary.
struct FeedbackController {
    let feedback: FeedbackService

    package func register(in router: inout APIRouter) {
        router.addLater("POST", "/v1/fixes/{key}/feedback", .submitOwnFeedback, submit)
        router.add("GET", "/v1/fixes/{key}/feedback", anyOf: [.readAll, .readEnrolledFixes], list)
        router.add("GET", "/v1/fixes/{key}/feedback/summary", .readAll, summary)
    }

    /// One record or an array of them; all are stored or none, and every bad record is reported by index and field.
    /// Answered later: the records are stored by a group commit this thread does not wait for.
    func submit(_ request: HTTPRequest, _ context: RequestContext, _ answer: @escaping Router.Answer) throws {
        let body = try RequestBody.json(request)
        let idempotencyKey = try FeedbackController.idempotencyKey(in: request)
        let isBatch: Bool
        let items: [JSONValue]
        if case .array(let elements) = body {
            isBatch = true
            items = elements
        } else {
            isBatch = false
            items = [body]
        }
        let read = items.enumerated().map { index, item in FeedbackDraft.read(item, prefix: isBatch ? "[\(index)]." : "") }
        try feedback.submit(read.map { $0.0 }, readErrors: read.map { $0.1 }, numbered: isBatch, to: context.parameters["key"],
                            by: context.principal, channel: .http,
                            idempotency: idempotencyKey.map { FeedbackService.Idempotency(key: $0, request: request.body) }) { outcome in
            answer(outcome.map { submission in
                let records: JSONValue = isBatch ? .object(["feedback": .array(submission.records.map(\.jsonValue))])
                    : (submission.records.first?.jsonValue ?? .null)
                var headers: [(name: String, value: String)] = []
                if submission.replayed { headers.append((name: "Idempotent-Replayed", value: "true")) }
                return .json(records, status: 201, headers: headers)
            })
        }
    }

    static func idempotencyKey(in request: HTTPRequest) throws -> String? {
        guard let key = request.header("idempotency-key") else { return nil }
        guard (1...255).contains(key.count), key.unicodeScalars.allSatisfy({ $0.value >= 0x21 && $0.value <= 0x7E }) else {
            throw ValidationFailure([FieldError(field: "Idempotency-Key", message: "must be 1 to 255 visible ASCII characters, such as a UUID")])
        }
        return key
    }

    func list(_ request: HTTPRequest, _ context: RequestContext) throws -> HTTPResponse {
        let limit = try Paging.limit(from: request.query["limit"])
        let revision = try FeedbackController.revision(in: request)
        var after: Int64?
        if let cursor = try Cursor.decode(request.query["cursor"]) {
            guard let seq = Int64(cursor) else { throw FieldError(field: "cursor", message: "must be a next_cursor value from a previous page") }
            after = seq
        }
        let stored = try feedback.feedback(of: context.parameters["key"], tester: request.query["tester"], revision: revision, after: after, limit: limit + 1,
                                           for: context.principal)
        let page = Cursor.page(stored, limit: limit) { String($0.seq) }
        return .json(.object(["feedback": .array(page.items.map(\.feedback.jsonValue)), "next_cursor": .optional(page.next)]))
    }

    /// The `revision` query parameter, when given.
    static func revision(in request: HTTPRequest) throws -> Int? {
        guard let text = request.query["revision"] else { return nil }
        guard let number = Int(text), number >= 1 else { throw FieldError(field: "revision", message: "must be a whole number of 1 or more, got '\(text)'") }
        return number
    }

    func summary(_ request: HTTPRequest, _ context: RequestContext) throws -> HTTPResponse {
        .json(FeedbackController.json(try feedback.summary(of: context.parameters["key"], for: context.principal)))
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
