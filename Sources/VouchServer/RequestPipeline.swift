import Foundation
import VouchHTTP
import VouchServerKit
import VouchServices

/// What every request goes through, whichever way it is answered: routed (`response(to:routing:)`), from the
/// received bytes on the OFREP fast path (`startDirect`, `finishDirect`), or as an event stream
/// (`streamReply(to:route:_:)`). Each concern is here once: the request's id, CORS (preflights, and the headers of
/// every answer), the limit on unknown tokens, and one count in the metrics and one line in the request log, under
/// the route's pattern, never the path (paths carry fix keys and tester pseudonyms). `VouchApplication` only picks
/// the way (docs/architecture.md, "The request path"). A class, not a struct: the HTTP threads reach it through the
/// application for every request, and a struct of eight references could be copied, retaining each, on the way.
final class RequestPipeline: Sendable {
    let cors: CORSPolicy
    let authFailures: AuthFailureLimiter
    let tokens: TokenDirectory
    let metrics: Metrics
    let logger: Logger
    let logRequests: Bool
    /// Each route's path pattern by index, for the request log; the index is the route's in the metrics too.
    let routePatternPaths: [String]
    /// The methods a path answers, for a CORS preflight.
    let allowedMethods: @Sendable (String) -> [String]
    private let requestIDs = RequestIDGenerator()

    init(cors: CORSPolicy, authFailures: AuthFailureLimiter, tokens: TokenDirectory, metrics: Metrics, logger: Logger, logRequests: Bool,
         routePatterns: [String], allowedMethods: @escaping @Sendable (String) -> [String]) {
        self.cors = cors
        self.authFailures = authFailures
        self.tokens = tokens
        self.metrics = metrics
        self.logger = logger
        self.logRequests = logRequests
        routePatternPaths = routePatterns.map { String($0.split(separator: " ", maxSplits: 1).last ?? "") }
        self.allowedMethods = allowedMethods
        metrics.setRoutes(routePatterns)
    }

    /// The answer to a request that `routing` answers, given the index of the route it matched (-1 for none).
    /// A request that did not come through the HTTP server (a test's) gets its id here, for the log.
    func response(to request: HTTPRequest, routing: (HTTPRequest, inout Int) -> HTTPResponse) -> HTTPResponse {
        // A field of its own, not a header: changing the headers would copy them. Copied only when it is missing,
        // as copying the request retained and released each of its strings and arrays.
        guard !request.requestID.isEmpty else { return response(to: identified(request), routing: routing) }
        let started = RequestPipeline.monotonicNanoseconds()
        var route = -1
        var response = before(request) ?? routing(request, &route)
        after(request, &response, route: route, started: started)
        return response
    }

    /// `response(to:routing:)` for a request whose route may answer later (`Router.addLater`): `routing` hands the
    /// answer and the route's index to its argument, at once or from the thread that finished the work, and
    /// `completion` gets the answer once the pipeline's last step is done with it.
    func respond(to request: HTTPRequest, routing: (HTTPRequest, @escaping @Sendable (HTTPResponse, Int) -> Void) -> Void,
                 completion: @escaping @Sendable (HTTPResponse) -> Void) {
        guard !request.requestID.isEmpty else { return respond(to: identified(request), routing: routing, completion: completion) }
        let started = RequestPipeline.monotonicNanoseconds()
        if var response = before(request) {
            after(request, &response, route: -1, started: started)
            return completion(response)
        }
        routing(request) { [self] answer, route in
            var response = answer
            after(request, &response, route: route, started: started)
            completion(response)
        }
    }

    private static func presentsToken(_ request: HTTPRequest) -> Bool {
        request.headers.contains("authorization") || request.headers.contains("x-api-key")
    }

    private func identified(_ request: HTTPRequest) -> HTTPRequest {
        var identified = request
        identified.requestID = requestIDs.id(for: request.header("x-request-id"))
        return identified
    }

    /// The answer given before any route runs: a CORS preflight's, or 429 to an address blocked for guessing tokens.
    private func before(_ request: HTTPRequest) -> HTTPResponse? {
        if let options = cors.answerOptions(request, methods: allowedMethods) { return options }
        guard RequestPipeline.presentsToken(request), let wait = authFailures.retryAfter(for: request.clientAddress) else { return nil }
        let retryAfter = [(name: "Retry-After", value: String(wait))]
        // OFREP's 429 has no body, like its 401 and 403; the rest of the API answers with a problem.
        return request.pathStarts(with: "/ofrep/") ? .empty(429, headers: retryAfter)
            : Problem(status: 429, detail: "too many requests with an unknown token came from this address; try again in \(wait) s",
                      headers: retryAfter).response
    }

