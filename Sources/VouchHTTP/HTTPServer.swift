import CMicroHTTPD
import Foundation
import Synchronization
import VouchConcurrency

/// An HTTP/1.1 server on libmicrohttpd: a thread pool with epoll, keep-alive, a body size limit, and deadlines
/// for slow clients.
///
/// Handlers run on libmicrohttpd's threads and must return at once: an answer that waits (a group commit, a lookup)
/// is a `.later` reply, and an event stream a `.stream` one; both suspend the connection instead of holding a thread
/// (docs/architecture.md, "Answers that wait").
///
/// Every answer is made here or by the handler, as `application/problem+json` with an `X-Request-Id`, except
/// the few libmicrohttpd 0.9.75 sends itself, in HTML and without an id, before any callback of ours can act
/// (each checked against this server, in HTTPFramingTests and HTTPAbuseTests or by hand):
/// - a head larger than the connection's memory (`RequestLimits.connectionMemoryBytes`, 24 KiB): 414 when the
///   request line alone does not fit, 431 otherwise. Below that the server's own 414 and 431 apply;
/// - a request line without an HTTP version, or with one that is not `HTTP/x.y` (400), or whose major version is
///   not 1 (505); a line with no space at all, or one starting with a space, is closed without an answer;
/// - a header line without a colon (400);
/// - a `Content-Length` that is not a decimal number (400) or does not fit in 64 bits (413);
/// - malformed chunked encoding in the body (400), or a chunk size that does not fit in 64 bits (413).
/// Each of them also closes the connection. Everything else a client can get wrong about the head (a target or
/// head over the limits, a NUL in the target, ambiguous framing, an unknown transfer coding, HTTP/1.1 without
/// `Host`) is answered by `HTTPServer+Connection` with a problem document, as are a body over the limit and
/// whatever the handler answers.
public final class HTTPServer: Sendable {
    public struct Configuration: Sendable {
        public var host: String
        public var port: UInt16
        public var threadCount: Int
        public var maxBodyBytes: Int
        /// libmicrohttpd's own timeout: a connection silent this long is closed, whatever it is doing.
        public var connectionTimeoutSeconds: Int
        public var connectionLimit: Int
        /// Connections one address may hold open at once, so one slow or hostile client cannot take them all.
        public var connectionLimitPerAddress: Int
        /// Request headers copied into `HTTPRequest.headers`.
        public var collectedHeaders: [String]
        /// When a slow request's connection is shut down.
        public var deadlines: ConnectionDeadlines
        public var limits: RequestLimits

        public init(host: String = "127.0.0.1", port: UInt16 = 8750, threadCount: Int = ProcessInfo.processInfo.activeProcessorCount,
                    maxBodyBytes: Int = 64 * 1024, connectionTimeoutSeconds: Int = 30, connectionLimit: Int = 4096,
                    connectionLimitPerAddress: Int = 128, collectedHeaders: [String] = HTTPRequest.collectedHeaders,
                    deadlines: ConnectionDeadlines = ConnectionDeadlines(), limits: RequestLimits = RequestLimits()) {
            self.collectedHeaders = collectedHeaders
            self.host = host
            self.port = port
            self.threadCount = max(1, threadCount)
            self.maxBodyBytes = maxBodyBytes
            self.connectionTimeoutSeconds = connectionTimeoutSeconds
            self.connectionLimit = max(1, connectionLimit)
            self.connectionLimitPerAddress = connectionLimitPerAddress
            self.deadlines = deadlines
            self.limits = limits
        }
    }

    public struct StartFailure: Error, CustomStringConvertible {
        public var description: String
    }

    /// Connections the server shut down itself, since it started.
    public struct CutConnections: Sendable, Equatable {
        /// Headers not complete within `ConnectionDeadlines.headerMilliseconds` (idle kept-alive ones included).
        public var headerDeadline: Int
        /// A body slower than `ConnectionDeadlines.bodyMinBytesPerSecond` allows.
        public var bodyRate: Int
        /// Waiting for a request while the server was near its connection cap.
        public var shed: Int
        /// Event streams ended because their client did not read what they were sent (`HTTPStream.maxQueuedBytes`).
        public var slowStreams: Int
    }

