import Foundation
import VouchConsoleKit
import VouchCrypto
import VouchDomain
import VouchHTTP
import VouchServerKit
import VouchServices
import VouchStore

/// Joining through an invitation (docs/invitations.md, "Joining"): the consent page at the invitation's address, then
/// one question per page under `/console/joining/`, the answers kept in a draft that the `vouch_join` cookie finds,
/// then joining, which signs her in as on a personal link. Opening the invitation signs nobody in and keeps nothing.
struct JoinPages {
    let routes: ConsoleRoutes
    let joining: JoinService
    let authFailures: AuthFailureLimiter
    let logger: Logger
    /// Drafts made per address: each is a row, so a script cannot fill the table however many invitations it holds.
    let agreementsPerAddress = WindowLimiter<ClientAddress>(limit: 30, windowSeconds: 600)

    static let draftCookieName = "vouch_join"
    /// The hidden field that carries the draft's own form token, whether or not the browser also has a session.
    static let draftTokenField = "join_token"

    var sessions: ConsoleSessions { routes.sessions }

    func register(in router: inout APIRouter) {
        routes.get(&router, "/console/join/{secret}", .anyone, consentPage)
        routes.post(&router, "/console/join/{secret}", .anyone, agree)
        routes.get(&router, "/console/joining/declined", .anyone, declined)
        routes.post(&router, "/console/joining/stop", .anyone, stop)
        routes.get(&router, "/console/joining/{step}", .anyone, stepPage)
        routes.post(&router, "/console/joining/{step}", .anyone, answer)
    }

    // MARK: The consent page

    /// The consent text in the invitation's language unless she chose another; one button agrees (a POST), a link
    /// declines. Nothing is stored, and no session starts.
    func consentPage(_ request: ConsoleRequest) throws -> HTTPResponse {
        guard let invitation = try openInvitation(request) else { return closed(request) }
        let request = speaking(request, preferring: invitation.language)
        let messages = request.messages
        let text = joining.consentText(language: messages.language.rawValue)
        let formToken = request.session?.csrf ?? SecureRandom.alphanumeric(count: 32)
        let form = Form(action: "/console/join/" + request.parameter("secret"), csrf: formToken, content: HTML.join([
            Form.hidden("language", messages.language.rawValue),
            "<div class=\"button-group\">",
            Button(messages[.joinAgree]).render(),
            "<a class=\"link\" href=\"\(JoinPages.declinedPath(messages.language))\">\(messages[.joinDecline])</a>",
            "</div>",
        ])).render()
        var response = request.translatedPage(messages[.joinTitle], content: """
        <h1 class="heading-l">\(messages[.joinTitle])</h1>
        <p class="body">\(messages[.joinIntro])</p>
        <p class="caption">\(messages(.joinTextVersion, ["version": text.version]))</p>
        \(ConsentTextView(text: text).render())
        <h2 class="heading-m">\(messages[.joinDecisionHeading])</h2>
        <p class="body">\(messages[.joinDecisionText])</p>
        \(form)
        """)
        if request.session == nil {
            response.headers.append(ConsoleSessions.cookie(ConsoleSessions.signInCookieName, formToken, maxAge: 3_600, secure: sessions.isSecure(request.http)))
        }
        return response
    }

