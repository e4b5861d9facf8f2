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
        let page = try AdminPages.page(request, key: \.id) { after, limit in
            try services.notifications.notifications(status: nil, after: after, limit: limit, for: principal)
        }
        let state: HTML = mail.isConfigured
            ? "Mail is on: notifications go through \(mail.smtpURL) from \(mail.from)."
            : "Mail is off: vouchd sends no notification and queues none until notifications.smtp_url and notifications.from are set in its configuration."
        let rows = page.items.map { notification -> [HTML] in
            let about: HTML = notification.fixKey.map { " about fix \($0)" } ?? .empty
            return ["\(NotificationPages.kind(notification.kind))\(about)", "\(notification.recipient)", NotificationPages.status(notification).render(),
                    NotificationPages.attempts(notification), Words.timeElement(notification.createdAt)]
        }
        let table = DataTable(caption: "Notifications, oldest first", columns: ["Notification", "To", "Status", "Attempts", "Queued"], rows: rows,
                              emptyText: "No notification has been queued yet.")
        return request.page("Notifications by email", content: """
        <h1 class="heading-l">Notifications by email</h1>
        <p class="body">\(state)</p>
        <p class="body">Testers are told when they are enrolled in a fix, when it changes and when it is released; maintainers of blocking \
        reports and failed promotions; release managers of fixes that wait for their decision. A notification is retried while the relay \
        may take it later. Addresses are never shown here.</p>
        \(table.render())
        \(AdminPages.nextPageLink("/console/notifications", cursor: page.next, subject: "notifications"))
        """)
    }

    static func kind(_ kind: NotificationKind) -> String {
        switch kind {
        case .testerEnrolled: "Enrolled in a fix"
        case .newRevision: "A new revision to try"
        case .fixReleased: "A fix she tested was released"
        case .withdrawalDone: "Her withdrawal is done"
        case .readyForDecision: "A fix waits for a decision"
        case .blockingReport: "A blocking report"
        case .promotionFailed: "A promotion failed"
        }
    }

    static func status(_ notification: MailNotification) -> StatusTag {
        switch notification.status {
        case .pending: StatusTag(notification.attempts == 0 ? "Waiting to be sent" : "Retrying", tone: .waiting)
        case .sent: StatusTag("Sent", tone: .good)
        case .dead: StatusTag("Failed, no more retries", tone: .bad)
        case .cancelled: StatusTag("Cancelled", tone: .neutral)
        }
    }

    static func attempts(_ notification: MailNotification) -> HTML {
        let tries: HTML = notification.attempts == 1 ? "1 attempt" : "\(notification.attempts) attempts"
        var cell = tries + (notification.lastError.map { ". Last error: \($0)" } ?? .empty)
        if notification.status == .pending, let next = notification.nextAttemptAt { cell = cell + ". Next try \(Words.timeElement(next))" }
        return cell + "."
    }
}
