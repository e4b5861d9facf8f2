/// Per-request state: made by the target callback (or, failing that, the first access call) and released in
/// libmicrohttpd's completion callback, which runs for aborted requests too.
final class RequestState {
    /// The connection's slot in the connection tracker; -1 when it has none.
    let slot: Int
    /// Bytes of the target as received, up to any NUL; -1 when the target callback did not run.
    var targetLength = -1
    /// Why the target is refused, found before libmicrohttpd parsed it; answered once the headers are in.
    var targetProblem: Problem?
    /// False until the first access call, which libmicrohttpd makes once the headers are complete.
    var headersComplete = false
    /// True from the first access call to the last when the request has a body, which has its own deadline.
    var readingBody = false
    /// The headers the handler reads, collected on the first access call.
    var headers = HTTPHeaders()
    var body: [UInt8] = []
    var bodyTooLarge = false
    /// Set when the handler answered `.later`: the id its answer will carry, and where the answer waits.
    var requestID = ""
    var deferredAnswer: DeferredAnswer?
    /// The handler answered `.later` or `.stream`: counted in `ReplyRegistry.requestsInFlight` until completed.
    var answersAfterHandler = false

    init(slot: Int) {
        self.slot = slot
    }
}