    /// Her agreement: a draft starts, found by a cookie of its own, and she goes to the first question at an address
    /// without the invitation's secret, which so stays out of her history.
    func agree(_ request: ConsoleRequest) throws -> HTTPResponse {
        if request.session == nil {
            guard ConsoleSessions.matches(request.form[Form.csrfFieldName], request.http.cookie(ConsoleSessions.signInCookieName) ?? "") else {
                throw Problem(status: 403, detail: "the page had expired or came from another site, so it was not used. Open the invitation link again")
            }
        }
        guard try openInvitation(request) != nil else { return closed(request) }
        if let wait = agreementsPerAddress.admit(request.http.clientAddress) {
            logger.warning("invitation agreements limited", [("client.address", request.http.clientAddress.description)])
            throw Problem(status: 429, detail: "too many invitations were accepted from your address; try again in \(wait) seconds",
                          headers: [(name: "Retry-After", value: String(wait))])
        }
        let language = Language(rawValue: request.field("language")) ?? request.messages.language
        // Agreeing again (the invitation opened a second time in this browser) starts afresh: the old answers go now.
        try joining.cancel(cookie: request.http.cookie(JoinPages.draftCookieName) ?? "")
        let started = try joining.agree(secret: request.parameter("secret"), language: language.rawValue)
        let secure = sessions.isSecure(request.http)
        let lifetime = Int(started.draft.expiresAt.timeIntervalSince(started.draft.createdAt))
        return .seeOther("/console/joining/" + JoinStep.name.rawValue + "?" + LanguageNegotiation.queryName + "=" + language.rawValue,
                         headers: [ConsoleSessions.cookie(JoinPages.draftCookieName, started.cookie, maxAge: lifetime, secure: secure),
                                   ConsoleSessions.cookie(ConsoleSessions.signInCookieName, "", maxAge: 0, secure: secure)])
    }

    func declined(_ request: ConsoleRequest) throws -> HTTPResponse {
        let messages = request.messages
        return request.translatedPage(messages[.joinDeclinedTitle], content: """
        <h1 class="heading-l">\(messages[.joinDeclinedTitle])</h1>
        <p class="body">\(messages[.joinDeclinedText])</p>
        """)
    }

    /// She stops half-way: her answers are deleted now, not when the hour runs out.
    func stop(_ request: ConsoleRequest) throws -> HTTPResponse {
        let cookie = request.http.cookie(JoinPages.draftCookieName) ?? ""
        var language = request.messages.language
        if let visit = try joining.visit(cookie: cookie) {
            try checkToken(request, visit)
            language = speaking(request, preferring: visit.answers.language ?? visit.draft.consentLanguage).messages.language
        }
        try joining.cancel(cookie: cookie)
        return .seeOther(JoinPages.declinedPath(language),
                         headers: [ConsoleSessions.cookie(JoinPages.draftCookieName, "", maxAge: 0, secure: sessions.isSecure(request.http))])
    }

    // MARK: The questions

    func stepPage(_ request: ConsoleRequest) throws -> HTTPResponse {
        guard let step = JoinStep(rawValue: request.parameter("step")) else { throw Problem(status: 404, detail: "there is no such page") }
        guard let visit = try joining.visit(cookie: request.http.cookie(JoinPages.draftCookieName) ?? "") else { return expired(request) }
        let request = speaking(request, preferring: visit.answers.language ?? visit.draft.consentLanguage)
        guard visit.steps.contains(step) else { return .seeOther(path(of: joining.firstUnanswered(in: visit) ?? .check)) }
        if step == .check, let missing = joining.firstUnanswered(in: visit) { return .seeOther(path(of: missing)) }
        return render(step, visit, request, answers: visit.answers, issues: [])
    }

    func answer(_ request: ConsoleRequest) throws -> HTTPResponse {
        guard let step = JoinStep(rawValue: request.parameter("step")) else { throw Problem(status: 404, detail: "there is no such page") }
        guard let visit = try joining.visit(cookie: request.http.cookie(JoinPages.draftCookieName) ?? "") else { return expired(request) }
        try checkToken(request, visit)
        if step == .check { return try join(visit, request) }
        var answers = visit.answers
        switch step {
        case .name: answers.name = request.field("name")
        case .email: answers.email = request.field("email")
        case .technologies: answers.technologies = JoinTechnologyForm.rows(from: request)
        case .testerCode: answers.testerCode = request.field("tester_code")
        case .language: answers.language = request.field("language")
        case .check: break
        }
        try joining.save(answers, in: visit)
        let speaking = speaking(request, preferring: answers.language ?? visit.draft.consentLanguage)
        let issues = joining.issues(step, answers)
        guard issues.isEmpty else {
            return render(step, visit, speaking, answers: answers, issues: issues.map { JoinWords.issue($0, speaking.messages) })
        }
        var saved = visit
        saved.answers = answers
        let next = request.field("return") == "check" ? JoinStep.check : visit.steps[(visit.steps.firstIndex(of: step) ?? 0) + 1]
        return .seeOther(path(of: joining.firstUnanswered(in: saved).map { $0 == next || next == .check ? $0 : next } ?? next))
    }

