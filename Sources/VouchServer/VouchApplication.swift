import Dispatch
import Foundation
import VouchAPI
import VouchConsole
import VouchCrypto
import VouchDomain
import VouchHTTP
import VouchClient
import VouchMail
import VouchNotifications
import VouchServerKit
import VouchServices
import VouchStore
import VouchWebhooks

/// The whole HTTP application over a store, built the same way by `vouchd` and by the tests.
public final class VouchApplication: Sendable {
    public let store: any Store
    /// The store's change feed: every committed write, published before the write returns. The snapshot, the token
    /// directory, the delivery worker and promotion follow it; another part can subscribe as well.
    public let changes: ChangeFeed
    public let snapshots: SnapshotHolder
    public let tokens: TokenDirectory
    public let metrics: Metrics
    public let logger: Logger
    public let promotion: PromotionService
    public let deliveries: DeliveryWorker
    /// Sends notifications by email; nil while `notifications.smtp_url` is not set.
    public let mail: NotificationWorker?
    public let readiness = Readiness()
    public let authFailures: AuthFailureLimiter
    /// Resolves webhook hosts, at registration and before each delivery attempt, on threads of its own, never a
    /// server thread's or a sender's.
    public let hostResolver: HostResolver
    /// OFREP's event streams, told of every committed change that could alter flags.
    public let eventStreams: EventStreamHub
    /// Finishes requests that may wait, while the HTTP server parks their connections.
    public let workers: WorkPool
    private let router: Router
    /// Request ids, CORS, the unknown-token limit, metrics and the request log, for every way a request is answered.
    private let pipeline: RequestPipeline
    private let ofrep: OFREPController
    /// Single evaluations answered from the received bytes (`respond(to:)` with a `DirectRequest`).
    private let fastPath: OFREPFastPath
    /// The indexes of OFREP's two evaluation routes and of the event stream among the routes the metrics count.
    private let routeIndexes: (one: Int, all: Int, stream: Int)
    /// The web console's sessions, or nil when `console.enabled` is false.
    let consoleSessions: ConsoleSessions?
    /// What other vouchd on a shared database commit, published here; nil on SQLite.
    let follower: ClusterFollower?

