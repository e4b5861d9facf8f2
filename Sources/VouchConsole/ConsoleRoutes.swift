import VouchConsoleKit
import VouchDomain
import VouchHTTP
import VouchServerKit
import VouchServices

/// Adds console routes to the application's router: each finds its session, checks who may open it and, for a POST,
/// reads the form and checks its CSRF token before the handler runs; an expected refusal becomes an HTML page.
struct ConsoleRoutes: Sendable {
    typealias Handler = @Sendable (ConsoleRequest) throws -> HTTPResponse

    let sessions: ConsoleSessions

    func get(_ router: inout APIRouter, _ pattern: String, _ access: ConsoleAccess, _ handler: @escaping Handler) {
        add(&router, "GET", pattern, access, handler)
    }

    func post(_ router: inout APIRouter, _ pattern: String, _ access: ConsoleAccess, _ handler: @escaping Handler) {
        add(&router, "POST", pattern, access, handler)
    }

    /// A POST whose body is not read: the address alone says what to do, and holds its own secret, so no form and no
    /// session's security token is needed (RFC 8058's one-click unsubscribe, which a mail program may send as
    /// `multipart/form-data` or as a URL-encoded form).
    func postIgnoringBody(_ router: inout APIRouter, _ pattern: String, _ handler: @escaping Handler) {
        add(&router, "POST", pattern, .anyone, readsForm: false, handler)
    }

    private func add(_ router: inout APIRouter, _ method: String, _ pattern: String, _ access: ConsoleAccess, readsForm: Bool = true,
                     _ handler: @escaping Handler) {
        let sessions = self.sessions
        router.addPublic(method, pattern) { request, parameters in
            let resolved = try sessions.resolve(request)
            do {
                if case .anyone = access {} else {
                    guard let resolved else { return ConsoleRoutes.signInFirst(request) }
                    guard access.admits(resolved.principal) else {
                        throw Problem(status: 403, detail: ConsoleRoutes.refusal(for: resolved.principal, access: access))
                    }
                }
                var form = FormData()
                if method == "POST", readsForm {
                    guard request.mediaType == "application/x-www-form-urlencoded" else {
                        throw Problem(status: 415, detail: "the console accepts forms sent as application/x-www-form-urlencoded only")
                    }
                    form = try FormData(parsing: request.body)
                    if let resolved, !ConsoleSessions.matches(form[Form.csrfFieldName], resolved.session.csrf) {
                        throw Problem(status: 403, detail: "the form did not carry this session's security token, so nothing was changed. "
                                      + "Go back, reload the page and send the form again")
                    }
                }
                let consoleRequest = ConsoleRequest(http: request, parameters: parameters, session: resolved?.session, principal: resolved?.principal,
                                                    form: form, messages: Messages(sessions.language(of: request, for: resolved?.principal)))
                return ConsoleRoutes.keepingLanguage(ConsoleHeaders.secure(try handler(consoleRequest)), of: request, sessions)
            } catch {
                // Expected refusals become a page with the navigation; anything else goes to the application, which
                // logs it and answers with the generic error page.
                guard let problem = ErrorResponses.problem(for: error), problem.status < 500 else { throw error }
                return ConsoleRoutes.keepingLanguage(ConsoleErrorPage.response(for: problem, to: request, resolved: resolved, sessions: sessions),
                                                     of: request, sessions)
            }
        }
    }

    /// The answer, with the cookie that keeps a language chosen with the switcher's link.
    private static func keepingLanguage(_ response: HTTPResponse, of request: HTTPRequest, _ sessions: ConsoleSessions) -> HTTPResponse {
        guard let chosen = sessions.chosenLanguage(of: request) else { return response }
        var kept = response
        kept.headers.append(chosen)
        return kept
    }

    /// Not signed in (or no longer): to the sign-in page, which returns here afterwards.
    private static func signInFirst(_ request: HTTPRequest) -> HTTPResponse {
        let next = request.method == "GET" ? "?next=" + ConsoleRoutes.percentEncoded(request.path) : ""
        return ConsoleHeaders.secure(.seeOther("/console/sign-in" + next))
    }

    private static func refusal(for principal: Principal, access: ConsoleAccess) -> String {
        switch access {
        case .tester: "this page is for testers; you are signed in as \(Words.roles([principal.role]))"
        case .anyOf(let permissions):
            "your role, \(Words.role(principal.role)), may not do this: it needs \(Words.roles(Role.allCases.filter { $0.allows(permissions[0]) })), "
                + "who may \(permissions[0].task)"
        case .anyone, .signedIn: "you may not open this page"
        }
    }

    /// Letters, digits and `/-._~` as they are; everything else as `%XX`.
    static func percentEncoded(_ text: String) -> String {
        var encoded = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "/"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                encoded += "%" + (byte < 16 ? "0" : "") + String(byte, radix: 16, uppercase: true)
            }
        }
        return encoded
    }
}
