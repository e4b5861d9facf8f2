import Synchronization
import VouchConsole
import VouchDomain
import VouchHTTP
import VouchJSON

/// The console's way to change anything: it calls the `/v1` API inside the process as the signed-in person, so every
/// rule (roles, validation, lifecycle, four-eyes, idempotency, audit) is the API's own (docs/console.md, "One API").
final class ConsoleAPI: Sendable {
    /// What the API answered, with its field problems ready for a form.
    struct Answer: Sendable {
        var status: Int
        var json: JSONValue
        var isSuccess: Bool { (200..<300).contains(status) }
        /// The problem's `errors`, by the API's field names.
        var issues: [FieldIssue] {
            json["errors"]?.arrayValue?.compactMap { item in
                guard let field = item["field"]?.stringValue, let message = item["message"]?.stringValue else { return nil }
                return FieldIssue(field: field, message: message)
            } ?? []
        }
        /// The problem's `detail`, for a refusal that names no field (409: the fix is no longer in testing).
        var detail: String { json["detail"]?.stringValue ?? "" }
        /// The API's refusal as the console's error page, for an answer no form field can show (403, 404, 409, 503).
        var refusal: Problem { Problem(status: status, detail: detail.isEmpty ? "the server answered \(status)" : detail) }
    }

    /// The application's router, set once it is built (the console's own routes are part of it).
    private let router = Mutex<Router?>(nil)
    private let answerError: @Sendable (any Error) -> HTTPResponse

    /// - Parameter answerError: how the application turns a thrown error into its problem answer.
    init(answerError: @escaping @Sendable (any Error) -> HTTPResponse) {
        self.answerError = answerError
    }

    func attach(_ router: Router) { self.router.withLock { $0 = router } }

    /// Calls `method path` with `body` as JSON, as `principal`; feedback sent this way is recorded with channel `web`.
    /// - Parameter host: the browser's `Host`, for answers that carry this server's address (a personal link's URL).
    func call(_ method: String, _ path: String, body: JSONValue? = nil, as principal: Principal, idempotencyKey: String? = nil,
              host: String? = nil, requestID: String = "") -> Answer {
        var headers: HTTPHeaders = [:]
        if let host { headers["host"] = host }
        if body != nil { headers["content-type"] = "application/json" }
        if let idempotencyKey { headers["idempotency-key"] = idempotencyKey }
        var request = HTTPRequest(method: method, path: path, headers: headers, body: body.map { JSONWriter.bytes($0) } ?? [])
        request.requestID = requestID
        guard let router = router.withLock({ $0 }) else {
            return Answer(status: 503, json: .object(["detail": .string("the server is starting; try again in a second")]))
        }
        let response = InProcessCall(principal: principal, channel: .web).run {
            do { return try router.route(request) } catch { return answerError(error) }
        }
        return Answer(status: response.status, json: (try? JSONParser.parse(response.body)) ?? .null)
    }
}
