import VouchHTTP

/// Lets web apps on other origins read OFREP answers (docs/contracts.md, "Browsers"): preflights and
/// `Access-Control-*` headers, under `/ofrep/` only. Every other route stays same-origin.
///
/// No `Access-Control-Allow-Credentials`: OFREP authenticates with a header the app sets, never a cookie,
/// so a page that is not allowed cannot make the browser lend it anyone's credentials.
public struct CORSPolicy: Sendable {
    /// Which origins may read the answers (`ofrep.cors_origins`).
    public enum Origins: Sendable, Equatable {
        /// Every origin: `Access-Control-Allow-Origin: *`.
        case any
        /// Only these, lowercased, without a default port (as browsers send `Origin`); each echoed back when it asks.
        case listed(Set<String>)
    }

    public var origins: Origins

    /// By default the configuration's (`ofrep.cors_origins`).
    public init(origins: Origins = DaemonConfiguration.defaults.corsOrigins) {
        self.origins = origins
    }

    static let prefix: StaticString = "/ofrep/"
    static let allowedMethods = "GET, POST, OPTIONS"
    /// `Last-Event-ID` for an event stream a browser resumes; the rest are what OFREP providers send.
    static let allowedHeaders = "Authorization, Content-Type, If-None-Match, X-API-Key, Last-Event-ID"
    /// Neither is a CORS-safelisted response header: without this the web provider sees neither.
    static let exposedHeaders = "ETag, Retry-After"
    /// How long a browser may reuse a preflight's answer; Chromium caps it at 2 hours anyway.
    static let maxAgeSeconds = 600

    /// The answer to an `OPTIONS` request under `/ofrep/`, or nil for any other request (routed as usual).
    ///
    /// A preflight from an origin not allowed gets 204 without the allow headers rather than 403: the browser
    /// refuses it either way, but then says the answer has no `Access-Control-Allow-Origin`, which points at
    /// `ofrep.cors_origins`; with a 403 it says the preflight "does not have HTTP ok status", which reads like a
    /// refused token. No token is needed: a browser never sends one with a preflight.
    /// - Parameter methods: the methods a path answers (`Router.methods(forPath:)`), for a plain `OPTIONS`'s `Allow`.
    package func answerOptions(_ request: HTTPRequest, methods: (String) -> [String]) -> HTTPResponse? {
        guard request.method == "OPTIONS", request.pathStarts(with: CORSPolicy.prefix) else { return nil }
        if request.header("origin") != nil, request.header("access-control-request-method") != nil {
            guard allowedOrigin(in: request.headers) != nil else { return .empty(204) }
            return .empty(204, headers: [(name: "Access-Control-Allow-Methods", value: CORSPolicy.allowedMethods),
                                         (name: "Access-Control-Allow-Headers", value: CORSPolicy.allowedHeaders),
                                         (name: "Access-Control-Max-Age", value: String(CORSPolicy.maxAgeSeconds))])
        }
        let allowed = methods(request.path)
        // An unknown path is left to the router, whose 404 says so.
        guard !allowed.isEmpty else { return nil }
        return .empty(204, headers: [(name: "Allow", value: (allowed + ["OPTIONS"]).joined(separator: ", "))])
    }

    /// Adds the `Access-Control-*` headers to any answer under `/ofrep/`, errors included, so that a page reads
    /// a 304, 401 or 429 rather than an opaque network error.
    package func addHeaders(to response: inout HTTPResponse, for request: HTTPRequest) {
        guard request.pathStarts(with: CORSPolicy.prefix) else { return }
        addHeaders(to: &response, forOFREPWith: request.headers)
    }

    /// The same for a request under `/ofrep/` with these headers.
    package func addHeaders(to response: inout HTTPResponse, forOFREPWith headers: borrowing some HeaderReading & ~Copyable) {
        // With a list the answer depends on `Origin`, also when the request sent none or an unlisted one:
        // a cache must not hand one origin's answer to another.
        if case .listed = origins { response.headers.append((name: "Vary", value: "Origin")) }
        guard let allowed = allowedOrigin(in: headers) else { return }
        response.headers.append((name: "Access-Control-Allow-Origin", value: allowed))
        response.headers.append((name: "Access-Control-Expose-Headers", value: CORSPolicy.exposedHeaders))
    }

    /// The `Access-Control-Allow-Origin` value for the request's `Origin`; nil without one or when not allowed.
    private func allowedOrigin(in headers: borrowing some HeaderReading & ~Copyable) -> String? {
        // The lowercased name as stored: `header(_:)` would also try other cases when there is none, on every request.
        guard let origin = headers.value("origin") else { return nil }
        switch origins {
        case .any:
            return "*"
        case .listed(let listed):
            // Browsers send `Origin` lowercased and without a default port, as the list keeps its entries.
            return listed.contains(origin) ? origin : nil
        }
    }
}
