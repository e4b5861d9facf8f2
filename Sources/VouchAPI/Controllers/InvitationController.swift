import Foundation
import VouchCodec
import VouchDomain
import VouchHTTP
import VouchJSON
import VouchServerKit
import VouchServices
import VouchStore

/// `/v1/invitations`: invitations to join as a tester and consent herself. The address carries its secret and
/// appears once, in the creation answer; only its SHA-256 is kept (docs/invitations.md).
struct InvitationController {
    let invitations: InvitationService
    let settings: ConsoleSettings
    let clock: @Sendable () -> Date

    func register(in router: inout APIRouter) {
        router.add("POST", "/v1/invitations", .manageTesters, create)
        router.add("GET", "/v1/invitations", .manageTesters, list)
        router.add("GET", "/v1/invitations/{id}", .manageTesters, show)
        router.add("DELETE", "/v1/invitations/{id}", .manageTesters, revoke)
    }

    func create(_ request: HTTPRequest, _ context: RequestContext) throws -> HTTPResponse {
        var reader = JSONFieldReader(object: try RequestBody.object(request, emptyAllowed: true))
        let draft = InvitationService.Draft(nameHint: reader.string("name_hint"), targetingKeys: reader.stringList("targeting_keys") ?? [],
                                            fixKeys: reader.stringList("fixes") ?? [], panelIDs: reader.stringList("panels") ?? [],
                                            language: reader.string("language"),
                                            expiresIn: reader.string("expires_in"), uses: reader.integer("uses", in: InvitationService.usesRange))
        let created = try invitations.create(draft, base: PublicAddress.base(configured: settings.publicURL, host: request.header("host")),
                                             readErrors: reader.problems, by: context.principal)
        var json = InvitationController.json(created.invitation, at: created.invitation.createdAt)
        json["url"] = .string(created.url)
        return .json(.object(json), status: 201)
    }

    func list(_ request: HTTPRequest, _ context: RequestContext) throws -> HTTPResponse {
        let found = try invitations.invitations(for: context.principal)
        let now = clock()
        return .json(.object(["invitations": .array(found.map { .object(InvitationController.json($0, at: now)) }), "next_cursor": .null]))
    }

    func show(_ request: HTTPRequest, _ context: RequestContext) throws -> HTTPResponse {
        .json(.object(InvitationController.json(try invitations.invitation(context.parameters["id"], for: context.principal), at: clock())))
    }

    func revoke(_ request: HTTPRequest, _ context: RequestContext) throws -> HTTPResponse {
        let invitation = try invitations.revoke(context.parameters["id"], by: context.principal)
        return .json(.object(InvitationController.json(invitation, at: invitation.revokedAt ?? clock())))
    }

    /// An invitation as the API shows it: never its secret or address after the creation answer.
    static func json(_ invitation: Invitation, at now: Date) -> JSONObject {
        ["id": .string(invitation.id), "status": .string(invitation.status(at: now).rawValue), "name_hint": .optional(invitation.nameHint),
         "targeting_keys": .strings(invitation.targetingKeys), "fixes": .strings(invitation.fixKeys),
         "panels": .strings(invitation.panelIDs), "language": .string(invitation.language),
         "uses_allowed": .int(invitation.usesAllowed), "uses_made": .int(invitation.usesMade),
         "created_by": .string(invitation.createdBy), "created_at": .string(Timestamp.string(invitation.createdAt)),
         "expires_at": .string(Timestamp.string(invitation.expiresAt)),
         "revoked_at": .optional(invitation.revokedAt.map(Timestamp.string)), "revoked_by": .optional(invitation.revokedBy)]
    }
}
