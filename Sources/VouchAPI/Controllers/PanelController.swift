import Foundation
import VouchCodec
import VouchDomain
import VouchHTTP
import VouchJSON
import VouchServerKit
import VouchServices

/// `/v1/panels`: named groups of testers, enrolled in a fix at once (docs/invitations.md, "Panels").
struct PanelController {
    let panels: PanelService

    func register(in router: inout APIRouter) {
        router.add("POST", "/v1/panels", .manageTesters, create)
        router.add("GET", "/v1/panels", .manageTesters, list)
        router.add("GET", "/v1/panels/{id}", .manageTesters, show)
        router.add("DELETE", "/v1/panels/{id}", .manageTesters, delete)
        router.add("POST", "/v1/panels/{id}/members", .manageTesters, add)
        router.add("DELETE", "/v1/panels/{id}/members/{tester}", .manageTesters, remove)
    }

    func create(_ request: HTTPRequest, _ context: RequestContext) throws -> HTTPResponse {
        var reader = JSONFieldReader(object: try RequestBody.object(request))
        let panel = try panels.create(name: reader.string("name"), description: reader.string("description"), readErrors: reader.problems,
                                      by: context.principal)
        return .json(.object(PanelController.json(panel)), status: 201)
    }

    func list(_ request: HTTPRequest, _ context: RequestContext) throws -> HTTPResponse {
        .json(.object(["panels": .array(try panels.panels(for: context.principal).map { .object(PanelController.json($0)) }), "next_cursor": .null]))
    }

    func show(_ request: HTTPRequest, _ context: RequestContext) throws -> HTTPResponse {
        .json(.object(PanelController.json(try panels.panel(context.parameters["id"], for: context.principal))))
    }

    func delete(_ request: HTTPRequest, _ context: RequestContext) throws -> HTTPResponse {
        .json(.object(PanelController.json(try panels.delete(context.parameters["id"], by: context.principal))))
    }

    func add(_ request: HTTPRequest, _ context: RequestContext) throws -> HTTPResponse {
        var reader = JSONFieldReader(object: try RequestBody.object(request))
        let testers = reader.stringList("testers")
        let change = try panels.add(testers, to: context.parameters["id"], readErrors: reader.problems, by: context.principal)
        var body = PanelController.json(change.panel)
        body["added"] = .strings(change.added)
        return .json(.object(body))
    }

    func remove(_ request: HTTPRequest, _ context: RequestContext) throws -> HTTPResponse {
        .json(.object(PanelController.json(try panels.remove(context.parameters["tester"], from: context.parameters["id"], by: context.principal).panel)))
    }

    /// A panel as the API shows it: its members by pseudonym only.
    static func json(_ panel: Panel) -> JSONObject {
        ["id": .string(panel.id), "name": .string(panel.name), "description": .optional(panel.description),
         "created_by": .string(panel.createdBy), "created_at": .string(Timestamp.string(panel.createdAt)),
         "members": .array(panel.members.map {
             .object(["tester": .string($0.testerID), "added_by": .string($0.addedBy), "added_at": .string(Timestamp.string($0.addedAt))])
         })]
    }
}
