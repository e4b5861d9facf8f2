import Foundation
import VouchCodec
import VouchDomain
import VouchHTTP
import VouchJSON
import VouchServerKit
import VouchServices
import VouchStore

/// `/v1/testers/{id}/links`: a tester's personal console links. The link's address carries its secret and appears
/// once, in the creation answer; only its SHA-256 is kept (docs/console.md, "Personal links").
struct TesterLinkController {
    let links: LinkService
    let settings: ConsoleSettings
    let clock: @Sendable () -> Date

    package func register(in router: inout APIRouter) {
        router.add("POST", "/v1/testers/{id}/links", .manageTesters, create)
        router.add("GET", "/v1/testers/{id}/links", .manageTesters, list)
        router.add("DELETE", "/v1/testers/{id}/links/{link}", .manageTesters, revoke)
    }

    func create(_ request: HTTPRequest, _ context: RequestContext) throws -> HTTPResponse {
        var reader = JSONFieldReader(object: try RequestBody.object(request, emptyAllowed: true))
        let validFor = reader.string("valid_for")
        let created = try links.create(for: context.parameters["id"], validFor: validFor,
                                       base: PublicAddress.base(configured: settings.publicURL, host: request.header("host")),
                                       readErrors: reader.problems, by: context.principal)
        var json = TesterLinkController.json(created.link, at: created.link.createdAt)
        json["url"] = .string(created.url)
        return .json(.object(json), status: 201)
    }

    func list(_ request: HTTPRequest, _ context: RequestContext) throws -> HTTPResponse {
        let found = try links.links(of: context.parameters["id"], for: context.principal)
        let now = clock()
        return .json(.object(["links": .array(found.map { .object(TesterLinkController.json($0, at: now)) }), "next_cursor": .null]))
    }

    func revoke(_ request: HTTPRequest, _ context: RequestContext) throws -> HTTPResponse {
        let link = try links.revoke(context.parameters["link"], of: context.parameters["id"], by: context.principal)
        return .json(.object(TesterLinkController.json(link, at: link.revokedAt ?? clock())))
    }

    static func json(_ link: TesterLink, at now: Date) -> JSONObject {
        let status = link.revokedAt != nil ? "revoked" : (link.opens(at: now) ? "active" : "expired")
        return ["id": .string(link.id), "tester": .string(link.testerID), "status": .string(status),
                "created_at": .string(Timestamp.string(link.createdAt)), "created_by": .string(link.createdBy),
                "expires_at": .string(Timestamp.string(link.expiresAt)),
                "revoked_at": link.revokedAt.map { .string(Timestamp.string($0)) } ?? .null]
    }
}
