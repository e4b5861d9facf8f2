import VouchDomain
import VouchJSON

/// `vouch notifications list`: the outbox of notifications by email (docs/notifications.md).
enum NotificationCommands {
    static func group() -> Command {
        Command(
            name: "notifications", abstract: "List the notifications by email: to whom, about what, and whether they were sent.",
            discussion: """
                vouchd sends mail only when notifications.smtp_url and notifications.from are configured. A notification is pending until \
                the relay accepts it (sent), or until it runs out of retries or is refused for good (dead); a tester who switches that kind \
                of mail off, or withdraws, cancels what is queued for her. Addresses are never shown.
                """,
            subcommands: [list()])
    }

    static func list() -> Command {
        Command(
            name: "list", abstract: "List notifications, oldest first.",
            options: [.single("status", "status", help: "Only notifications in this status.", allowed: MailNotification.Status.allCases.map(\.rawValue))]
                + ListPager.options("notifications")
        ) { context in
            let invocation = context.invocation
            let page = try ListPager(api: context.api, path: "/v1/notifications", itemsKey: "notifications")
                .fetch(query: [("status", invocation.value("status"))], invocation: invocation)
            context.output.emit(page.answer) { _ in OutputFormatter.listLines((page.items, page.next), NotificationCommands.line, "notification", "notifications") }
        }
    }

    /// One notification as a plain line: labels before values.
    static func line(_ notification: JSONValue) -> String {
        let attempts = notification["attempts"]?.intValue ?? 0
        let tries = attempts == 0 ? "no attempt yet" : attempts == 1 ? "1 attempt" : "\(attempts) attempts"
        var line = "\(OutputFormatter.text(notification, "id")): kind \(OutputFormatter.text(notification, "kind").replacingOccurrences(of: "_", with: " "))"
            + ", to \(OutputFormatter.text(notification, "recipient")), language \(OutputFormatter.text(notification, "language"))"
        if let fix = notification["fix"]?.stringValue { line += ", fix \(fix)" }
        line += "; status \(OutputFormatter.text(notification, "status")), \(tries)"
        if let error = notification["last_error"]?.stringValue { line += ", last error: \(error)" }
        if notification["status"]?.stringValue == "pending", notification["next_attempt_at"]?.stringValue != nil {
            line += ", next attempt on \(OutputFormatter.time(notification, "next_attempt_at"))"
        }
        return line + "; created on \(OutputFormatter.time(notification, "created_at"))."
    }
}