    public typealias Handler = @Sendable (HTTPRequest) -> HTTPReply
    /// A handler that always answers at once.
    public typealias Responder = @Sendable (HTTPRequest) -> HTTPResponse
    /// Tried first for every request whose head and body are in, before an `HTTPRequest` is made of it: answers the
    /// requests it knows at once, nil leaves the request to the handler.
    public typealias DirectHandler = @Sendable (borrowing DirectRequest) -> HTTPResponse?

    let configuration: Configuration
    let handler: Handler
    let direct: DirectHandler?
    let tracker: ConnectionTracker
    let requestIDs = RequestIDGenerator()
    let headerNames: RequestHeaderScan.Names
    /// The index of `x-request-id` in `headerNames.keys`, whose value `ReceivedHeaders` holds by index; -1 when the
    /// configuration does not collect it.
    let requestIDHeader: Int
    private let reaper: ConnectionReaper
    /// The running daemon; set once in `start`, read by `stop`.
    private let daemon = DaemonHandle()
    /// Requests begun (index 0) and completed or aborted (index 1), so shutdown can wait for those in flight.
    /// Counted per stripe of threads: one count shared by the HTTP threads passed its cache line between the cores
    /// twice per request.
    let requestTally = AtomicCounters(count: 2)

    /// Whether no request was in flight at some moment during the call: completions are summed before beginnings,
    /// and both only grow, so equal sums mean every request begun by then had completed.
    var noRequestInFlight: Bool {
        let completed = requestTally[1]
        return requestTally[0] == completed
    }
    /// Open streams and pending `.later` completions.
    let replies = ReplyRegistry()
    /// Request states given back by completed requests, for later ones (see `RequestState`).
    let spareStates = Striped<[RequestState]> { [] }

    /// - Parameter direct: answers what it can before the request is made for `handler` (see `DirectHandler`); it must
    ///   answer exactly as `handler` would.
    public init(configuration: Configuration, handler: @escaping Handler, direct: DirectHandler? = nil) {
        self.configuration = configuration
        self.handler = handler
        self.direct = direct
        tracker = ConnectionTracker(capacity: configuration.connectionLimit, deadlines: configuration.deadlines)
        reaper = ConnectionReaper(intervalMilliseconds: configuration.deadlines.checkIntervalMilliseconds)
        headerNames = RequestHeaderScan.Names(configuration.collectedHeaders)
        requestIDHeader = headerNames.index(of: "x-request-id") ?? -1
    }

    /// A server whose every answer is made at once by `responder`.
    public convenience init(configuration: Configuration, responder: @escaping Responder) {
        self.init(configuration: configuration) { .now(responder($0)) }
    }

