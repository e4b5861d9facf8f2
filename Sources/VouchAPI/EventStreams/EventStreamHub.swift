import Dispatch
import Foundation
import Synchronization
import VouchDomain
import VouchHTTP
import VouchJSON
import VouchServerKit

/// OFREP's push (ADR-0008 of the OFREP specification): every bulk answer names an event stream, and every open
/// stream hears `refetchEvaluation` as soon as a committed change could alter its token's answers.
///
/// The streams are parked connections in the HTTP server (no thread waits for them). A change is fanned out from
/// one queue of the hub's own, never on the thread that committed it, and bursts of changes coalesce into one event
/// carrying the newest revision. See docs/contracts.md, "Event streams".
public final class EventStreamHub: Sendable {
    public static let path = "/ofrep/v1/event-stream"

    /// The newest change that could alter answers: its revision is the event id, its time `lastModified`.
    private struct FlagVersion {
        var revision: Int64
        var seconds: Int64
    }

    private struct Registry {
        var streams: StreamRoster
        /// Open streams of each person's token (not `sdk`), for `maxStreamsPerToken`.
        var perToken: [String: Int] = [:]
        var nextID = 0
        /// The last revision sent, so a change that arrives out of order never sends an older id after a newer one.
        var sentRevision: Int64 = 0
        /// A fan-out is queued and not yet run: later changes join it.
        var fanOutQueued = false
    }

    public let settings: EventStreamSettings
    private let signingKey: [UInt8]
    private let principal: @Sendable (_ tokenID: String) -> Principal?
    private let clock: @Sendable () -> Date
    private let version: Mutex<FlagVersion>
    private let registry: Mutex<Registry>
    /// Credentials already signed, by token id: every bulk answer carries one, and it only changes once per window.
    private let credentials = Mutex<[String: (expiresAt: Int64, text: String)]>([:])
    private let fanOut = DispatchQueue(label: "vouch.event-streams")
    /// Keep-alive comments; made at init, resumed by `start`, cancelled by `stop`. Dispatch sources are thread-safe.
    nonisolated(unsafe) private let keepAlive: any DispatchSourceTimer
    private let keepAliveRunning = Mutex(false)
    /// Tokens that hold `maxStreamsPerToken` streams now; their bulk answers offer none. The count lets every other
    /// bulk answer skip the lock while no token is at its cap.
    private let tokensAtCap = Mutex<Set<String>>([])
    private let tokensAtCapCount = Atomic<Int>(0)

    /// - Parameters:
    ///   - revision: the configuration revision at start, and when it was made.
    ///   - principal: the active token with this id, or nil when it is unknown or revoked.
    public init(settings: EventStreamSettings, signingKey: [UInt8], revision: Int64, revisedAt: Date,
                principal: @escaping @Sendable (String) -> Principal?, clock: @escaping @Sendable () -> Date = Date.init) {
        self.settings = settings
        self.signingKey = signingKey
        self.principal = principal
        self.clock = clock
        version = Mutex(FlagVersion(revision: revision, seconds: Int64(revisedAt.timeIntervalSince1970)))
        registry = Mutex(Registry(streams: StreamRoster(sliceCount: EventStreamHub.keepAliveSlices(settings))))
        registry.withLock { $0.sentRevision = revision }
        keepAlive = DispatchSource.makeTimerSource(queue: fanOut)
    }

    // MARK: What bulk answers carry

    /// The configuration's entity tag for `flagConfigEtag`: the revision of the last change to any flag.
    public var configurationETag: String { "\"flags-\(version.withLock { $0.revision })\"" }

    public var lastModifiedSeconds: Int64 { version.withLock { $0.seconds } }

    /// Whether an SSE-triggered refetch names a configuration other than the current one (guideline 9 of OFREP:
    /// such a request is answered 200, never downgraded to 304).
    public func differsFromCurrent(flagConfigETag: String?, flagConfigLastModified: String?) -> Bool {
        let current = version.withLock { $0 }
        if let flagConfigETag, EventStreamHub.bareTag(flagConfigETag) != "flags-\(current.revision)" { return true }
        if let flagConfigLastModified, Int64(flagConfigLastModified) != current.seconds { return true }
        return false
    }

