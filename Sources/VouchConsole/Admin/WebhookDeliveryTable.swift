import VouchConsoleKit
import VouchDomain

/// A webhook's deliveries in four narrow columns (event, status, last attempt, action), with a filter by status and a
/// "Redeliver" button on each failed or cancelled delivery while the webhook is enabled.
struct WebhookDeliveryTable {
    let endpoint: WebhookEndpoint
    let deliveries: [WebhookDelivery]
    /// The status the table is filtered by, if any.
    let status: WebhookDelivery.Status?
    let csrf: String

    func render() -> HTML {
        let rows = deliveries.map { delivery -> [HTML] in
            ["\(WebhookWords.event(delivery.eventType)) <span class=\"hint\">(\(delivery.eventType.rawValue))</span>",
             WebhookWords.statusTag(delivery).render(), lastAttempt(delivery), action(delivery)]
        }
        let caption = status.map { "Deliveries: \(WebhookWords.statusWord($0).lowercased()) only" } ?? "All deliveries"
        let table = DataTable(caption: caption, columns: ["Event", "Status", "Last attempt", "Action"], rows: rows,
                              emptyText: status == nil ? "Nothing has been sent to this webhook yet." : "No delivery has this status.")
        return """
        <h2 class="heading-m">Deliveries</h2>
        <p class="body">Each event sent to this webhook, with its attempts. A delivery that failed every retry can be sent again.</p>
        \(filter())
        \(table.render())
        """
    }

    /// Links that show every delivery or those of one status; the current one is marked for screen readers too.
    private func filter() -> HTML {
        let path = "/console/webhooks/\(endpoint.id)"
        let choices: [(WebhookDelivery.Status?, String)] = [(nil, "All")] + WebhookDelivery.Status.allCases.map { ($0, WebhookWords.statusWord($0)) }
        let items = choices.map { choice, label -> HTML in
            let href = choice.map { "\(path)?status=\($0.rawValue)" } ?? path
            let current: HTML = choice == status ? " aria-current=\"page\"" : .empty
            return "<li><a href=\"\(href)\"\(current)>\(label)<span class=\"visually-hidden\"> deliveries</span></a></li>"
        }
        return "<nav aria-label=\"Deliveries by status\"><ul class=\"list\">\(items)</ul></nav>"
    }

    private func lastAttempt(_ delivery: WebhookDelivery) -> HTML {
        guard delivery.attempts > 0 else {
            return delivery.nextAttemptAt.map { "Not tried yet; first try \(Words.timeElement($0))" } ?? "Not tried"
        }
        let answer = delivery.lastStatusCode.map { "answered \($0)" } ?? ("no answer" + (delivery.lastError.map { ": \($0)" } ?? ""))
        let tries = delivery.attempts == 1 ? "1 attempt" : "\(delivery.attempts) attempts"
        var cell: HTML = "\(tries), the last on \(Words.timeElement(delivery.updatedAt)): \(answer)."
        if delivery.status == .pending, let next = delivery.nextAttemptAt { cell = cell + " Next try \(Words.timeElement(next))." }
        return cell
    }

    /// A failed or cancelled delivery may be sent again while the webhook is enabled (the API's own rule).
    private func action(_ delivery: WebhookDelivery) -> HTML {
        switch delivery.status {
        case .succeeded: return "None needed"
        case .pending: return "None: Vouch retries it by itself"
        case .dead, .cancelled: break
        }
        guard endpoint.enabled else { return "Enable the webhook to send it again" }
        let button: HTML = """
        <button type="submit" class="button button--secondary">Redeliver<span class="visually-hidden"> the delivery \(Words.shortID(delivery.id)): \(WebhookWords.event(delivery.eventType).lowercased())</span></button>
        """
        return Form(action: "/console/webhooks/\(endpoint.id)/deliveries/\(delivery.id)/redeliver", csrf: csrf, content: button).render()
    }
}
