import Foundation

/// Per-request state: taken by the target callback (or, failing that, the first access call) and given back in
/// libmicrohttpd's completion callback, which runs for aborted requests too.
///
/// Given back to its stripe's spares (`HTTPServer.spareStates`) when nothing else holds it, and taken again by a
/// later request, with the memory of its headers and body and its last path: the allocations and frees of a new
/// state per request would be a tenth of an OFREP request's own work. Sendable only to pass through the spares' lock;
/// while in use, a state is touched only on the thread libmicrohttpd serves its connection on.
///
/// Its properties are marked `@exclusivity(unchecked)`: every access is on that one thread, and the run-time checks
/// of overlapping access (eleven per request) cost more than the request's evaluation. Debug builds check that one
/// thread: the state records the thread that took it, and every callback that touches it asserts it runs there
/// (`assertOnOwnThread`); release builds keep neither the record nor the check.
final class RequestState: @unchecked Sendable {
    /// The connection's slot in the connection tracker; -1 when it has none.
    @exclusivity(unchecked) var slot: Int
    /// Bytes of the target as received, up to any NUL; -1 when the target callback did not run.
    @exclusivity(unchecked) var targetLength = -1
    /// Why the target is refused, found before libmicrohttpd parsed it; answered once the headers are in.
    @exclusivity(unchecked) var targetProblem: Problem?
    /// False until the first access call, which libmicrohttpd makes once the headers are complete.
    @exclusivity(unchecked) var headersComplete = false
    /// True from the first access call to the last when the request has a body, which has its own deadline.
    @exclusivity(unchecked) var readingBody = false
    /// The collected headers, read in place on the first access call (see `ReceivedHeaders`).
    let received: ReceivedHeaders
    /// The same headers copied, for a request the general handler answers; empty until then.
    @exclusivity(unchecked) var headers = HTTPHeaders()
    @exclusivity(unchecked) var body: [UInt8] = []
    @exclusivity(unchecked) var bodyTooLarge = false
    /// Set when the handler answered `.later`: the id its answer will carry, and where the answer waits.
    @exclusivity(unchecked) var requestID = ""
    @exclusivity(unchecked) var deferredAnswer: DeferredAnswer?
    /// The handler answered `.later` or `.stream`: counted in `ReplyRegistry.requestsInFlight` until completed.
    @exclusivity(unchecked) var answersAfterHandler = false
    /// The libmicrohttpd response lent for this request's answer, given back when the request completes.
    @exclusivity(unchecked) var lent: (answer: ReusableResponse, response: ReusableResponse.Lent)?

    /// The path of the last request that used this state, as a String, for the next one to reuse when its path has
    /// the same bytes (apps ask for the same few flags over and over).
    @exclusivity(unchecked) private var lastPath = ""

    #if DEBUG
    /// The thread the state belongs to: the one that took it for a request (`adopt`).
    private var owner = pthread_self()
    #endif

    init(slot: Int, names: RequestHeaderScan.Names) {
        self.slot = slot
        received = ReceivedHeaders(names: names)
    }

    /// The state now belongs to the calling thread: the one libmicrohttpd serves the request's connection on.
    @inline(__always)
    func adopt() {
        #if DEBUG
        owner = pthread_self()
        #endif
    }

    /// Stops a debug build when the state is touched on a thread other than its own: that would break what its
    /// unchecked properties and its headers' pointers into libmicrohttpd's memory rely on. Nothing in release builds.
    @inline(__always)
    func assertOnOwnThread(_ file: StaticString = #fileID, line: UInt = #line) {
        #if DEBUG
        assert(pthread_equal(owner, pthread_self()) != 0, "a request's state touched on a thread other than its connection's", file: file, line: line)
        #endif
    }

    /// Returns the answer's lent libmicrohttpd response, if any. Called from the completion callback only: before it,
    /// libmicrohttpd may still write the response, and a state dropped any other way keeps its loan (a response lost
    /// to the pool, never one two requests share).
    func giveBackLentResponse() {
        guard let lent else { return }
        self.lent = nil
        lent.answer.giveBack(lent.response)
    }

    /// The request's path as a String: the last one again when the bytes are the same.
    func path(_ url: UnsafePointer<CChar>) -> String {
        let length = strlen(url)
        let same = lastPath.utf8.count == length
            && (length == 0 || lastPath.utf8.withContiguousStorageIfAvailable { memcmp($0.baseAddress!, url, length) == 0 } == true)
        if !same { lastPath = String(cString: url) }
        return lastPath
    }

    /// Ready for another request: everything as new, except the memory of the headers and body (up to
    /// `RequestState.keptCapacity` bytes each, so a large request does not hold its memory in the spares) and the last path.
    func recycle() {
        targetLength = -1
        targetProblem = nil
        headersComplete = false
        readingBody = false
        received.removeAll()
        // Only a request for the general handler has any copied (see `ReceivedHeaders`); emptying empty arrays
        // costs a call and reference counting per request.
        if !headers.isEmpty { headers.removeAll(keepingCapacity: headers.receivedCapacity <= RequestState.keptCapacity) }
        body.removeAll(keepingCapacity: body.capacity <= RequestState.keptCapacity)
        bodyTooLarge = false
        requestID = ""
        deferredAnswer = nil
        answersAfterHandler = false
    }

    static let keptCapacity = 4 * 1024
}
