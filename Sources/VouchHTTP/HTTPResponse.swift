import VouchJSON

/// One HTTP response: status, headers and the exact body bytes.
public struct HTTPResponse: Sendable {
    public var status: Int
    public var headers: [(name: String, value: String)]
    public var body: [UInt8]
    /// Set by `reusable()`: the server may answer this response with libmicrohttpd responses it made before.
    public private(set) var reuse: ReusableResponse?

    public init(status: Int, headers: [(name: String, value: String)] = [], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// This response, for a caller that keeps it and answers it again and again unchanged (see `ReusableResponse`).
    /// A copy changed afterwards is answered the usual way.
    public func reusable() -> HTTPResponse {
        var response = self
        response.reuse = ReusableResponse(self)
        return response
    }

    public static func json(_ value: JSONValue, status: Int = 200, headers: [(name: String, value: String)] = []) -> HTTPResponse {
        HTTPResponse(status: status, headers: [(name: "Content-Type", value: "application/json")] + headers, body: JSONWriter.bytes(value))
    }

    public static func text(_ text: String, status: Int = 200, contentType: String = "text/plain; charset=utf-8") -> HTTPResponse {
        HTTPResponse(status: status, headers: [(name: "Content-Type", value: contentType)], body: Array(text.utf8))
    }

    /// An HTML page.
    public static func html(_ page: String, status: Int = 200, headers: [(name: String, value: String)] = []) -> HTTPResponse {
        HTTPResponse(status: status, headers: [(name: "Content-Type", value: "text/html; charset=utf-8")] + headers, body: Array(page.utf8))
    }

    /// 303 See Other: after a form's POST the browser GETs `location` (Post/Redirect/Get), so reloading never sends
    /// the form again.
    public static func seeOther(_ location: String, headers: [(name: String, value: String)] = []) -> HTTPResponse {
        HTTPResponse(status: 303, headers: [(name: "Location", value: location)] + headers)
    }

    /// A response with no body, such as 204, 304 or OFREP's 401/403.
    public static func empty(_ status: Int, headers: [(name: String, value: String)] = []) -> HTTPResponse {
        HTTPResponse(status: status, headers: headers)
    }

    public func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }
}
