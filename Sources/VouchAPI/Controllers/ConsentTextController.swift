import Foundation
import VouchCodec
import VouchHTTP
import VouchJSON
import VouchServerKit
import VouchServices

/// `/v1/consent-texts`: the consent texts testers read before joining, and the exact text each agreed to, by version
/// and language (docs/invitations.md, "Consent texts").
struct ConsentTextController {
    let joining: JoinService

    func register(in router: inout APIRouter) {
        router.add("GET", "/v1/consent-texts", .readAll, list)
        router.add("GET", "/v1/consent-texts/{version}/{language}", .readAll, show)
    }

    func list(_ request: HTTPRequest, _ context: RequestContext) throws -> HTTPResponse {
        let records = try joining.consentTexts(for: context.principal)
        return .json(.object(["current_version": .string(joining.consentTexts.currentVersion),
                              "consent_texts": .array(records.map { .object(ConsentTextController.json($0, withText: false)) })]))
    }

    func show(_ request: HTTPRequest, _ context: RequestContext) throws -> HTTPResponse {
        let record = try joining.consentText(version: context.parameters["version"], language: context.parameters["language"], for: context.principal)
        return .json(.object(ConsentTextController.json(record, withText: true)))
    }

    static func json(_ record: JoinService.ConsentTextRecord, withText: Bool) -> JSONObject {
        var object: JSONObject = ["version": .string(record.text.version), "language": .string(record.text.language),
                                  "current": .bool(record.isCurrent),
                                  "first_agreed_at": .optional(record.agreed.map { Timestamp.string($0.firstAgreedAt) })]
        if withText { object["text"] = .string(record.text.body) }
        return object
    }
}