    /// Loads the OFREP snapshot and the token directory from the store, subscribes everything that follows the store
    /// to its change feed, then wires the routes.
    /// - Parameter clock: the time of each change; whole milliseconds, as the store keeps them, so an answer
    ///   shows exactly what a later read returns.
    /// - Parameter hostResolver: where webhook hosts are resolved, at registration and for deliveries; tests give one
    ///   with a lookup of their own.
    public init(store: any Store, logger: Logger = Logger(), settings: ApplicationSettings = ApplicationSettings(),
                clock: @escaping @Sendable () -> Date = { StoreClock.date(StoreClock.nowMilliseconds()) },
                hostResolver: HostResolver = HostResolver()) throws {
        self.store = store
        self.logger = logger
        changes = store.changes
        // Read before the copies below: a change committed meanwhile by another vouchd is published again by the
        // follower, never missed.
        let loadedRevision = try store.configurationRevision()
        follower = store.isShared ? ClusterFollower(store: store, revision: loadedRevision, logger: logger) : nil
        snapshots = SnapshotHolder(EvaluationSnapshot(rules: try store.flagRules(),
                                                      revision: loadedRevision))
        tokens = TokenDirectory()
        tokens.load(try store.activeTokens(), revokedHashes: try store.revokedTokenHashes())
        self.hostResolver = hostResolver
        metrics = Metrics(hostResolver: hostResolver)
        let directoryForStreams = tokens
        eventStreams = EventStreamHub(settings: settings.eventStreams,
                                      signingKey: try store.serverKey(named: "ofrep-event-streams", generate: { SecureRandom.bytes(count: 32) }),
                                      revision: loadedRevision, revisedAt: clock(),
                                      principal: { directoryForStreams.principal(tokenID: $0) }, clock: clock)
        workers = WorkPool(threads: settings.workerThreads)
        authFailures = AuthFailureLimiter(settings: settings.authFailures)
        var deliverySettings = settings.delivery
        deliverySettings.shaping.consoleURL = WebhookRequest.Shaping(consoleURL: settings.console.publicURL).consoleURL
        deliveries = DeliveryWorker(store: store, settings: deliverySettings, resolver: hostResolver, clock: clock, onError: { message, error in
            logger.error(message, [("error", String(describing: error))])
        })
        promotion = PromotionService(store: store, settings: settings.promotion, clock: clock, logger: logger)
        mail = try VouchApplication.makeMailWorker(store: store, settings: settings, clock: clock, logger: logger)
        VouchApplication.follow(changes, snapshots: snapshots, tokens: tokens, deliveries: deliveries, eventStreams: eventStreams, promotion: promotion)
        if let mail { changes.subscribe { [weak mail] in mail?.react(to: $0) } }
        // Every request the fast path leaves presents its token here, looked up in the directory unretained
        // (`OFREPFastPath.Tokens`).
        let directory = OFREPFastPath.Tokens(tokens)
        fastPath = OFREPFastPath(snapshots: snapshots, metrics: metrics, tokens: directory)
        var router = APIRouter(authenticate: { request in
            VouchApplication.principal(of: request, in: directory) { $0.principal(forSecretBytes: $1) }
        })
        HealthController(store: store, snapshots: snapshots, metrics: metrics, readiness: readiness).register(in: &router)
        ofrep = OFREPController(snapshots: snapshots, metrics: metrics, authenticate: router.authenticate, authenticateRole: { request in
            VouchApplication.principal(of: request, in: directory) { $0.role(forSecretBytes: $1) }
        }, eventStreams: eventStreams)
        ofrep.register(in: &router)
        FlagdController(snapshots: snapshots).register(in: &router)
        let addressPolicy = AddressPolicy(allowPrivateNetworks: settings.delivery.allowPrivateNetworks, resolver: hostResolver,
                                          timeout: .milliseconds(settings.dnsTimeoutMilliseconds))
        let services = Services(store: store, promotion: promotion, checkWebhookAddress: { try VouchApplication.check(url: $0, with: addressPolicy) },
                                makeWebhookSecret: WebhookSigner.makeSecret, linkValidSeconds: settings.console.linkValidSeconds,
                                programmeOperator: settings.programmeOperator, defaultLanguage: settings.console.defaultLanguage,
                                consentTexts: settings.consentTexts, mailEnabled: mail != nil,
                                webhookReceivers: VouchApplication.webhookReceivers(settings), reportProductName: settings.reportProductName,
                                clock: clock)
        APIRoutes.register(in: &router, services: services, store: store, promotion: promotion, settings: settings, clock: clock)
        if settings.console.enabled {
            let sessions = ConsoleSessions(store: store, tokens: tokens, settings: settings.console, clock: clock)
            consoleSessions = sessions
            let identityProvider = settings.console.oidc.isEnabled
                ? IdentityProvider(settings: settings.console.oidc, transport: VouchApplication.identityProviderTransport) : nil
            ConsolePages.register(in: &router, sessions: sessions, services: services, store: store, promotion: promotion,
                                  tokens: tokens, authFailures: authFailures, logger: logger, mail: settings.mail,
                                  identityProvider: identityProvider, clock: clock)
        } else {
            consoleSessions = nil
        }
        self.router = router.router
        // The event stream is answered before routing, but counted and logged as a route of its own.
        let patterns = router.router.patterns + ["GET " + EventStreamHub.path]
        routeIndexes = (one: patterns.firstIndex(of: "POST " + OFREPController.singlePattern) ?? -1,
                        all: patterns.firstIndex(of: "POST " + OFREPController.bulkPath) ?? -1, stream: patterns.count - 1)
        pipeline = RequestPipeline(cors: settings.cors, authFailures: authFailures, tokens: tokens, metrics: metrics, logger: logger,
                                   logRequests: settings.logRequests, routePatterns: patterns, allowedMethods: { [router = router.router] path in
                                       path == EventStreamHub.path ? ["GET"] : router.methods(forPath: path)
                                   })
    }

