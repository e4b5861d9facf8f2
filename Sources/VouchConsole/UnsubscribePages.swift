import Foundation
import VouchConsoleKit
import VouchDomain
import VouchHTTP
import VouchServerKit
import VouchServices

/// The address in a mail's `List-Unsubscribe` (docs/notifications.md, "Unsubscribing"): no sign-in, the token in the
/// address is the key. A POST switches that kind of mail off, as RFC 8058's one-click POST from a mail program
/// (`List-Unsubscribe=One-Click`, URL-encoded or as `multipart/form-data`) or the page's button sends it; opening the
/// address only asks, since mail scanners fetch links before the person does.
struct UnsubscribePages {
    let routes: ConsoleRoutes
    let services: Services

    static let path = "/console/unsubscribe/"

    package func register(in router: inout APIRouter) {
        routes.get(&router, UnsubscribePages.path + "{token}", .anyone, ask)
        routes.postIgnoringBody(&router, UnsubscribePages.path + "{token}", unsubscribe)
    }

    func ask(_ request: ConsoleRequest) throws -> HTTPResponse {
        let messages = request.messages
        guard let target = try services.notifications.unsubscribeTarget(of: request.parameter("token")) else { return invalid(request) }
        let kind = UnsubscribePages.kindWords(target.kind, messages)
        let button = Form.hidden("List-Unsubscribe", "One-Click") + Button(messages[.unsubscribeButton]).render()
        return request.translatedPage(messages[.unsubscribeTitle], content: """
        <h1 class="heading-l">\(messages[.unsubscribeTitle])</h1>
        <p class="body">\(messages(.unsubscribeQuestion, ["kind": kind]))</p>
        \(request.form(UnsubscribePages.path + request.parameter("token"), button))
        """)
    }

    func unsubscribe(_ request: ConsoleRequest) throws -> HTTPResponse {
        let messages = request.messages
        guard let target = try services.notifications.unsubscribeTarget(of: request.parameter("token")),
              try services.notifications.unsubscribe(token: request.parameter("token")) else { return invalid(request) }
        return request.translatedPage(messages[.unsubscribeDoneTitle], content: """
        <h1 class="heading-l">\(messages[.unsubscribeDoneTitle])</h1>
        <p class="body">\(messages(.unsubscribeDoneText, ["kind": UnsubscribePages.kindWords(target.kind, messages)]))</p>
        """)
    }

    private func invalid(_ request: ConsoleRequest) -> HTTPResponse {
        let messages = request.messages
        var response = request.translatedPage(messages[.unsubscribeInvalidTitle], content: """
        <h1 class="heading-l">\(messages[.unsubscribeInvalidTitle])</h1>
        <p class="body">\(messages[.unsubscribeInvalidText])</p>
        """)
        response.status = 404
        return response
    }

    static func kindWords(_ kind: NotificationKind, _ messages: Messages) -> String {
        switch kind {
        case .testerEnrolled, .withdrawalDone: messages[.unsubscribeKindTesterEnrolled]
        case .newRevision: messages[.unsubscribeKindNewRevision]
        case .fixReleased: messages[.unsubscribeKindFixReleased]
        case .promotionFailed: messages[.unsubscribeKindPromotionFailed]
        case .blockingReport: messages[.unsubscribeKindBlockingReport]
        case .readyForDecision: messages[.unsubscribeKindReadyForDecision]
        }
    }
}