    /// Binds and starts serving; returns the bound port (useful with port 0).
    public func start() throws -> UInt16 {
        // Before anything is bound: the server relies on where this library keeps a request's bytes.
        if let refusal = MicroHTTPDVersion.refusal(running: MicroHTTPDVersion.running) { throw StartFailure(description: refusal) }
        let address = try SocketAddress(host: configuration.host, port: configuration.port)
        // Epoll with a thread pool, which keeps up with nginx on two cores (docs/architecture.md, "libmicrohttpd");
        // ITC lets `MHD_quiesce_daemon` stop accepting at shutdown.
        // TURBO: no extra checks or syscalls per request that a daemon behind nothing else does not need.
        // ALLOW_SUSPEND_RESUME: `.later` and `.stream` replies suspend their connection while they wait.
        var flags = MHD_USE_INTERNAL_POLLING_THREAD.rawValue | MHD_USE_EPOLL.rawValue | MHD_USE_ITC.rawValue | MHD_USE_TURBO.rawValue
            | MHD_ALLOW_SUSPEND_RESUME.rawValue
        if address.isIPv6 { flags |= MHD_USE_IPv6.rawValue }
        // The server outlives the daemon (stop() joins MHD's threads before the server can go), so unretained is safe.
        let context = Unmanaged.passUnretained(self).toOpaque()
        let started = address.withSockaddr { sockaddr in
            var settings = vouch_mhd_settings(
                flags: UInt32(flags), address: sockaddr, thread_pool_size: UInt32(configuration.threadCount),
                connection_timeout_seconds: UInt32(configuration.connectionTimeoutSeconds), connection_limit: UInt32(configuration.connectionLimit),
                per_ip_connection_limit: UInt32(configuration.connectionLimitPerAddress),
                connection_memory_bytes: configuration.limits.connectionMemoryBytes,
                handler: HTTPServer.accessHandler, completed: HTTPServer.completedHandler, target: HTTPServer.targetHandler,
                connection: HTTPServer.connectionHandler, context: context)
            return vouch_mhd_start(&settings)
        }
        guard let started else {
            throw StartFailure(description: "cannot listen on \(configuration.host):\(configuration.port): the address is in use or not available")
        }
        daemon.set(started)
        reaper.start { [tracker] in tracker.reap().retryInMilliseconds }
        return vouch_mhd_bound_port(started)
    }

    /// Stops accepting new connections and finishes every open stream (after what it has queued), and every stream
    /// that starts from now on; other requests in flight, pending `.later` ones included, go on.
    public func quiesce() {
        daemon.withDaemon { daemon in
            // "Returns the listen socket, which the application must close"; left open, the kernel would keep
            // completing connections into a backlog nobody accepts from.
            let listener = MHD_quiesce_daemon(daemon)
            if listener >= 0 { close(listener) }
        }
        for stream in replies.closeStreams() { stream.finish() }
    }

    /// Waits until no request is in flight or `timeoutSeconds` have passed; true when none is left. Open streams and
    /// pending `.later` requests are in flight. Call after `quiesce`, so no new connection adds to them (an open
    /// keep-alive connection still may).
    public func drain(timeoutSeconds: Double) -> Bool {
        HTTPServer.wait(upToSeconds: timeoutSeconds) { noRequestInFlight }
    }

    /// Stops the server and waits for libmicrohttpd's threads and the deadline reaper; no handler, `.later` closure
    /// or stream's `onClose` runs after this returns.
    ///
    /// libmicrohttpd must not be stopped while a connection is suspended, so first every stream is finished and every
    /// pending `.later` request answered 503, which resumes their connections; those answers get a moment to go out.
    public func stop() {
        let (streams, completions) = replies.closeAll()
        for stream in streams { stream.finish() }
        for completion in completions { completion.complete(HTTPServer.stoppingProblem.response) }
        _ = HTTPServer.wait(upToSeconds: HTTPServer.stopGraceSeconds) { replies.requestsInFlight.load(ordering: .acquiring) == 0 }
        daemon.take().map { MHD_stop_daemon($0) }
        reaper.stop()
    }

    /// How long `stop` lets resumed streams and `.later` answers finish writing.
    static let stopGraceSeconds = 2.0

    /// Polls `condition` every few milliseconds until it holds (true) or `seconds` have passed (false).
    private static func wait(upToSeconds seconds: Double, until condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while !condition() {
            guard Date() < deadline else { return false }
            usleep(5_000)
        }
        return true
    }

    deinit {
        stop()
    }

    /// Connections open now, as the deadline reaper counts them.
    public var openConnections: Int { tracker.openConnections }

    public var cutConnections: CutConnections {
        CutConnections(headerDeadline: tracker.cutByHeaderDeadline.load(ordering: .relaxed), bodyRate: tracker.cutByBodyRate.load(ordering: .relaxed),
                       shed: tracker.shed.load(ordering: .relaxed), slowStreams: replies.streamsTooSlow.load(ordering: .relaxed))
    }

    /// Streams answering a request now and not yet ended.
    public var openStreams: Int { replies.openStreams }

    /// `.later` requests whose completion has not been called yet.
    public var pendingReplies: Int { replies.pendingCompletions }

