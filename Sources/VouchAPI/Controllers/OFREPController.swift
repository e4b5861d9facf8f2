import Foundation
import VouchDomain
import VouchHTTP
import VouchJSON
import VouchServerKit

/// The OpenFeature Remote Evaluation Protocol: single and bulk evaluation from the in-memory snapshot.
///
/// Errors follow OFREP, not RFC 9457: 400/404 carry `{key, errorCode, errorDetails}`, 401 and 403 have no body.
package struct OFREPController {
    let snapshots: SnapshotHolder
    let metrics: Metrics
    let authenticate: @Sendable (HTTPRequest) -> Principal?
    /// The role of the request's principal alone, which is all a single evaluation asks (see `refuseUnauthorized`).
    let authenticateRole: @Sendable (HTTPRequest) -> Role?
    let eventStreams: EventStreamHub

    package init(snapshots: SnapshotHolder, metrics: Metrics, authenticate: @escaping @Sendable (HTTPRequest) -> Principal?,
                 authenticateRole: @escaping @Sendable (HTTPRequest) -> Role?, eventStreams: EventStreamHub) {
        self.snapshots = snapshots
        self.metrics = metrics
        self.authenticate = authenticate
        self.authenticateRole = authenticateRole
        self.eventStreams = eventStreams
    }

    package static let bulkPath = bulkPathLiteral.description
    package static let singlePattern = bulkPath + "/{key}"

    package func register(in router: inout APIRouter) {
        router.addPublic("POST", OFREPController.singlePattern) { request, parameters in
            self.evaluateOne(request, key: parameters["key"])
        }
        router.addPublic("POST", OFREPController.bulkPath) { request, _ in
            self.evaluateAll(request)
        }
    }

    /// One of the two evaluation routes, found by comparing the path as it nearly always comes.
    package enum DirectRoute: Equatable {
        /// The key is the path's bytes from `keyOffset` on: no String of its own is made for it.
        case one(keyOffset: Int)
        case all
    }

    /// The evaluation route of a POST whose path is exactly `/ofrep/v1/evaluate/flags` or that and one more segment;
    /// nil for anything else, which the general router answers as before (a trailing or doubled `/`, another
    /// method). Evaluations are most of the traffic, and matching every route's pattern costs more than the evaluation.
    package static func directRoute(of request: HTTPRequest) -> DirectRoute? {
        guard request.method == "POST" else { return nil }
        // On the path's bytes: comparing through `Substring.UTF8View` costs more than the rest of the routing.
        return request.path.withUTF8Bytes(directRoute(path:))
    }

    /// The evaluation route of a POST to `path`, as `directRoute(of:)`.
    package static func directRoute(path: UnsafeRawBufferPointer) -> DirectRoute? {
        let prefix = UnsafeRawBufferPointer(start: bulkPathLiteral.utf8Start, count: bulkPathLiteral.utf8CodeUnitCount)
        guard path.count >= prefix.count, memcmp(path.baseAddress!, prefix.baseAddress!, prefix.count) == 0 else { return nil }
        if path.count == prefix.count { return .all }
        guard path[prefix.count] == UInt8(ascii: "/") else { return nil }
        let key = UnsafeRawBufferPointer(rebasing: path[(prefix.count + 1)...])
        guard !key.isEmpty, memchr(key.baseAddress!, Int32(UInt8(ascii: "/")), key.count) == nil else { return nil }
        return .one(keyOffset: prefix.count + 1)
    }

    /// `bulkPath` as a literal, whose bytes stay where they are for the life of the process.
    private static let bulkPathLiteral: StaticString = "/ofrep/v1/evaluate/flags"

    package func response(to request: HTTPRequest, route: DirectRoute) -> HTTPResponse {
        switch route {
        case .one(let offset): evaluateOne(request, keyIn: request.path, from: offset)
        case .all: evaluateAll(request)
        }
    }

    func evaluateOne(_ request: HTTPRequest, key: String) -> HTTPResponse {
        evaluateOne(request, keyIn: key, from: 0)
    }

    /// A single evaluation of the flag whose key is `text`'s bytes from `offset` on (the path's last segment, or a
    /// key the router found), read where they are. A 200 answer comes from the stripe's `EncodedAnswers` when the
    /// same verdict was answered before from the same snapshot.
    ///
    /// The closures capture the text and the two objects they use, not the request (capturing it while reading its
    /// path copied the whole request) nor the controller (a copy of it retained each of its objects, two of them
    /// through the slow path of reference counting, as they are weakly referenced too).
    private func evaluateOne(_ request: HTTPRequest, keyIn text: String, from offset: Int) -> HTTPResponse {
        if let refusal = refuseUnauthorized(request) { return refusal }
        let snapshots = self.snapshots
        let metrics = self.metrics
        return OFREPController.withTargetingKey(in: request) { targetingKey in
            text.withUTF8Bytes { text in
                let keyBytes = UnsafeRawBufferPointer(rebasing: text[offset...])
                switch targetingKey {
                case .success(let targetingKey):
                    return OFREPController.evaluateOne(keyBytes: keyBytes, targetingKey: targetingKey, snapshots: snapshots, metrics: metrics)
                case .failure(let failure):
                    return failure.response(key: String(decoding: keyBytes, as: UTF8.self))
                }
            }
        }
    }

    /// A single evaluation of the flag whose key is `keyBytes` for the targeting key `targetingKey`: the answer of both
    /// the usual path and `OFREPFastPath`.
    package static func evaluateOne(keyBytes: UnsafeRawBufferPointer, targetingKey: UnsafeRawBufferPointer?, snapshots: SnapshotHolder,
                            metrics: Metrics) -> HTTPResponse {
        // The reason beside the answer, not in a tuple with it: taking the answer out of a tuple copies it, three
        // reference counts up and down per request.
        var reason: EvaluationReason?
        let answered = snapshots.response { snapshot, answers -> HTTPResponse? in
            guard let verdict = snapshot.verdict(flag: keyBytes, targetingKey: targetingKey) else { return nil }
            if let failure = verdict.failure {
                return OFREPFailure(status: 400, code: failure.rawValue, details: failure.details).response(key: String(decoding: keyBytes, as: UTF8.self))
            }
            reason = verdict.reason
            return answers.answer(for: verdict) {
                let outcome = snapshot.outcome(of: verdict, key: String(decoding: keyBytes, as: UTF8.self))
                return HTTPResponse(status: 200, headers: [(name: "Content-Type", value: "application/json"), OFREPController.revisionHeader(snapshot)],
                                    body: OFREPEncoder.success(outcome)).reusable()
            }
        }
        guard let answered else {
            let key = String(decoding: keyBytes, as: UTF8.self)
            return OFREPFailure(status: 404, code: "FLAG_NOT_FOUND", details: "no fix has the flag key '\(key)'").response(key: key)
        }
        metrics.recordEvaluation(reason)
        return answered
    }

    /// A flag key no route matched (one holding a `/`): OFREP's FLAG_NOT_FOUND rather than a problem document.
    package func unknownFlag(_ request: HTTPRequest) -> HTTPResponse? {
        let prefix = "/ofrep/v1/evaluate/flags/"
        guard request.method == "POST", request.path.hasPrefix(prefix) else { return nil }
        if let refusal = refuseUnauthorized(request) { return refusal }
        let key = String(request.path.dropFirst(prefix.count))
        return OFREPFailure(status: 404, code: "FLAG_NOT_FOUND", details: "no fix has the flag key '\(key)'").response(key: key)
    }

    func evaluateAll(_ request: HTTPRequest) -> HTTPResponse {
        let principal: Principal
        switch authorize(request) {
        case .success(let allowed): principal = allowed
        case .failure(let refusal): return refusal.response
        }
        let targetingKey: String?
        switch OFREPController.targetingKey(in: request) {
        case .success(let key): targetingKey = key
        case .failure(let failure): return failure.response(key: nil)
        }
        // Taken out of the stripe's lock: a bulk evaluation of thousands of flags must not hold it.
        let snapshot = snapshots.withSnapshot { $0 }
        let outcomes = snapshot.evaluateAll(targetingKey: targetingKey)
        let revision = OFREPController.revisionHeader(snapshot)
        for outcome in outcomes { metrics.recordEvaluation(outcome.reason) }
        let body = OFREPEncoder.bulk(outcomes, extraMembers: eventStreams.bulkMember(for: principal, host: request.header("host")))
        let etag = "\"" + ETag.fingerprint(body) + "\""
        // Guideline 9 of OFREP: a refetch an event triggered, naming a configuration other than the current one, gets
        // the whole answer even when its If-None-Match matches.
        let triggeredByOtherConfiguration = eventStreams.differsFromCurrent(flagConfigETag: request.query["flagConfigEtag"],
                                                                            flagConfigLastModified: request.query["flagConfigLastModified"])
        if !triggeredByOtherConfiguration, let match = request.header("if-none-match"), ETag.matches(match, etag) {
            return .empty(304, headers: [(name: "ETag", value: etag), revision])
        }
        return HTTPResponse(status: 200, headers: [(name: "Content-Type", value: "application/json"), (name: "ETag", value: etag), revision],
                            body: body)
    }

    /// Which configuration revision an answer was evaluated at. A node's snapshot never goes back, so a client that
    /// keeps its connection to one node (docs/storage.md, "Several vouchd") never sees the revision decrease.
    static func revisionHeader(_ snapshot: EvaluationSnapshot) -> (name: String, value: String) {
        (name: "Vouch-Configuration-Revision", value: String(snapshot.revision))
    }

    /// The same refusals as `authorize`, asking only for the role: copying the principal out and releasing it
    /// again costs a tenth of a single evaluation's own work.
    private func refuseUnauthorized(_ request: HTTPRequest) -> HTTPResponse? {
        guard let role = authenticateRole(request) else { return OFREPController.unauthenticated }
        return role.allows(.evaluateFlags) ? nil : .empty(403)
    }

    private static let unauthenticated = HTTPResponse.empty(401, headers: [(name: "WWW-Authenticate", value: "Bearer realm=\"vouch\"")])

    /// OFREP's 401 and 403 have no body.
    private struct Refusal: Error {
        var response: HTTPResponse
    }

    private func authorize(_ request: HTTPRequest) -> Result<Principal, Refusal> {
        guard let principal = authenticate(request) else {
            return .failure(Refusal(response: OFREPController.unauthenticated))
        }
        return principal.allows(.evaluateFlags) ? .success(principal) : .failure(Refusal(response: .empty(403)))
    }

    /// Calls `body` with the bytes of `context.targetingKey`: in the usual body's shape, where they are in the body
    /// (no String is made of them); otherwise as `targetingKey(in:)` reads them.
    static func withTargetingKey<Answer>(in request: HTTPRequest, _ body: (Result<UnsafeRawBufferPointer?, OFREPFailure>) -> Answer) -> Answer {
        if !request.body.isEmpty, request.hasJSONBody, let range = TargetingKeyScanner.targetingKeyRange(in: request.body) {
            return request.body.withUnsafeBytes { body(.success(UnsafeRawBufferPointer(rebasing: $0[range]))) }
        }
        switch targetingKey(in: request) {
        case .success(let key?): return key.withUTF8Bytes { body(.success($0)) }
        case .success(nil): return body(.success(nil))
        case .failure(let failure): return body(.failure(failure))
        }
    }

    /// Reads `context.targetingKey`; an empty body counts as an empty context.
    static func targetingKey(in request: HTTPRequest) -> Result<String?, OFREPFailure> {
        guard !request.body.isEmpty else { return .success(nil) }
        if !request.hasJSONBody, let mediaType = request.mediaType {
            // OFREP has no 415: a body that is not JSON is a parse error to its providers.
            return .failure(OFREPFailure(status: 400, code: "PARSE_ERROR", details: "the body's Content-Type is '\(mediaType)'; send application/json"))
        }
        if let key = TargetingKeyScanner.targetingKey(in: request.body) { return .success(key) }
        let body: JSONValue
        do {
            body = try JSONParser.parse(request.body)
        } catch {
            return .failure(OFREPFailure(status: 400, code: "PARSE_ERROR", details: "the body is not valid JSON: \(error)"))
        }
        guard case .object(let object) = body else {
            return .failure(OFREPFailure(status: 400, code: "PARSE_ERROR", details: "the body must be a JSON object with a 'context' object"))
        }
        guard let context = object["context"], !context.isNull else { return .success(nil) }
        guard case .object(let members) = context else {
            return .failure(OFREPFailure(status: 400, code: "INVALID_CONTEXT", details: "'context' must be an object, got \(context.typeName)"))
        }
        guard let targetingKey = members["targetingKey"], !targetingKey.isNull else { return .success(nil) }
        guard case .string(let key) = targetingKey else {
            return .failure(OFREPFailure(status: 400, code: "INVALID_CONTEXT", details: "'context.targetingKey' must be a string, got \(targetingKey.typeName)"))
        }
        return .success(key)
    }
}

/// An OFREP error answer.
struct OFREPFailure: Error {
    var status: Int
    var code: String
    var details: String

    func response(key: String?) -> HTTPResponse {
        var object = JSONObject()
        if let key { object["key"] = .string(key) }
        object["errorCode"] = .string(code)
        object["errorDetails"] = .string(details)
        return .json(.object(object), status: status)
    }
}
