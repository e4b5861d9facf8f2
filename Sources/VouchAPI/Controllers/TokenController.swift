import Foundation
import VouchCodec
import VouchDomain
import VouchHTTP
import VouchJSON
import VouchServerKit
import VouchServices
import VouchStore

/// `/v1/tokens`: create (the secret is shown once), list, revoke.
struct TokenController {
    let tokens: TokenService

    package func register(in router: inout APIRouter) {
        router.add("POST", "/v1/tokens", .manageTokens, create)
        router.add("GET", "/v1/tokens", .manageTokens, list)
        router.add("DELETE", "/v1/tokens/{id}", .manageTokens, revoke)
    }

    func create(_ request: HTTPRequest, _ context: RequestContext) throws -> HTTPResponse {
        var reader = JSONFieldReader(object: try RequestBody.object(request))
        let name = reader.string("name")
        let role = reader.string("role")
        let tester = reader.nullableString("tester") ?? nil
        let issuedTo = reader.nullableString("principal") ?? nil
        let email = reader.nullableString("email") ?? nil
        let eventStreams = reader.bool("event_streams")
        let flagDefinitions = reader.bool("flag_definitions")
        let created = try tokens.create(name: name, role: role, tester: tester, issuedTo: issuedTo, email: email, eventStreams: eventStreams,
                                        flagDefinitions: flagDefinitions,
                                        readErrors: reader.problems, by: context.principal)
        var body = created.token.jsonObject
        body["token"] = .string(created.secret)
        return .json(.object(body), status: 201)
    }

    func list(_ request: HTTPRequest, _ context: RequestContext) throws -> HTTPResponse {
        try Cursor.listAnswer(request, name: "tokens", key: \.id, json: { .object($0.jsonObject) }) {
            try tokens.tokens(after: $0, limit: $1, for: context.principal)
        }
    }

    func revoke(_ request: HTTPRequest, _ context: RequestContext) throws -> HTTPResponse {
        .json(.object(try tokens.revoke(context.parameters["id"], by: context.principal).jsonObject))
    }
}
