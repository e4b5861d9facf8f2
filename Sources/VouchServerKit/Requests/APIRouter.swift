import VouchDomain
import VouchHTTP
import VouchServices

/// The `/v1` router: every route names the permission it needs, checked before its handler runs.
package struct APIRouter {
    package typealias Handler = @Sendable (HTTPRequest, RequestContext) throws -> HTTPResponse

    package private(set) var router = Router()
    package let authenticate: @Sendable (HTTPRequest) -> Principal?

    package init(authenticate: @escaping @Sendable (HTTPRequest) -> Principal?) {
        self.authenticate = authenticate
    }

    /// Adds a route that requires a valid token whose role grants `permission`.
    /// - Parameter allow: a finer check for roles that only reach part of a resource (a tester's own fixes).
    package mutating func add(_ method: String, _ pattern: String, _ permission: Permission, _ handler: @escaping Handler) {
        add(method, pattern, anyOf: [permission], handler)
    }

    /// Adds a route open to any of several permissions; the handler narrows what a lesser one sees
    /// (a tester token reads only the fixes its tester is enrolled in).
    package mutating func add(_ method: String, _ pattern: String, anyOf permissions: [Permission], _ handler: @escaping Handler) {
        let authenticate = self.authenticate
        router.add(method, pattern) { request, parameters in
            try handler(request, try APIRouter.context(of: request, parameters, authenticate: authenticate, anyOf: permissions))
        }
    }

    /// Adds a route that requires `permission` and answers later, through `Router.Answer`, without keeping the
    /// calling thread while its write waits for a group commit (docs/architecture.md, "Writes and group commit").
    package mutating func addLater(_ method: String, _ pattern: String, _ permission: Permission,
                                   _ handler: @escaping @Sendable (HTTPRequest, RequestContext, @escaping Router.Answer) throws -> Void) {
        let authenticate = self.authenticate
        router.addLater(method, pattern) { request, parameters, answer in
            try handler(request, try APIRouter.context(of: request, parameters, authenticate: authenticate, anyOf: [permission]), answer)
        }
    }

    /// Who sent the request, once its token is known and its role grants one of `permissions`: else 401 or 403.
    private static func context(of request: HTTPRequest, _ parameters: RouteParameters, authenticate: (HTTPRequest) -> Principal?,
                                anyOf permissions: [Permission]) throws -> RequestContext {
        guard let principal = authenticate(request) else {
            throw Problem(status: 401, detail: "this route needs a token: send 'Authorization: Bearer <token>' or 'X-API-Key: <token>'",
                          headers: [(name: "WWW-Authenticate", value: "Bearer realm=\"vouch\"")])
        }
        guard permissions.contains(where: principal.allows) else {
            throw AccessDenied(lacking: permissions[0], principal)
        }
        return RequestContext(principal: principal, parameters: parameters, requestID: request.requestID)
    }

    /// Adds a route anyone may call (health, metrics, the OpenAPI document).
    /// OFREP routes use this too: they check tokens themselves, because OFREP's 401 and 403 have no body.
    package mutating func addPublic(_ method: String, _ pattern: String, _ handler: @escaping Router.Handler) {
        router.add(method, pattern, handler)
    }
}