    /// The identity provider's HTTP, through libcurl: a client per exchange (a sign-in makes two or three), answers of
    /// at most 1 MiB, ten seconds each. The provider is the operator's own choice, so no address policy applies.
    @Sendable static func identityProviderTransport(method: String, url: String, headers: [(String, String)], body: [UInt8]?) throws
        -> (status: Int, body: [UInt8]) {
        let client = HTTPClient(timeoutSeconds: 10)
        client.maxResponseBodyBytes = 1 << 20
        let response = try client.send(method: method, url: url, headers: headers, body: body)
        return (response.status, response.body)
    }

    /// The one place where what follows the store subscribes to its changes: one subscriber per concern, so no
    /// controller has to remember to refresh a copy or wake a worker after a write. Captured weakly: the store
    /// outlives none of them, and must not be kept open by them.
    private static func follow(_ changes: ChangeFeed, snapshots: SnapshotHolder, tokens: TokenDirectory, deliveries: DeliveryWorker,
                               eventStreams: EventStreamHub, promotion: PromotionService) {
        changes.subscribe { [weak snapshots] in snapshots?.apply($0) }
        changes.subscribe { [weak tokens] in tokens?.apply($0) }
        changes.subscribe { [weak deliveries] in deliveries?.react(to: $0) }
        changes.subscribe { [weak eventStreams] committed in
            // After the token directory: a stream of a revoked token ends, and its credential no longer opens one.
            for tokenID in committed.revokedTokenIDs { eventStreams?.closeStreams(ofToken: tokenID) }
            eventStreams?.configurationChanged(revision: committed.revision, at: committed.committedAt, flagsChanged: committed.changesFlagRules)
        }
        // Promotion writes in turn (it promotes, releases, pauses), so it hears of a commit after the others.
        changes.subscribeReaction { [weak promotion] in promotion?.react(to: $0) }
    }

    /// Starts the webhook worker and the promotion timer; pending deliveries from before a restart resume.
    /// From then on `/readyz` answers 200.
    public func startServices() {
        follower?.start()
        eventStreams.start()
        deliveries.start()
        mail?.start()
        promotion.start()
        let logger = self.logger
        consoleSessions?.startSweeping(onError: { logger.warning("console session sweep failed", [("error", String(describing: $0))]) })
        readiness.markReady()
    }

    /// Stops the promotion timer, then the webhook worker after its attempts in flight are recorded.
    public func stopServices() {
        follower?.stop()
        eventStreams.stop()
        consoleSessions?.stopSweeping()
        workers.stop()
        promotion.stop()
        deliveries.stop()
        mail?.stop()
    }

    /// The mail worker when `notifications.*` is configured: the relay, the sender, the credentials from their file
    /// (a file that cannot be read stops the start), the console's address for links.
    static func makeMailWorker(store: any Store, settings: ApplicationSettings, clock: @escaping @Sendable () -> Date,
                               logger: Logger) throws -> NotificationWorker? {
        let mail = settings.mail
        guard mail.isConfigured else { return nil }
        let server: SMTPURL
        let from: MailAddress
        do {
            server = try SMTPURL(mail.smtpURL)
            from = try MailAddress(mail.from, for: .from)
        } catch {
            throw ConfigurationError("notifications: \(error)")
        }
        let credentials = try mail.credentials().map { SMTPClient.Credentials(username: $0.username, password: $0.password) }
        let composer = NotificationComposer(from: from, consoleURL: settings.console.publicURL,
                                            unsubscribeKey: try NotificationService.unsubscribeKey(in: store))
        let workerSettings = NotificationWorker.Settings(server: server, credentials: credentials, composer: composer,
                                                         schedule: DeliverySchedule(retryDelays: mail.retryDelays),
                                                         timeoutSeconds: mail.timeoutSeconds, leaseMilliseconds: settings.leaseMilliseconds)
        return NotificationWorker(store: store, settings: workerSettings, clock: clock, onError: { message, error in
            logger.error(message, [("error", String(describing: error))])
        })
    }

    /// Lets `/metrics` report the server's open connections and the ones its deadlines cut.
    public func attach(_ server: HTTPServer) { metrics.observe(server) }

