import VouchJSON

/// An error answer from the server, read from RFC 9457 problem+json (`detail`, `errors[]`) or from
/// OFREP's `{errorCode, errorDetails}`, and worded for the person at the terminal: codes and field names in words
/// ("flag not found", "WCAG, item 1"), as `SpokenWords` says them.
struct ServerProblem {
    var status: Int
    var detail: String?
    var fieldErrors: [(field: String, message: String)]
    var retryAfter: String?

    init(_ response: HTTPTransport.Response) {
        status = response.status
        let json = try? JSONParser.parse(response.body)
        if let code = json?["errorCode"]?.stringValue {
            detail = SpokenWords.say(code, .evaluationError) + (json?["errorDetails"]?.stringValue.map { ": " + $0 } ?? "")
        } else {
            detail = (json?["detail"]?.stringValue ?? json?["title"]?.stringValue).map(SpokenTime.inProse)
        }
        fieldErrors = (json?["errors"]?.arrayValue ?? []).compactMap { issue in
            guard let field = issue["field"]?.stringValue, let message = issue["message"]?.stringValue else { return nil }
            return (SpokenWords.fieldPath(field), message)
        }
        retryAfter = response.headers["retry-after"]
    }

    var failure: CommandFailure {
        switch status {
        case 401:
            return CommandFailure(.notAllowed, "The server refused the token: it is unknown or has been revoked.",
                                  details: ["Check --token or VOUCH_TOKEN."])
        case 403:
            // Another token helps when the role or the kind of token is the problem (or the server said nothing), not when
            // the person is, such as the author of a fix deciding on it: then the server's detail says what to do.
            let aboutToken = detail.map { $0.contains("role") || $0.contains("token") } ?? true
            return CommandFailure(.notAllowed, "Not allowed: \(detail.map(SpokenWords.prose) ?? "the token's role may not do this").",
                                  details: aboutToken ? ["The token is valid, but its role is not enough; use a token with a suitable role through --token or VOUCH_TOKEN."] : [])
        case 409:
            // A state conflict's prose names states ("fix K is promotion_failed"): said as words.
            return CommandFailure(.rejectedInput, SpokenWords.prose(detail ?? "the request conflicts with the fix's state (status 409)"),
                                  details: fieldErrors.map { "  \($0.field): \($0.message)" })
        case 400, 404, 413, 415, 422:
            let message = detail ?? "the server refused the request (status \(status))"
            return CommandFailure(.rejectedInput, message, details: fieldErrors.map { "  \($0.field): \($0.message)" })
        case 429:
            // vouchd's detail says why and how long to wait; OFREP's 429 has no body, so Retry-After says it.
            if let detail { return CommandFailure(.failure, "Too many requests (status 429): \(detail).") }
            let wait = retryAfter.map { "try again in \($0) seconds" } ?? "try again later"
            return CommandFailure(.failure, "Too many requests (status 429): the server is limiting this address; \(wait).")
        case 500...:
            return CommandFailure(.failure, "The server failed (status \(status)): \(detail ?? "no detail given").")
        default:
            return CommandFailure(.failure, "Unexpected answer from the server (status \(status)): \(detail ?? "no detail given").")
        }
    }
}
