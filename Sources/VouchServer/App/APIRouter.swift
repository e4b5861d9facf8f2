import VouchDomain
import VouchHTTP

/// The `/v1` router: every route names the permission it needs, checked before its handler runs.
struct APIRouter {
    typealias Handler = @Sendable (HTTPRequest, RequestContext) throws -> HTTPResponse

    private(set) var router = Router()
    let authenticate: @Sendable (HTTPRequest) -> Principal?

    /// Adds a route that requires a valid token whose role grants `permission`.
    /// - Parameter allow: a finer check for roles that only reach part of a resource (a tester's own fixes).
    mutating func add(_ method: String, _ pattern: String, _ permission: Permission, _ handler: @escaping Handler) {
        add(method, pattern, anyOf: [permission], handler)
    }

    /// Adds a route open to any of several permissions; the handler narrows what a lesser one sees
    /// (a tester token reads only the fixes its tester is enrolled in).
    mutating func add(_ method: String, _ pattern: String, anyOf permissions: [Permission], _ handler: @escaping Handler) {
        let authenticate = self.authenticate
        let permission = permissions[0]
        router.add(method, pattern) { request, parameters in
            guard let principal = authenticate(request) else {
                throw Problem(status: 401, detail: "this route needs a token: send 'Authorization: Bearer <token>' or 'X-API-Key: <token>'",
                              headers: [(name: "WWW-Authenticate", value: "Bearer realm=\"vouch\"")])
            }
            guard permissions.contains(where: principal.allows) else {
                throw Problem(status: 403, detail: "the role \(principal.role.rawValue) may not do this; it needs a role that can \(permission.phrase)")
            }
            let context = RequestContext(principal: principal, parameters: parameters, requestID: request.requestID)
            return try handler(request, context)
        }
    }

    /// Adds a route anyone may call (health, metrics, the OpenAPI document).
    /// OFREP routes use this too: they check tokens themselves, because OFREP's 401 and 403 have no body.
    mutating func addPublic(_ method: String, _ pattern: String, _ handler: @escaping Router.Handler) {
        router.add(method, pattern, handler)
    }
}

extension Permission {
    /// What the permission lets a person do, without the roles: the console names the roles in words ("release manager").
    var task: String {
        switch self {
        case .evaluateFlags: "evaluate flags"
        case .readAll: "read fixes, testers and the audit log"
        case .editFixes: "create and change fixes"
        case .manageTesters: "manage testers and enrollments"
        case .decideRelease: "pause, resume, roll back and promote fixes"
        case .approve: "approve or reject fixes"
        case .manageTokens: "manage tokens"
        case .manageWebhooks: "manage webhooks"
        case .readEnrolledFixes: "read the fixes a tester is enrolled in"
        case .submitOwnFeedback: "submit feedback"
        }
    }

    /// Words for a 403 answer: the task and, where staff roles grant it, which roles do, by their API names.
    var phrase: String {
        switch self {
        case .evaluateFlags, .readEnrolledFixes, .submitOwnFeedback: return task
        default:
            let roles = Role.allCases.filter { $0.allows(self) }.map(\.rawValue)
            return task + " (" + (roles.count == 1 ? roles[0] : roles.dropLast().joined(separator: ", ") + " or " + roles[roles.count - 1]) + ")"
        }
    }
}
