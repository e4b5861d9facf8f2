import Dispatch
import Foundation
import VouchDomain
import VouchHTTP
import VouchStore
import VouchWebhooks

/// The whole HTTP application over a store, built the same way by `vouchd` and by the tests.
public final class VouchApplication: Sendable {
    public let store: any Store
    public let snapshots: SnapshotHolder
    public let tokens: TokenDirectory
    public let metrics: Metrics
    public let logger: Logger
    public let promotion: PromotionService
    public let deliveries: DeliveryWorker
    public let readiness = Readiness()
    public let authFailures: AuthFailureLimiter
    /// Resolves webhook hosts, at registration and before each delivery attempt, on threads of its own, never a
    /// server thread's or a sender's.
    public let hostResolver: HostResolver
    private let requestIDs = RequestIDGenerator()
    private let logRequests: Bool
    private let router: Router
    /// Each route's path pattern by index, for the request log.
    private let routePatternPaths: [String]
    private let ofrep: OFREPController
    private let cors: CORSPolicy

    /// Loads the OFREP snapshot and the token directory from the store, then wires the routes.
    /// - Parameter clock: the time of each change; whole milliseconds, as the store keeps them, so an answer
    ///   shows exactly what a later read returns.
    /// - Parameter hostResolver: where webhook hosts are resolved, at registration and for deliveries; tests give one
    ///   with a lookup of their own.
    public init(store: any Store, logger: Logger = Logger(), settings: ApplicationSettings = ApplicationSettings(),
                clock: @escaping @Sendable () -> Date = { StoreClock.date(StoreClock.nowMilliseconds()) },
                hostResolver: HostResolver = HostResolver()) throws {
        self.store = store
        self.logger = logger
        snapshots = SnapshotHolder(EvaluationSnapshot(rules: Dictionary(uniqueKeysWithValues: try store.flagRules().map { ($0.key, $0) })))
        tokens = TokenDirectory()
        tokens.load(try store.activeTokens(), revokedHashes: try store.revokedTokenHashes())
        self.hostResolver = hostResolver
        metrics = Metrics(hostResolver: hostResolver)
        authFailures = AuthFailureLimiter(settings: settings.authFailures)
        logRequests = settings.logRequests
        cors = settings.cors
        let settled = SettledDeliveryRelay()
        deliveries = DeliveryWorker(store: store, settings: settings.delivery, resolver: hostResolver, clock: clock,
                                    onSettled: { settled.forward($0) }, onError: { message, error in
            logger.error(message, [("error", String(describing: error))])
        })
        let worker = deliveries
        promotion = PromotionService(store: store, snapshots: snapshots, settings: settings, clock: clock, logger: logger,
                                     wakeDeliveries: { worker.wake() })
        settled.target = promotion
        let directory = tokens
        var router = APIRouter(authenticate: { request in
            VouchApplication.presentedSecret(in: request).flatMap(directory.principal(forSecret:))
        })
        HealthController(store: store, snapshots: snapshots, metrics: metrics, readiness: readiness).register(in: &router)
        ofrep = OFREPController(snapshots: snapshots, metrics: metrics, authenticate: router.authenticate)
        ofrep.register(in: &router)
        FixController(store: store, snapshots: snapshots, promotion: promotion, clock: clock).register(in: &router)
        TargetController(store: store, snapshots: snapshots, clock: clock).register(in: &router)
        TokenController(store: store, directory: tokens, clock: clock).register(in: &router)
        AuditController(store: store).register(in: &router)
        TesterController(store: store, snapshots: snapshots, tokens: tokens, clock: clock).register(in: &router)
        EnrollmentController(store: store, snapshots: snapshots, clock: clock).register(in: &router)
        FeedbackController(store: store, promotion: promotion, clock: clock).register(in: &router)
        ApprovalController(store: store, promotion: promotion, clock: clock).register(in: &router)
        StatusController(store: store, promotion: promotion, settings: settings, clock: clock).register(in: &router)
        let addressPolicy = AddressPolicy(allowPrivateNetworks: settings.delivery.allowPrivateNetworks, resolver: hostResolver,
                                          timeout: .milliseconds(settings.dnsTimeoutMilliseconds))
        WebhookController(store: store, addressPolicy: addressPolicy, wakeDeliveries: { worker.wake() }, clock: clock).register(in: &router)
        self.router = router.router
        let patterns = router.router.patterns
        routePatternPaths = patterns.map { String($0.split(separator: " ", maxSplits: 1).last ?? "") }
        metrics.setRoutes(patterns)
    }

    /// Starts the webhook worker and the promotion timer; pending deliveries from before a restart resume.
    /// From then on `/readyz` answers 200.
    public func startServices() {
        deliveries.start()
        promotion.start()
        readiness.markReady()
    }

    /// Stops the promotion timer, then the webhook worker after its attempts in flight are recorded.
    public func stopServices() {
        promotion.stop()
        deliveries.stop()
    }

    /// Lets `/metrics` report the server's open connections and the ones its deadlines cut.
    public func attach(_ server: HTTPServer) { metrics.observe(server) }

    /// Every route as `METHOD /path/{param}`, for the OpenAPI coverage test.
    public var routePatterns: [String] { router.patterns }