    /// How many routes the metrics count apart: the router's and the event stream.
    var countedRouteCount: Int { pipeline.routePatternPaths.count }

    /// Every API route as `METHOD /path/{param}`, for the OpenAPI coverage test; the console's HTML pages are not API.
    public var routePatterns: [String] { router.patterns.filter { !$0.contains(" /console") } + ["GET " + EventStreamHub.path] }

    /// The HTTP server's handler: answers one request as the server needs it, an event stream, an answer made now,
    /// or, for a request that may wait (any write: a group commit, a DNS lookup), an answer finished by a worker while
    /// the connection is parked. Each way goes through the request pipeline.
    public func respond(to request: HTTPRequest) -> HTTPReply {
        // Lengths first: `==` on two Strings of different lengths still called into the standard library.
        // The stream's preflight is answered with every other OFREP path's, by the pipeline's CORS policy.
        if request.path.utf8.count == EventStreamHub.path.utf8.count, request.path == EventStreamHub.path, request.method != "OPTIONS" {
            return pipeline.streamReply(to: request, route: routeIndexes.stream) { eventStreams.open($0) }
        }
        guard VouchApplication.mayWait(request) else { return .now(response(to: request)) }
        return .later { [self] completion in
            let queued = workers.submit {
                // A request the server already answered (503 while stopping) must not be carried out after all:
                // its client was told it was not, and may send it again.
                guard !completion.isAnswered else { return }
                // A route that answers later (feedback) leaves this worker free while its group commit runs; the
                // commit's leader completes the answer (docs/architecture.md, "Writes and group commit").
                self.pipeline.respond(to: request, routing: { request, answer in self.routeLater(request, answer) }) { response in
                    completion.complete(response)
                }
            }
            if !queued {
                let detail = workers.isStopping ? "the server is stopping; send the request again in a few seconds"
                    : "the server has too many requests waiting; try again in a second"
                completion.complete(Problem(status: 503, detail: detail, headers: [(name: "Retry-After", value: "1")]).response)
            }
        }
    }

    /// Writes under `/v1` and the console's forms wait for a commit (and webhook routes for a DNS lookup); reads and
    /// OFREP are answered at once.
    static func mayWait(_ request: HTTPRequest) -> Bool {
        request.method != "GET" && request.method != "HEAD" && (request.pathStarts(with: "/v1/") || request.pathStarts(with: "/console/"))
    }

    /// The answer to one request, made now, through the whole request pipeline: what the HTTP server's handler
    /// gives a worker for a request that may wait, and what tests call without a socket.
    public func response(to request: HTTPRequest) -> HTTPResponse {
        pipeline.response(to: request) { request, route in routedResponse(to: request, matchedRoute: &route) }
    }

    /// The HTTP server's direct handler: a single OFREP evaluation in the usual shape is answered from the request's
    /// bytes by `OFREPFastPath`, between the request pipeline's two steps for it; anything else is left to
    /// `respond(to:)` with an `HTTPRequest` (nil), which answers it the usual way (docs/architecture.md, "The OFREP
    /// hot path").
    public func respond(to request: borrowing DirectRequest) -> HTTPResponse? {
        guard let keyOffset = fastPath.keyOffset(of: request), let started = pipeline.startDirect(request) else { return nil }
        let evaluated = fastPath.response(to: request, keyOffset: keyOffset)
        // Consumed, not copied: a copy retained and released the answer's headers, body and responses.
        guard var response = consume evaluated else { return nil }
        pipeline.finishDirect(&response, for: request, route: routeIndexes.one, started: started)
        return response
    }

    /// The routed answer, and every error as an RFC 9457 problem (or, for the console, an error page): here and
    /// nowhere else.
    private func routedResponse(to request: HTTPRequest, matchedRoute route: inout Int) -> HTTPResponse {
        if let direct = OFREPController.directRoute(of: request) {
            route = direct == .all ? routeIndexes.all : routeIndexes.one
            return ofrep.response(to: request, route: direct)
        }
        do {
            return try router.route(request, matchedRoute: &route)
        } catch {
            return answer(to: request, failedWith: error, route: route)
        }
    }

