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
    private let router: Router
    private let ofrep: OFREPController

    /// Loads the OFREP snapshot and the token directory from the store, then wires the routes.
    /// - Parameter clock: the time of each change; whole milliseconds, as the store keeps them, so an answer
    ///   shows exactly what a later read returns.
    public init(store: any Store, logger: Logger = Logger(), settings: ApplicationSettings = ApplicationSettings(),
                clock: @escaping @Sendable () -> Date = { StoreClock.date(StoreClock.nowMilliseconds()) }) throws {
        self.store = store
        self.logger = logger
        snapshots = SnapshotHolder(EvaluationSnapshot(rules: Dictionary(uniqueKeysWithValues: try store.flagRules().map { ($0.key, $0) })))
        tokens = TokenDirectory()
        tokens.load(try store.activeTokens())
        metrics = Metrics()
        let settled = SettledDeliveryRelay()
        deliveries = DeliveryWorker(store: store, settings: settings.delivery, clock: clock, onSettled: { settled.forward($0) }, onError: { message, error in
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
        HealthController(store: store, snapshots: snapshots, metrics: metrics).register(in: &router)
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
        WebhookController(store: store, settings: settings, wakeDeliveries: { worker.wake() }, clock: clock).register(in: &router)
        self.router = router.router
    }

    /// Starts the webhook worker and the promotion timer; pending deliveries from before a restart resume.
    public func startServices() {
        deliveries.start()
        promotion.start()
    }

    /// Stops the promotion timer, then the webhook worker after its attempts in flight are recorded.
    public func stopServices() {
        promotion.stop()
        deliveries.stop()
    }

    /// Every route as `METHOD /path/{param}`, for the OpenAPI coverage test.
    public var routePatterns: [String] { router.patterns }

    /// Answers one request; every error becomes an RFC 9457 problem here and nowhere else.
    public func handle(_ request: HTTPRequest) -> HTTPResponse {
        let response: HTTPResponse
        do {
            response = try router.route(request)
        } catch {
            if let problem = error as? Problem, problem.status == 404, let answer = ofrep.unknownFlag(request) {
                response = answer
            } else if let problem = ErrorResponses.problem(for: error) {
                response = problem.response
            } else {
                // An unexpected failure: log what went wrong (never bound values or bodies) and answer 500.
                logger.error("request failed", [("http.method", request.method), ("http.path", request.path), ("error", String(describing: error))])
                response = Problem(status: 500, detail: "the server failed to answer; the error is in its log").response
            }
        }
        metrics.recordResponse(status: response.status)
        if logger.level <= .debug {
            logger.debug("request", [("http.method", request.method), ("http.path", request.path), ("http.status", String(response.status))])
        }
        return response
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
