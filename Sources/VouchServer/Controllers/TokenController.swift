import Foundation
import VouchCodec
import VouchCrypto
import VouchDomain
import VouchHTTP
import VouchIdentity
import VouchJSON
import VouchStore

/// `/v1/tokens`: create (the secret is shown once), list, revoke.
struct TokenController {
    let store: any Store
    let clock: @Sendable () -> Date

    func register(in router: inout APIRouter) {
        router.add("POST", "/v1/tokens", .manageTokens, create)
        router.add("GET", "/v1/tokens", .manageTokens, list)
        router.add("DELETE", "/v1/tokens/{id}", .manageTokens, revoke)
    }

    func create(_ request: HTTPRequest, _ context: RequestContext) throws -> HTTPResponse {
        var reader = JSONFieldReader(object: try RequestBody.object(request))
        let name = reader.string("name")
        let roleName = reader.string("role")
        let tester = reader.nullableString("tester") ?? nil
        let principalText = reader.nullableString("principal") ?? nil
        if let name {
            // Checked as sent, as the document's pattern checks it: a tab at either end is a control character too.
            if SchemaText.problem(name, limit: 100, required: true, lineBreaks: false) != nil
                || name.unicodeScalars.contains(where: \.properties.isDefaultIgnorableCodePoint) {
                reader.addError(FieldError(field: "name", message: "must be 1 to 100 visible characters, without control or invisible characters: what the token is for"))
            }
        } else {
            reader.addError(FieldError(field: "name", message: "is required: what the token is for, such as 'ios-app' or 'Rita's laptop'"))
        }
        var role: Role?
        if let roleName {
            role = Role(rawValue: roleName)
            if role == nil { reader.addError(FieldError(field: "role", message: "'\(roleName)' is not a role; allowed: \(Role.allowedList)")) }
        } else {
            reader.addError(FieldError(field: "role", message: "is required; allowed: \(Role.allowedList)"))
        }
        if role == .tester, tester == nil {
            reader.addError(FieldError(field: "tester", message: "a tester token must name its tester (t_…)"))
        } else if role != .tester, tester != nil {
            reader.addError(FieldError(field: "tester", message: "only tokens with the role tester are bound to a tester"))
        }
        if role == .tester, principalText != nil {
            reader.addError(FieldError(field: "principal", message: "a tester token's principal is its tester; leave principal out"))
        }
        // A staff token is issued to a principal: the one named, or else the token's name, normalised.
        var principal: (name: PrincipalName, field: String)?
        if role != .tester, reader.errors.isEmpty, let source = principalText.map({ ($0, "principal") }) ?? name.map({ ($0, "name") }) {
            do {
                let normalized = try PrincipalName(source.0, field: source.1)
                if let reserved = normalized.reservedLookAlike {
                    reader.addError(FieldError(field: source.1, message: "'\(normalized.value)' is or looks like the reserved name '\(reserved)'; "
                        + "vouchd, withdrawn, system, anonymous and names starting with t_ (testers' pseudonyms) are kept for the server"))
                }
                principal = (normalized, source.1)
            } catch {
                reader.addError(error)
            }
        }
        try reader.finish()
        let secret = TokenDirectory.makeSecret()
        let record = TokenRecord(id: "tok_" + SecureRandom.alphanumeric(count: 16), name: name!.trimmingCharacters(in: .whitespaces),
                                 principalName: principal?.name.value ?? tester!, role: role!, testerID: tester, secretSHA256: Digest.sha256(secret),
                                 createdBy: context.principal.name, createdAt: clock())
        try store.createToken(record, principal: principal, by: context.requester)
        var body = TokenController.json(record)
        body["token"] = .string(secret)
        return .json(.object(body), status: 201)
    }

    func list(_ request: HTTPRequest, _ context: RequestContext) throws -> HTTPResponse {
        try Cursor.listAnswer(request, name: "tokens", key: \.id, json: { .object(TokenController.json($0)) }, fetch: store.tokens)
    }

    func revoke(_ request: HTTPRequest, _ context: RequestContext) throws -> HTTPResponse {
        let token = try store.revokeToken(context.parameters["id"], by: context.requester, at: clock())
        return .json(.object(TokenController.json(token)))
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
