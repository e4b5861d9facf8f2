import Foundation
import VouchCodec
import VouchDomain
import VouchHTTP
import VouchJSON
import VouchServices
import VouchStore

/// `/v1/tokens`: create (the secret is shown once), list, revoke.
struct TokenController {
    let tokens: TokenService

    func register(in router: inout APIRouter) {
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
        let created = try tokens.create(name: name, role: role, tester: tester, issuedTo: issuedTo, readErrors: reader.problems, by: context.principal)
        var body = TokenController.json(created.token)
        body["token"] = .string(created.secret)
        return .json(.object(body), status: 201)
    }

    func list(_ request: HTTPRequest, _ context: RequestContext) throws -> HTTPResponse {
        try Cursor.listAnswer(request, name: "tokens", key: \.id, json: { .object(TokenController.json($0)) }) {
            try tokens.tokens(after: $0, limit: $1, for: context.principal)
        }
    }

    func revoke(_ request: HTTPRequest, _ context: RequestContext) throws -> HTTPResponse {
        .json(.object(TokenController.json(try tokens.revoke(context.parameters["id"], by: context.principal))))
    }

    /// A token as the API shows it: never the secret or its hash.
    static func json(_ token: TokenRecord) -> JSONObject {
        [
            "id": .string(token.id), "name": .string(token.name), "principal": .string(token.principalName), "role": .string(token.role.rawValue),
            "tester": .optional(token.testerID),
            "created_by": .string(token.createdBy), "created_at": .string(Timestamp.string(token.createdAt)),
            "revoked_at": .optional(token.revokedAt.map(Timestamp.string)),
        ]
    }
}