    /// Answers one request; every error becomes an RFC 9457 problem here and nowhere else.
    /// Also the one place each request is counted and logged, under the id the HTTP server gave it (and put in
    /// the answer's `X-Request-Id`); a request that did not come through the server gets one here, for the log.
    public func handle(_ request: HTTPRequest) -> HTTPResponse {
        let started = DispatchTime.now().uptimeNanoseconds
        var request = request
        // A field of its own, not a header: changing the headers would copy the dictionary on every request.
        if request.requestID.isEmpty { request.requestID = requestIDs.id(for: request.header("x-request-id")) }
        let requestID = request.requestID
        let presentsToken = request.headers["authorization"] != nil || request.headers["x-api-key"] != nil
        var route = -1
        var response: HTTPResponse
        if let options = cors.answerOptions(request, methods: router.methods(forPath:)) {
            response = options
        } else if presentsToken, let wait = authFailures.retryAfter(for: request.clientAddress) {
            let retryAfter = [(name: "Retry-After", value: String(wait))]
            // OFREP's 429 has no body, like its 401 and 403; the rest of the API answers with a problem.
            response = request.path.hasPrefix("/ofrep/") ? .empty(429, headers: retryAfter)
                : Problem(status: 429, detail: "too many requests with an unknown token came from this address; try again in \(wait) s",
                          headers: retryAfter).response
        } else {
            response = answer(request, matchedRoute: &route)
            // Only guesses count: a revoked token still in use (an app not yet updated, often many behind one NAT
            // address) is refused with 401 but must not get that address blocked for everyone.
            if response.status == 401, presentsToken, !(VouchApplication.presentedSecret(in: request).map(tokens.isRevoked) ?? false),
               authFailures.recordFailure(from: request.clientAddress) {
                // The address is personal data too, but an operator needs it to act on an attack; never the token.
                logger.warning("unknown tokens blocked", [("client.address", request.clientAddress.description),
                                                          ("auth.max_failures", String(authFailures.settings.maxFailures))])
            }
        }
        cors.addHeaders(to: &response, for: request)
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        metrics.recordRequest(route: route, status: response.status, seconds: seconds)
        if logRequests, logger.level <= .info {
            // The route's pattern, not the path: paths carry fix keys and tester pseudonyms.
            logger.info("request", [("http.method", request.method), ("http.route", routeName(route)),
                                    ("http.status", String(response.status)), ("duration_ms", Logger.milliseconds(seconds)),
                                    ("request_id", requestID)])
        }
        return response
    }

    /// The route's path pattern for logs, or `unmatched` (404, 405, 429 before routing).
    private func routeName(_ route: Int) -> String {
        route >= 0 ? routePatternPaths[route] : "unmatched"
    }

    private func answer(_ request: HTTPRequest, matchedRoute route: inout Int) -> HTTPResponse {
        do {
            return try router.route(request, matchedRoute: &route)
        } catch {
            if let problem = error as? Problem, problem.status == 404, let answer = ofrep.unknownFlag(request) {
                return answer
            } else if let problem = ErrorResponses.problem(for: error) {
                if problem.status == 503 || problem.status == 507 {
                    // The operator must hear of a locked database or a full disk; the client only sees the problem.
                    logger.log(problem.status == 507 ? .error : .warning, problem.status == 507 ? "disk full, write refused" : "database busy, write refused",
                               [("http.method", request.method), ("http.route", routeName(route)),
                                ("request_id", request.requestID), ("error", String(describing: error))])
                }
                return problem.response
            } else {
                // An unexpected failure: log what went wrong (never bound values or bodies) and answer 500.
                logger.error("request failed", [("http.method", request.method), ("http.route", routeName(route)),
                                                ("request_id", request.requestID), ("error", String(describing: error))])
                return Problem(status: 500, detail: "the server failed to answer; the error is in its log").response
            }
        }
    }

    /// The token from `Authorization: Bearer …` or `X-API-Key`.
    static func presentedSecret(in request: HTTPRequest) -> String? {
        if let authorization = request.header("authorization") {
            // Bytes, not Foundation: `trimmingCharacters` and `lowercased` were a third of the OFREP request's user time.
            var utf8 = Substring(authorization).utf8
            guard utf8.count > 7, zip(utf8.prefix(6), "bearer".utf8).allSatisfy({ ($0 | 0x20) == $1 }) else { return nil }
            utf8 = utf8.dropFirst(6)
            guard utf8.first == 0x20 else { return nil }
            while let first = utf8.first, first == 0x20 || first == 0x09 { utf8 = utf8.dropFirst() }
            while let last = utf8.last, last == 0x20 || last == 0x09 { utf8 = utf8.dropLast() }
            return String(Substring(utf8))
        }
        return request.header("x-api-key")
    }
}

/// Hands settled deliveries to the promotion service, which is made after the worker that reports them.
///
/// `@unchecked Sendable`: `target` is set once during `VouchApplication.init`, before the worker starts.
final class SettledDeliveryRelay: @unchecked Sendable {
    var target: PromotionService?

    func forward(_ delivery: WebhookDelivery) {
        target?.deliverySettled(delivery)
    }
}
