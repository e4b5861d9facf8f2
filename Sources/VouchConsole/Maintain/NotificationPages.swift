import Foundation
import VouchConsoleKit
import VouchDomain
import VouchHTTP
import VouchServerKit
import VouchServices

/// The outbox of notifications by email, for those who manage testers: whether mail is on, and each notification's
/// kind, recipient (a pseudonym or a staff name, never an address) and where it stands (docs/notifications.md).
struct NotificationPages {
    let routes: ConsoleRoutes
    let services: Services
    let mail: MailSettings

    package func register(in router: inout APIRouter) {
        routes.get(&router, "/console/notifications", .permission(.manageTesters), list)
    }

    func list(_ request: ConsoleRequest) throws -> HTTPResponse {
        let principal = try request.signedIn
        let messages = request.messages
        let page = try AdminPages.page(request, key: \.id) { after, limit in
            try services.notifications.notifications(status: nil, after: after, limit: limit, for: principal)
        }
        let state = mail.isConfigured ? messages(.notificationsMailOn, ["relay": mail.smtpURL, "from": mail.from]) : messages[.notificationsMailOff]
        let rows = page.items.map { notification -> [HTML] in
            let kind = NotificationPages.kind(notification.kind, messages)
            let about = notification.fixKey.map { messages(.notificationsAboutFix, ["kind": kind, "fix": $0]) } ?? kind
            return ["\(about)", "\(notification.recipient)", NotificationPages.status(notification, messages).render(),
                    NotificationPages.attempts(notification, messages), messages.timeElement(notification.createdAt)]
        }
        let table = DataTable(caption: messages[.notificationsCaption],
                              columns: [messages[.notificationsColumnKind], messages[.notificationsColumnTo], messages[.notificationsColumnStatus],
                                        messages[.notificationsColumnAttempts], messages[.notificationsColumnQueued]],
                              rows: rows, emptyText: messages[.notificationsNone])
        return request.translatedPage(messages[.notificationsTitle], content: """
        <h1 class="heading-l">\(messages[.notificationsTitle])</h1>
        <p class="body">\(state)</p>
        <p class="body">\(messages[.notificationsIntro])</p>
        \(table.render())
        \(AdminPages.nextPageLink("/console/notifications", cursor: page.next, subject: "notifications", next: messages[.tokensNextPage],
                                  hidden: messages[.notificationsOfNotifications]))
        """)
    }

    static func kind(_ kind: NotificationKind, _ messages: Messages) -> String {
        switch kind {
        case .testerEnrolled: messages[.notificationsKindEnrolled]
        case .newRevision: messages[.notificationsKindRevision]
        case .fixReleased: messages[.notificationsKindReleased]
        case .withdrawalDone: messages[.notificationsKindWithdrawal]
        case .readyForDecision: messages[.notificationsKindDecision]
        case .blockingReport: messages[.notificationsKindBlocking]
        case .promotionFailed: messages[.notificationsKindPromotionFailed]
        }
    }

    static func status(_ notification: MailNotification, _ messages: Messages) -> StatusTag {
        switch notification.status {
        case .pending: StatusTag(messages[notification.attempts == 0 ? .notificationsStatusWaiting : .notificationsStatusRetrying], tone: .waiting)
        case .sent: StatusTag(messages[.notificationsStatusSent], tone: .good)
        case .dead: StatusTag(messages[.notificationsStatusDead], tone: .bad)
        case .cancelled: StatusTag(messages[.notificationsStatusCancelled], tone: .neutral)
        }
    }

    /// The attempts, the relay's last error (its words stay English, marked so) and the next try.
    static func attempts(_ notification: MailNotification, _ messages: Messages) -> HTML {
        var cell: HTML = "\(messages.count(notification.attempts, one: .notificationsAttemptsOne, other: .notificationsAttemptsOther))"
        if let error = notification.lastError {
            cell = cell + "<br>\(messages[.notificationsLastError]) <span lang=\"en\">\(error)</span>"
        }
        if notification.status == .pending, let next = notification.nextAttemptAt {
            cell = cell + "<br>\(messages[.notificationsNextTry]) " + messages.timeElement(next)
        }
        return cell
    }
}
