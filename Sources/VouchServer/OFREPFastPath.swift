import VouchAPI
import VouchDomain
import VouchHTTP
import VouchServerKit

/// The one place a single OFREP evaluation in the usual shape is answered straight from the bytes the HTTP server
/// received, with no `HTTPRequest` made (docs/architecture.md, "The OFREP hot path"): a POST to
/// `/ofrep/v1/evaluate/flags/{key}` presenting a token allowed to evaluate, with a JSON body whose targeting key
/// `TargetingKeyScanner` finds. Anything else is left to the usual handler (nil), which answers it; what this answers,
/// it answers with the same function as that handler (`OFREPController.evaluateOne(keyBytes:…)`), and the request
/// pipeline gives it the same CORS headers, count and log line (`RequestPipeline.startDirect`, `finishDirect`);
/// `DirectAnswerTests` compares the two answer by answer.
///
/// The shortcuts of this path are here and in the HTTP server's binding (`DirectRequest`, `RequestState`), each
/// with its reason:
/// - the request's bytes are read where libmicrohttpd and the request's state keep them, only while the request is
///   lent (`DirectRequest` is noncopyable and hands out its bytes as `RawSpan`s that cannot leave their closure);
///   the unsafe pointers below exist only inside those closures;
/// - the token directory is reached unretained, for every request that presents a token (`Tokens`);
/// - no closure here captures `self`: a copy of this struct retained each of its objects, the snapshot holder
///   through the slow path of reference counting, so the closures capture the one object they use.
struct OFREPFastPath: Sendable {
    let snapshots: SnapshotHolder
    let metrics: Metrics
    let tokens: Tokens

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

    /// Where the flag's key starts in the path of a POST to one flag's evaluation, or nil for any other request.
    func keyOffset(of request: borrowing DirectRequest) -> Int? {
        guard request.withMethod({ $0.withUnsafeBytes { HTTPRequest.equal($0, "POST") } }),
              case .one(let keyOffset)? = request.withPath({ $0.withUnsafeBytes(OFREPController.directRoute(path:)) }) else { return nil }
        return keyOffset
    }

    /// The evaluation of the flag whose key starts at `keyOffset` in the path, or nil to leave the request to the
    /// usual handler.
    func response(to request: borrowing DirectRequest, keyOffset: Int) -> HTTPResponse? {
        let tokens = self.tokens
        guard let role = PresentedToken.withSecret(in: request, { secret in
            secret.flatMap { secret in tokens.withDirectory { $0.role(forSecretBytes: secret) } }
        }), role.allows(.evaluateFlags), request.hasJSONBody else { return nil }
        let snapshots = self.snapshots
        let metrics = self.metrics
        return request.withPath { path in
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
    }
}