    /// `,"eventStreams":[…]` for a bulk answer to this principal, or nothing when streams are off, its token was made
    /// without them, or the address clients reach vouchd at is unknown.
    public func bulkMember(for principal: Principal, host: String?) -> [UInt8] {
        guard settings.enabled, principal.eventStreams, !isAtCap(principal), let base = baseURL(host: host) else { return [] }
        var bytes = Array(#","eventStreams":[{"type":"sse","url":"#.utf8)
        JSONWriter.writeString(base + EventStreamHub.path + "?credential=" + credential(for: principal.tokenID), into: &bytes)
        bytes.append(contentsOf: #","inactivityDelaySec":"#.utf8)
        bytes.append(contentsOf: String(settings.inactivityDelaySeconds).utf8)
        bytes.append(contentsOf: "}]".utf8)
        return bytes
    }

    /// Whether the principal's token holds as many streams as it may: then it is offered none.
    private func isAtCap(_ principal: Principal) -> Bool {
        guard tokensAtCapCount.load(ordering: .relaxed) > 0, principal.role != .sdk else { return false }
        return tokensAtCap.withLock { $0.contains(principal.tokenID) }
    }

    private func credential(for tokenID: String) -> String {
        let now = clock()
        let current = StreamCredential.current(tokenID: tokenID, now: now, lifetimeSeconds: settings.credentialSeconds)
        if let cached = credentials.withLock({ $0[tokenID] }), cached.expiresAt == current.expiresAt { return cached.text }
        let text = current.encoded(key: signingKey)
        credentials.withLock { cache in
            // Bounded by the tokens in use; emptied rather than aged, since a miss only costs one signature.
            if cache.count >= 10_000 { cache.removeAll() }
            cache[tokenID] = (current.expiresAt, text)
        }
        return text
    }

    /// `ofrep.public_url`, or `http://` and the request's `Host`.
    private func baseURL(host: String?) -> String? { PublicAddress.base(configured: settings.publicURL, host: host) }

    private static func bareTag(_ tag: String) -> Substring {
        var text = Substring(tag.trimmingCharacters(in: .whitespaces))
        if text.hasPrefix("W/") { text = text.dropFirst(2) }
        if text.hasPrefix("\""), text.hasSuffix("\""), text.count >= 2 { text = text.dropFirst().dropLast() }
        return text
    }

    // MARK: Streams

    public var openStreams: Int { registry.withLock { $0.streams.count } }

    /// Answers `GET /ofrep/v1/event-stream?credential=…`. Like OFREP's evaluation routes, a refusal has no body.
    public func open(_ request: HTTPRequest) -> HTTPReply {
        guard settings.enabled else { return .now(.empty(404)) }
        guard request.method == "GET" || request.method == "HEAD" else {
            return .now(.empty(405, headers: [(name: "Allow", value: "GET, HEAD")]))
        }
        guard let presented = request.query["credential"],
              case .success(let credential) = StreamCredential.verify(presented, key: signingKey, now: clock()),
              let principal = principal(credential.tokenID), principal.allows(.evaluateFlags) else {
            return EventStreamHub.unauthorized
        }
        let head = HTTPResponse(status: 200, headers: [(name: "Content-Type", value: "text/event-stream; charset=utf-8"),
                                                       (name: "Cache-Control", value: "no-store"),
                                                       // nginx and similar proxies buffer answers unless told not to.
                                                       (name: "X-Accel-Buffering", value: "no")])
        if request.method == "HEAD" { return .now(head) }
        // Counted and listed under one lock, so opens at the same moment never pass `maxStreams` (or a token's cap) together.
        let personal = principal.role != .sdk
        let opened = registry.withLock { registry -> Result<HTTPStream, StreamRefusal> in
            guard registry.streams.count < settings.maxStreams else { return .failure(.serverFull) }
            let held = personal ? registry.perToken[principal.tokenID, default: 0] : 0
            guard held < settings.maxStreamsPerToken || !personal else { return .failure(.tokenFull) }
            registry.nextID += 1
            let id = registry.nextID
            let stream = HTTPStream(onClose: { [weak self] in self?.closed(id) })
            registry.streams.insert(StreamRoster.Entry(tokenID: principal.tokenID, stream: stream), id: id)
            if personal {
                registry.perToken[principal.tokenID] = held + 1
                if held + 1 >= settings.maxStreamsPerToken { markAtCap(principal.tokenID, true) }
            }
            return .success(stream)
        }
        let stream: HTTPStream
        switch opened {
        case .success(let made): stream = made
        case .failure(.serverFull):
            return .now(.empty(503, headers: [(name: "Retry-After", value: String(max(1, settings.keepAliveSeconds)))]))
        case .failure(.tokenFull):
            // This token's own streams fill its share: it waits for one of them to end, everyone else goes on.
            return .now(.empty(429, headers: [(name: "Retry-After", value: String(max(1, settings.keepAliveSeconds)))]))
        }
        // A revocation committed since the look-up above closed the token's streams before this one was listed, so
        // look again now that it is: either that close saw this stream, or this look-up sees the revocation.
        guard self.principal(principal.tokenID) != nil else {
            stream.finish()
            return EventStreamHub.unauthorized
        }
        // The first bytes go out at once, so the client (and any proxy) sees the stream open.
        stream.send(Array(": open\n\n".utf8))
        if let lastSeen = request.header("last-event-id").flatMap({ Int64($0.trimmingCharacters(in: .whitespaces)) }) {
            // A client that reconnects after missing changes hears of them once, with the newest revision. On the
            // fan-out queue, so it never goes out after a newer event a fan-out sent this stream meanwhile.
            fanOut.async { [self] in
                let current = version.withLock { $0 }
                if lastSeen != current.revision { stream.send(EventStreamHub.event(current)) }
            }
        }
        return .stream(head, stream)
    }

    private enum StreamRefusal: Error { case serverFull, tokenFull }

    /// A stream ended: unlisted, and its token's count lowered.
    private func closed(_ id: Int) {
        registry.withLock { registry in
            guard let tokenID = registry.streams.remove(id: id)?.tokenID, let held = registry.perToken[tokenID] else { return }
            registry.perToken[tokenID] = held > 1 ? held - 1 : nil
            if held == settings.maxStreamsPerToken { markAtCap(tokenID, false) }
        }
    }

    /// Called under the registry's lock, so a token's place in `tokensAtCap` follows its count.
    private func markAtCap(_ tokenID: String, _ atCap: Bool) {
        tokensAtCap.withLock { capped in
            if atCap { capped.insert(tokenID) } else { capped.remove(tokenID) }
            tokensAtCapCount.store(capped.count, ordering: .relaxed)
        }
    }

    private static let unauthorized = HTTPReply.now(.empty(401, headers: [(name: "WWW-Authenticate", value: "Bearer realm=\"vouch\"")]))

    /// A change was committed. Streams hear of it only when it could change their answers (a flag changed).
    public func configurationChanged(revision: Int64, at time: Date, flagsChanged: Bool) {
        guard flagsChanged else { return }
        let advanced = version.withLock { version -> Bool in
            guard revision > version.revision else { return false }
            version = FlagVersion(revision: revision, seconds: Int64(time.timeIntervalSince1970))
            return true
        }
        guard advanced else { return }
        let queue = registry.withLock { registry -> Bool in
            if registry.fanOutQueued { return false }
            registry.fanOutQueued = true
            return true
        }
        if queue { fanOut.async { [self] in sendNewestEvent() } }
    }

    private func sendNewestEvent() {
        let current = version.withLock { $0 }
        let streams = registry.withLock { registry -> [HTTPStream] in
            registry.fanOutQueued = false
            guard current.revision > registry.sentRevision else { return [] }
            registry.sentRevision = current.revision
            return registry.streams.streams
        }
        let bytes = EventStreamHub.event(current)
        for stream in streams { stream.send(bytes) }
    }

    /// Returns once every change published so far has been sent to the streams open when it was fanned out. A stream
    /// opened while an earlier change still waited for the fan-out queue hears of that change too (one refetch more);
    /// tests that open a stream after changes wait here first, so it hears only what they change next.
    public func waitForFanOut() {
        fanOut.sync {}
    }

    /// Ends the streams a token opened: it was revoked (or its tester withdrew).
    public func closeStreams(ofToken tokenID: String) {
        let closing = registry.withLock { $0.streams.streams(ofToken: tokenID) }
        for stream in closing { stream.finish() }
        credentials.withLock { _ = $0.removeValue(forKey: tokenID) }
    }

    /// `id`, `event: message` and the `refetchEvaluation` data, as ADR-0008 lays them out.
    private static func event(_ version: FlagVersion) -> [UInt8] {
        var bytes = Array("id: \(version.revision)\nevent: message\ndata: {\"type\":\"refetchEvaluation\",\"etag\":".utf8)
        JSONWriter.writeString("\"flags-\(version.revision)\"", into: &bytes)
        bytes.append(contentsOf: ",\"lastModified\":\(version.seconds)}\n\n".utf8)
        return bytes
    }

    // MARK: Life

    /// Slices of the streams (`StreamRoster`), one written per tick: one per second of `ofrep.stream_keepalive`, and at
    /// least two. Not finer: every tick wakes its slice's connections, and each time its thread finds any woken,
    /// libmicrohttpd 0.9.75 walks all the connections it holds parked; with a tick every 100 ms those walks took 4.5 %
    /// of vouchd's CPU under OFREP load beside 10,000 streams (BENCHMARKS.md, part 7).
    static func keepAliveSlices(_ settings: EventStreamSettings) -> Int {
        max(2, settings.keepAliveSeconds)
    }

    /// The time between ticks: the interval over the slices.
    static func keepAliveTickMilliseconds(_ settings: EventStreamSettings) -> Int {
        max(1, max(1, settings.keepAliveSeconds) * 1_000 / keepAliveSlices(settings))
    }

    static let keepAliveComment = Array(": keep-alive\n\n".utf8)

    /// Starts the keep-alive comments: every tick one slice of the streams hears one, so 10,000 streams are not all
    /// written at the same moment (which took the cores from OFREP's requests for that moment).
    public func start() {
        let milliseconds = EventStreamHub.keepAliveTickMilliseconds(settings)
        let tick = DispatchTimeInterval.milliseconds(milliseconds)
        keepAlive.schedule(deadline: .now() + tick, repeating: tick, leeway: .milliseconds(max(1, milliseconds / 10)))
        keepAlive.setEventHandler { [weak self] in
            guard let self else { return }
            // Ticks the timer could not deliver on time (its queue was fanning out a change) come as one.
            sendKeepAlives(ticks: Int(clamping: keepAlive.data))
        }
        let resume = keepAliveRunning.withLock { running -> Bool in
            defer { running = true }
            return !running
        }
        if resume { keepAlive.resume() }
    }

    /// Writes the keep-alive of the slices whose turn it is after `ticks` ticks.
    func sendKeepAlives(ticks: Int) {
        let due = registry.withLock { $0.streams.takeTurns(ticks) }
        for stream in due { stream.send(EventStreamHub.keepAliveComment) }
    }

    /// Stops the keep-alive comments and ends every stream, so the server can drain.
    public func stop() {
        // A dispatch source must not be released while never resumed, so one that never ran is resumed to cancel it.
        let resume = keepAliveRunning.withLock { running -> Bool in
            defer { running = true }
            return !running
        }
        if resume { keepAlive.resume() }
        keepAlive.cancel()
        let streams = registry.withLock { $0.streams.streams }
        for stream in streams { stream.finish() }
        fanOut.sync {}
    }

    deinit {
        stop()
    }
}
