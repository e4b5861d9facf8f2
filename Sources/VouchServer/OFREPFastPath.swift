import VouchAPI
import VouchDomain
import VouchHTTP
import VouchServerKit

/// The one place a single OFREP evaluation in the usual shape is answered straight from the bytes the HTTP server
/// received, with no `HTTPRequest` made (docs/architecture.md, "The OFREP hot path"): a POST to
/// `/ofrep/v1/evaluate/flags/{key}` presenting a token allowed to evaluate, from an address not blocked for guessing
/// tokens, with a JSON body whose targeting key `TargetingKeyScanner` finds. Anything else is left to the usual
/// handler (nil), which answers it; what this answers, it answers with the same functions as that handler
/// (`OFREPController.evaluateOne(keyBytes:…)`, `CORSPolicy.addHeaders(to:forOFREPWith:)`), and `DirectAnswerTests`
/// compares the two answer by answer.
///
/// The shortcuts of this path are here and in the HTTP server's binding (`DirectRequest`, `RequestState`), each
/// with its reason:
/// - the request's bytes are read where libmicrohttpd and the request's state keep them, only while `answer` is
///   lent the request (`DirectRequest` is noncopyable and hands out its bytes as `RawSpan`s that cannot leave their
///   closure); the unsafe pointers below exist only inside those closures;
/// - the token directory is reached unretained, for every request that presents a token (`Tokens`);
/// - no closure here captures `self`: a copy of this struct retained each of its objects, the snapshot holder
///   through the slow path of reference counting, so the closures capture the one object they use.
struct OFREPFastPath: Sendable {
    let snapshots: SnapshotHolder
    let metrics: Metrics
    let tokens: Tokens
    let authFailures: AuthFailureLimiter
    let cors: CORSPolicy

    /// The token directory, unretained, for this path and for the usual handler's lookup of a presented token
    /// (`VouchApplication.principal(of:…)`): the application holds the directory for as long as its server lives,
    /// and a retain and release per request took the slow path of reference counting (the change feed references
    /// it weakly) on an object every HTTP thread shares. Trivial to copy, so a closure may capture it.
    struct Tokens: Sendable {
        private let unretained: Unmanaged<TokenDirectory>

        init(_ directory: TokenDirectory) {
            unretained = Unmanaged.passUnretained(directory)
        }

        func withDirectory<Result>(_ body: (TokenDirectory) -> Result) -> Result {
            unretained._withUnsafeGuaranteedRef(body)
        }
    }

    /// The answer to `request`, or nil to leave it to the usual handler.
    /// - Parameter started: set, for an answer, to when it began on the monotonic clock, for the request's duration.
    func answer(_ request: borrowing DirectRequest, started: inout UInt64) -> HTTPResponse? {
        guard request.withMethod({ $0.withUnsafeBytes { HTTPRequest.equal($0, "POST") } }),
              case .one(let keyOffset)? = request.withPath({ $0.withUnsafeBytes(OFREPController.directRoute(path:)) }) else { return nil }
        // `handle` answers 429 to a blocked address presenting any token; this answer needs a token.
        if authFailures.isTracking, authFailures.retryAfter(for: request.clientAddress) != nil { return nil }
        started = VouchApplication.monotonicNanoseconds()
        let tokens = self.tokens
        guard let role = VouchApplication.withPresentedSecret(in: request, { secret in
            secret.flatMap { secret in tokens.withDirectory { $0.role(forSecretBytes: secret) } }
        }), role.allows(.evaluateFlags), request.hasJSONBody else { return nil }
        let snapshots = self.snapshots
        let metrics = self.metrics
        let evaluated = request.withPath { path in
            request.withBody { body in
                path.withUnsafeBytes { path in
                    body.withUnsafeBytes { body -> HTTPResponse? in
                        guard !body.isEmpty, let range = TargetingKeyScanner.targetingKeyRange(in: body.assumingMemoryBound(to: UInt8.self)) else { return nil }
                        return OFREPController.evaluateOne(keyBytes: UnsafeRawBufferPointer(rebasing: path[keyOffset...]),
                                                           targetingKey: UnsafeRawBufferPointer(rebasing: body[range]), snapshots: snapshots, metrics: metrics)
                    }
                }
            }
        }
        // Consumed, not copied: a copy retained and released the answer's headers, body and responses.
        guard var response = consume evaluated else { return nil }
        cors.addHeaders(to: &response, forOFREPWith: request)
        return response
    }
}