    /// Joins: the tester is made and signed in, and her personal link is shown this once.
    private func join(_ visit: JoinService.Visit, _ request: ConsoleRequest) throws -> HTTPResponse {
        let request = speaking(request, preferring: visit.answers.language ?? visit.draft.consentLanguage)
        let base = PublicAddress.base(configured: sessions.settings.publicURL, host: request.http.header("host")) ?? ""
        let joined: JoinService.Joined
        do {
            joined = try joining.join(visit, base: base)
        } catch is InvitationClosed {
            return closed(request)
        }
        let secure = sessions.isSecure(request.http)
        let cleared = try sessions.end(request.http, secure: secure)
        let link = joined.link
        let use = LinkUse(id: link.id, createdBy: link.createdBy, openedBy: nil)
        let cookie = try sessions.start(.link(id: link.id, testerID: link.testerID, openedBy: nil),
                                        for: Requester(name: link.testerID, credential: .link(use)), endingNoLaterThan: link.expiresAt, secure: secure)
        let messages = request.messages
        // No language links: following one would lose the link's address, shown only here.
        var response = request.translatedPage(messages[.joinJoinedTitle], switcher: false, content: """
        <div class="panel" role="status">
        <h1 class="heading-l">\(messages[.joinJoinedTitle])</h1>
        <p class="body">\(messages[.joinJoinedText])</p>
        </div>
        <h2 class="heading-m" id="one-time-secret">\(messages[.joinLinkLabel])</h2>
        <p class="secret"><code>\(joined.linkURL)</code></p>
        \(WarningText(messages[.joinLinkAdvice]).render(messages))
        <p class="body"><a href="/console/" class="button">\(messages[.joinHome])</a></p>
        """)
        response.headers += [cleared, cookie, ConsoleSessions.cookie(JoinPages.draftCookieName, "", maxAge: 0, secure: secure)]
        response.headers.append((name: "Cache-Control", value: "no-store"))
        return response
    }

    // MARK: Rendering

    private func render(_ step: JoinStep, _ visit: JoinService.Visit, _ request: ConsoleRequest, answers: JoinAnswers, issues: [FieldIssue]) -> HTTPResponse {
        let messages = request.messages
        let returning = request.http.query["return"] == "check" || request.field("return") == "check"
        let number = (visit.steps.firstIndex(of: step) ?? 0) + 1
        let caption: HTML = "<p class=\"caption\">\(messages(.joinStepCaption, ["number": messages.number(number), "total": messages.number(visit.steps.count)]))</p>"
        func issue(_ field: String) -> FieldIssue? { issues.first { $0.field == field } }
        let title: String
        var fields: HTML
        switch step {
        case .name:
            title = messages[.joinNameQuestion]
            fields = TextField(name: "name", label: title, heading: .pageHeading, hint: messages[.joinNameHint], value: answers.name ?? "",
                               issue: issue("name"), autocomplete: "nickname").render(messages)
        case .email:
            title = messages[.joinEmailQuestion]
            fields = TextField(name: "email", label: title, heading: .pageHeading, hint: messages[.joinEmailHint], value: answers.email ?? "",
                               issue: issue("email"), type: "email", autocomplete: "email", spellcheck: false).render(messages)
        case .technologies:
            title = messages[.joinTechnologyQuestion]
            fields = JoinTechnologyForm(rows: answers.technologies ?? [], issues: issues).render(title: title, messages)
        case .testerCode:
            title = messages[.joinTesterCodeQuestion]
            fields = TextField(name: "tester_code", label: title, heading: .pageHeading, hint: messages[.joinTesterCodeHint],
                               value: answers.testerCode ?? "", issue: issue("tester_code"), autocomplete: "off", width: "input--medium",
                               spellcheck: false).render(messages)
        case .language:
            title = messages[.joinLanguageQuestion]
            let options = Language.allCases.map { RadioGroup.Option($0.rawValue, $0.nativeName) }
            fields = RadioGroup(name: "language", legend: title, heading: .pageHeading, hint: messages[.joinLanguageHint], options: options,
                                selected: answers.language, issue: issue("language")).render(messages)
        case .check:
            title = messages[.joinCheckTitle]
            fields = """
            <h1 class="heading-l">\(title)</h1>
            \(JoinWords.summary(answers, visit, messages, change: { path(of: $0) + "?return=check" }))
            <p class="body">\(messages[.joinCheckText])</p>
            """
        }
        let hidden = Form.hidden(JoinPages.draftTokenField, visit.draft.csrf) + (returning ? Form.hidden("return", "check") : .empty)
        let button = Button(step == .check ? messages[.joinJoin] : messages[.joinContinue]).render()
        let form = Form(action: path(of: step), csrf: request.session?.csrf ?? visit.draft.csrf, content: caption + fields + hidden + button).render()
        let stop = Form(action: "/console/joining/stop", csrf: request.session?.csrf ?? visit.draft.csrf,
                        content: Form.hidden(JoinPages.draftTokenField, visit.draft.csrf) + Button(messages[.joinStop], kind: .secondary).render()).render()
        let previous = visit.steps.firstIndex(of: step).flatMap { $0 > 0 ? visit.steps[$0 - 1] : nil }
        return request.translatedPage(title, issues: issues, backLink: previous.map { BackLink(href: path(of: $0), text: messages[.backLinkText]) },
                                      content: form + stop)
    }