    /// `routedResponse` for a request whose route may answer later: `answer` gets the response and the route's
    /// index, at once or from the thread that finished the route's work (a group commit's leader). Only requests
    /// that may wait come here (`mayWait`: writes under `/v1` and the console), so never one of OFREP's direct routes.
    private func routeLater(_ request: HTTPRequest, _ answer: @escaping @Sendable (HTTPResponse, Int) -> Void) {
        router.route(request) { [self] outcome, route in
            switch outcome {
            case .success(let response): answer(response, route)
            case .failure(let error): answer(self.answer(to: request, failedWith: error, route: route), route)
            }
        }
    }

    /// Every error a route throws or answers with, as an RFC 9457 problem (or, for the console, an error page): here
    /// and nowhere else.
    private func answer(to request: HTTPRequest, failedWith error: any Error, route: Int) -> HTTPResponse {
        if let problem = error as? Problem, problem.status == 404, let answer = ofrep.unknownFlag(request) {
            return answer
        } else if VouchApplication.isConsole(request), let problem = ErrorResponses.problem(for: error) {
            // An unknown console address, or a refusal before the console's own handler ran: a page, not JSON.
            return ConsoleErrorPage.response(for: problem, to: request, sessions: consoleSessions)
        } else if let problem = ErrorResponses.problem(for: error) {
            // The database knew of a revocation before this process's copy of the tokens did: the copy learns it
            // now, so the token's next request is refused at once and its 401s are not taken for guesses.
            if let ended = error as? CredentialEnded, let tokenID = ended.tokenID { tokens.revokeNow(tokenID: tokenID) }
            if problem.status == 503 || problem.status == 507 {
                // The operator must hear of a locked database or a full disk; the client only sees the problem.
                logger.log(problem.status == 507 ? .error : .warning, problem.status == 507 ? "disk full, write refused" : "database busy, write refused",
                           [("http.method", request.method), ("http.route", pipeline.routeName(route)),
                            ("request_id", request.requestID), ("error", String(describing: error))])
            }
            return problem.response
        } else {
            // An unexpected failure: log what went wrong (never bound values or bodies) and answer 500.
            logger.error("request failed", [("http.method", request.method), ("http.route", pipeline.routeName(route)),
                                            ("request_id", request.requestID), ("error", String(describing: error))])
            let problem = Problem(status: 500, detail: "the server failed to answer; the error is in its log")
            return VouchApplication.isConsole(request) ? ConsoleErrorPage.response(for: problem) : problem.response
        }
    }

    /// A webhook receiver's URL checked as registration checks it: its form, then where its host resolves.
    private static func check(url: String, with policy: AddressPolicy) throws -> String? {
        if let problem = AddressPolicy.checkForm(url) { return problem }
        do {
            _ = try policy.resolve(url)
            return nil
        } catch {
            // An overloaded resolver says nothing about the URL: the same request may pass in a moment.
            if error.isBusy { throw TryAgainSoon(error.description) }
            return error.description
        }
    }

    /// What webhooks of formats other than Standard Webhooks are checked against when registered: a token file is read
    /// there and then (what it holds is never said), and Slack messages need `console.public_url` for their links.
    private static func webhookReceivers(_ settings: ApplicationSettings) -> WebhookService.Receivers {
        let directory = settings.delivery.shaping.tokenDirectory
        return WebhookService.Receivers(checkTokenFile: { name in
            switch WebhookTokenFile.read(name, in: directory) {
            case .success: nil
            case .failure(let unreadable): unreadable.description
            }
        }, consoleLinks: !settings.console.publicURL.isEmpty)
    }

    static func isConsole(_ request: HTTPRequest) -> Bool { request.path == "/console" || request.pathStarts(with: "/console/") }

    /// What `lookUp` reads from the directory for the token the request presents.
    private static func principal<Value>(of request: HTTPRequest, in directory: OFREPFastPath.Tokens,
                                         _ lookUp: (TokenDirectory, UnsafeRawBufferPointer) -> Value?) -> Value? {
        PresentedToken.withSecret(in: request.headers) { secret in
            guard let secret else { return nil }
            return directory.withDirectory { lookUp($0, secret) }
        }
    }
}
