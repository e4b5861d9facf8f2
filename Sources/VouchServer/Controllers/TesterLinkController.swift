import Foundation
import VouchCodec
import VouchCrypto
import VouchDomain
import VouchHTTP
import VouchJSON
import VouchStore

/// `/v1/testers/{id}/links`: a tester's personal console links. The link's address carries its secret and appears
/// once, in the creation answer; only its SHA-256 is kept (docs/console.md, "Personal links").
struct TesterLinkController {
    let store: any Store
    let settings: ConsoleSettings
    let clock: @Sendable () -> Date

    func register(in router: inout APIRouter) {
        router.add("POST", "/v1/testers/{id}/links", .manageTesters, create)
        router.add("GET", "/v1/testers/{id}/links", .manageTesters, list)
        router.add("DELETE", "/v1/testers/{id}/links/{link}", .manageTesters, revoke)
    }

    func create(_ request: HTTPRequest, _ context: RequestContext) throws -> HTTPResponse {
        var reader = JSONFieldReader(object: try RequestBody.object(request, emptyAllowed: true))
        var seconds = settings.linkValidSeconds
        if let text = reader.string("valid_for") {
            do { seconds = try DurationText.seconds(text, field: "valid_for", allowed: ConsoleSettings.linkValidRange) } catch { reader.addError(error) }
        }
        try reader.finish()
        guard let base = PublicAddress.base(configured: settings.publicURL, host: request.header("host")) else {
            throw Problem(status: 409, detail: "the link's address is unknown: set console.public_url, or send the request with a plain Host header")
        }
        let secret = SecureRandom.alphanumeric(count: 43)
        let now = clock()
        let link = TesterLink(id: "l_" + SecureRandom.alphanumeric(count: 16), testerID: context.parameters["id"], secretSHA256: Digest.sha256(secret),
                              createdBy: context.principal.name, createdAt: now, expiresAt: now.addingTimeInterval(Double(seconds)))
        try store.createTesterLink(link, by: context.requester)
        var json = TesterLinkController.json(link, at: now)
        json["url"] = .string(base + "/console/link/" + secret)
        return .json(.object(json), status: 201)
    }

    func list(_ request: HTTPRequest, _ context: RequestContext) throws -> HTTPResponse {
        let id = context.parameters["id"]
        guard try store.tester(id) != nil else { throw StoreError.notFound(kind: "tester", id: id) }
        let now = clock()
        return .json(.object(["links": .array(try store.testerLinks(of: id).map { .object(TesterLinkController.json($0, at: now)) }),
                              "next_cursor": .null]))
    }

    func revoke(_ request: HTTPRequest, _ context: RequestContext) throws -> HTTPResponse {
        let now = clock()
        let link = try store.revokeTesterLink(context.parameters["link"], of: context.parameters["id"], by: context.requester, at: now)
        return .json(.object(TesterLinkController.json(link, at: now)))
    }

    static func json(_ link: TesterLink, at now: Date) -> JSONObject {
        let status = link.revokedAt != nil ? "revoked" : (link.opens(at: now) ? "active" : "expired")
        return ["id": .string(link.id), "tester": .string(link.testerID), "status": .string(status),
                "created_at": .string(Timestamp.string(link.createdAt)), "created_by": .string(link.createdBy),
                "expires_at": .string(Timestamp.string(link.expiresAt)),
                "revoked_at": link.revokedAt.map { .string(Timestamp.string($0)) } ?? .null]
    }
}