    private static let accessHandler: vouch_mhd_access_handler = { context, connection, url, method, version, uploadData, uploadDataSize, requestState in
        guard let context, let connection, let url, let method, let version, let uploadDataSize, let requestState else { return .NO }
        return HTTPServer.borrowed(context) { server in
            server.handle(connection: connection, url: url, method: method, version: version, uploadData: uploadData,
                          uploadDataSize: uploadDataSize, requestState: requestState)
        }
    }

    /// The server behind a callback's context, without retaining it: the server outlives its daemon (see `start`).
    /// A retain and release per callback would go through the slow path of reference counting, since the metrics
    /// hold the server weakly.
    private static func borrowed<Result>(_ context: UnsafeMutableRawPointer, _ body: (HTTPServer) -> Result) -> Result {
        Unmanaged<HTTPServer>.fromOpaque(context)._withUnsafeGuaranteedRef(body)
    }

    /// Runs once per request, on its request line, before libmicrohttpd parses the query or decodes the path.
    /// A target the server will refuse also has its query cut off here: libmicrohttpd 0.9.75 keeps every
    /// parameter in the connection's fixed memory, and when that runs out while it parses them it neither
    /// answers nor closes (a few hundred parameters in 16 KiB were enough). Writing through the `const` pointer
    /// is sound: it points into libmicrohttpd's own read buffer, which it is itself about to cut at the `?`.
    private static let targetHandler: vouch_mhd_target_handler = { context, target, connection in
        guard let context, let target else { return nil }
        // No closure over the server (`connection.map(server.slot(of:))` made one): retaining it takes the slow path.
        let (state, limits) = HTTPServer.borrowed(context) { server in
            (server.takeState(slot: connection == nil ? -1 : server.slot(of: connection!)), server.configuration.limits)
        }
        let inspected = RequestTarget(cString: target)
        state.targetLength = inspected.length
        state.targetProblem = inspected.problem(limits)
        if state.targetProblem != nil, let queryStart = inspected.queryStart {
            UnsafeMutablePointer(mutating: target)[queryStart + 1] = 0
        }
        return Unmanaged.passRetained(state).toOpaque()
    }

    /// Runs for every request the target callback saw, finished or aborted: the one place per-request state is freed.
    private static let completedHandler: vouch_mhd_completed_handler = { context, _, requestState, _ in
        guard let requestState, let rawState = requestState.pointee else { return }
        var state = Unmanaged<RequestState>.fromOpaque(rawState).takeRetainedValue()
        state.assertOnOwnThread()
        requestState.pointee = nil
        guard let context else { return }
        HTTPServer.borrowed(context) { server in
            if state.answersAfterHandler { server.replies.requestsInFlight.subtract(1, ordering: .releasing) }
            if state.headersComplete { server.requestTally.add(1, at: 1) }
            // Kept alive, the connection now waits for its next request, and the header deadline counts from here.
            if state.slot >= 0 { server.tracker.enter(.waitingForRequest, slot: state.slot) }
            state.giveBackLentResponse()
            server.giveBack(&state)
        }
    }

    /// A socket accepted or about to be closed: the tracker's slot lives in libmicrohttpd's socket context.
    private static let connectionHandler: vouch_mhd_connection_handler = { context, connection, socketContext, code in
        guard let context, let connection, let socketContext else { return }
        let server = Unmanaged<HTTPServer>.fromOpaque(context).takeUnretainedValue()
        switch code {
        case MHD_ConnectionNotificationCode.CONNECTION_NOTIFY_STARTED:
            let (slot, crowded) = server.tracker.opened(descriptor: vouch_mhd_connection_descriptor(connection))
            socketContext.pointee = slot.flatMap { UnsafeMutableRawPointer(bitPattern: $0 + 1) }
            if crowded { server.reaper.wake() }
        default:
            let slot = Int(bitPattern: socketContext.pointee) - 1
            if slot >= 0 { server.tracker.closed(slot: slot) }
            socketContext.pointee = nil
        }
    }
}
