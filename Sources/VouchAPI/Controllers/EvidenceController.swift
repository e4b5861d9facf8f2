import Foundation
import VouchDomain
import VouchHTTP
import VouchJSON
import VouchServerKit
import VouchServices

/// `/v1/fixes/{key}/evidence`: a fix's feedback as W3C EARL in JSON-LD (docs/evidence.md).
struct EvidenceController {
    let evidence: EvidenceService

    package func register(in router: inout APIRouter) {
        router.add("GET", "/v1/fixes/{key}/evidence", .readAll, earl)
    }

    func earl(_ request: HTTPRequest, _ context: RequestContext) throws -> HTTPResponse {
        let document = try evidence.earl(of: context.parameters["key"], revision: try FeedbackController.revision(in: request), for: context.principal)
        return HTTPResponse(status: 200, headers: [(name: "Content-Type", value: "application/ld+json")], body: JSONWriter.bytes(document, pretty: true))
    }
}