    /// What every answer gets on its way out: a routed 401 counted against the address when it was a guess, the
    /// CORS headers, one count in the metrics and one line in the request log.
    private func after(_ request: HTTPRequest, _ response: inout HTTPResponse, route: Int, started: UInt64) {
        // Only guesses count: a revoked token still in use (an app not yet updated, often many behind one NAT
        // address) is refused with 401 but must not get that address blocked for everyone.
        if response.status == 401, RequestPipeline.presentsToken(request),
           !(PresentedToken.secret(in: request).map(tokens.isRevoked) ?? false),
           authFailures.recordFailure(from: request.clientAddress) {
            // The address is personal data too, but an operator needs it to act on an attack; never the token.
            logger.warning("unknown tokens blocked", [("client.address", request.clientAddress.description),
                                                      ("auth.max_failures", String(authFailures.settings.maxFailures))])
        }
        cors.addHeaders(to: &response, for: request)
        record(method: request.method, route: route, status: response.status, started: started, requestID: request.requestID)
    }

    /// When a request the OFREP fast path can answer from its bytes starts, on the monotonic clock; nil leaves it to
    /// `response(to:routing:)`, as for a request from an address blocked for guessing tokens, which that answers 429.
    /// Two calls around the fast path's own (`finishDirect`), not one that takes it as a closure: a closure reaching
    /// the fast path through the application copied it, retaining its objects, on every evaluation.
    func startDirect(_ request: borrowing DirectRequest) -> UInt64? {
        if authFailures.isTracking, authFailures.retryAfter(for: request.clientAddress) != nil { return nil }
        return RequestPipeline.monotonicNanoseconds()
    }

    /// Gives the fast path's answer the same CORS headers, count and log line as `response(to:routing:)` would.
    func finishDirect(_ response: inout HTTPResponse, for request: borrowing DirectRequest, route: Int, started: UInt64) {
        cors.addHeaders(to: &response, forOFREPWith: request)
        record(method: "POST", route: route, status: response.status, started: started, requestID: request.requestID)
    }

    /// An event stream, or the answer refusing one, with the CORS headers of every OFREP answer (EventSource on
    /// another origin reads the stream only with them), counted and logged when it opens; never logged with its
    /// credential, which is in the query.
    func streamReply(to request: HTTPRequest, route: Int, _ open: (HTTPRequest) -> HTTPReply) -> HTTPReply {
        let started = RequestPipeline.monotonicNanoseconds()
        var reply = open(request)
        let status: Int
        switch reply {
        case .now(var response):
            cors.addHeaders(to: &response, for: request)
            reply = .now(response)
            status = response.status
        case .stream(var head, let stream):
            cors.addHeaders(to: &head, for: request)
            reply = .stream(head, stream)
            status = head.status
        case .later: status = 0
        }
        record(method: request.method, route: route, status: status, started: started, requestID: request.requestID)
        return reply
    }

    /// The route's path pattern for logs, or `unmatched` (404, 405, 429 before routing).
    func routeName(_ route: Int) -> String {
        route >= 0 && route < routePatternPaths.count ? routePatternPaths[route] : "unmatched"
    }

    /// Counts and logs an answered request.
    private func record(method: String, route: Int, status: Int, started: UInt64, requestID: String) {
        let seconds = Double(RequestPipeline.monotonicNanoseconds() &- started) / 1e9
        metrics.recordRequest(route: route, status: status, seconds: seconds)
        if logRequests, logger.level <= .info {
            logger.info("request", [("http.method", method), ("http.route", routeName(route)),
                                    ("http.status", String(status)), ("duration_ms", Logger.milliseconds(seconds)),
                                    ("request_id", requestID)])
        }
    }

    /// Now on the monotonic clock, for a request's duration: `clock_gettime` itself, where `DispatchTime.now()` goes
    /// through libdispatch's conversions as well, twice per request.
    static func monotonicNanoseconds() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
    }
}
