import VouchJSON

/// An RFC 9457 problem document: every API error is built here, so all errors look alike.
public struct Problem: Error, Sendable {
    public struct FieldIssue: Sendable, Equatable {
        public var field: String
        public var message: String

        public init(field: String, message: String) {
            self.field = field
            self.message = message
        }
    }

    public var status: Int
    public var title: String
    public var detail: String
    public var errors: [FieldIssue]
    public var headers: [(name: String, value: String)]

    public init(status: Int, detail: String, errors: [FieldIssue] = [], headers: [(name: String, value: String)] = []) {
        self.status = status
        self.title = Problem.title(for: status)
        self.detail = detail
        self.errors = errors
        self.headers = headers
    }

    /// A stable URI per kind of problem, so clients can match on `type`.
    public var type: String { "https://vouch.dev/problems/\(Problem.slug(for: status))" }

    public var response: HTTPResponse {
        var object: JSONObject = [
            "type": .string(type),
            "title": .string(title),
            "status": .int(status),
            "detail": .string(detail),
        ]
        object["errors"] = .array(errors.map { .object(["field": .string($0.field), "message": .string($0.message)]) })
        return HTTPResponse(status: status, headers: [(name: "Content-Type", value: "application/problem+json")] + headers,
                            body: JSONWriter.bytes(.object(object)))
    }

    public static func title(for status: Int) -> String {
        switch status {
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 409: "Conflict"
        case 413: "Content Too Large"
        case 414: "URI Too Long"
        case 415: "Unsupported Media Type"
        case 422: "Unprocessable Content"
        case 429: "Too Many Requests"
        case 431: "Request Header Fields Too Large"
        case 501: "Not Implemented"
        case 503: "Service Unavailable"
        case 507: "Insufficient Storage"
        default: status >= 500 ? "Internal Server Error" : "Error"
        }
    }

    private static func slug(for status: Int) -> String {
        switch status {
        case 400: "malformed-request"
        case 401: "unauthenticated"
        case 403: "forbidden"
        case 404: "not-found"
        case 405: "method-not-allowed"
        case 409: "conflict"
        case 413: "body-too-large"
        case 414: "target-too-long"
        case 415: "unsupported-media-type"
        case 422: "validation-failed"
        case 429: "rate-limited"
        case 431: "headers-too-large"
        case 501: "not-implemented"
        case 503: "unavailable"
        case 507: "insufficient-storage"
        default: "internal-error"
        }
    }
}