    private func closed(_ request: ConsoleRequest) -> HTTPResponse {
        let messages = request.messages
        var response = request.translatedPage(messages[.joinClosedTitle], content: """
        <h1 class="heading-l">\(messages[.joinClosedTitle])</h1>
        <p class="body">\(messages[.joinClosedText])</p>
        """)
        response.status = 410
        return response
    }

    private func expired(_ request: ConsoleRequest) -> HTTPResponse {
        let messages = request.messages
        return request.translatedPage(messages[.joinExpiredTitle], content: """
        <h1 class="heading-l">\(messages[.joinExpiredTitle])</h1>
        <p class="body">\(messages[.joinExpiredText])</p>
        """)
    }

    /// The invitation the address opens, or nil. Secrets that name no invitation at all count against the address, as
    /// unknown tokens and links do, so nobody scans for invitations; an old invitation's address does not.
    private func openInvitation(_ request: ConsoleRequest) throws -> Invitation? {
        let address = request.http.clientAddress
        if let wait = authFailures.retryAfter(for: address) {
            throw Problem(status: 429, detail: "too many unknown invitation links were opened from your address; try again in \(wait) seconds",
                          headers: [(name: "Retry-After", value: String(wait))])
        }
        let secret = request.parameter("secret")
        if let invitation = try joining.invitation(secret: secret) { return invitation }
        if try !joining.isKnown(secret: secret), authFailures.recordFailure(from: address) {
            logger.warning("unknown invitation links blocked", [("client.address", address.description),
                                                                ("auth.max_failures", String(authFailures.settings.maxFailures))])
        }
        return nil
    }

    private func checkToken(_ request: ConsoleRequest, _ visit: JoinService.Visit) throws {
        guard ConsoleSessions.matches(request.form[JoinPages.draftTokenField], visit.draft.csrf) else {
            throw Problem(status: 403, detail: "the form did not come from your joining pages, so nothing was changed. Go back, reload the page and send it again")
        }
    }

    private func path(of step: JoinStep) -> String { "/console/joining/" + step.rawValue }

    /// The page that says nothing was kept, in the language she was reading: it has no draft to tell it.
    static func declinedPath(_ language: Language) -> String {
        "/console/joining/declined?" + LanguageNegotiation.queryName + "=" + language.rawValue
    }

    /// The request in the language she chose (the switcher), else `preferred` (hers, or the invitation's), else her
    /// browser's, else the console's default.
    private func speaking(_ request: ConsoleRequest, preferring preferred: String) -> ConsoleRequest {
        let language = sessions.language(of: request.http, preferring: Language(rawValue: preferred))
        return language == request.messages.language ? request : request.speaking(language)
    }
}
