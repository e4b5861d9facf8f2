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
    var messages: Messages = .english

    func render() -> HTML {
        let rows = deliveries.map { delivery -> [HTML] in
            ["\(WebhookWords.event(delivery.eventType, messages)) <span class=\"hint\">(\(delivery.eventType.rawValue))</span>",
             WebhookWords.statusTag(delivery, messages).render(), lastAttempt(delivery), action(delivery)]
        }
        let caption = status.map { messages(.deliveriesCaptionStatus, ["status": WebhookWords.statusWord($0, messages).lowercased()]) } ?? messages[.deliveriesCaptionAll]
        let table = DataTable(caption: caption, columns: [messages[.deliveriesEvent], messages[.webhooksStatus], messages[.deliveriesLastAttempt], messages[.deliveriesAction]],
                              rows: rows, emptyText: messages[status == nil ? .deliveriesEmpty : .deliveriesEmptyStatus])
        return """
        <h2 class="heading-m">\(messages[.deliveriesTitle])</h2>
        <p class="body">\(messages[.deliveriesIntro])</p>
        \(filter())
        \(table.render())
        """
    }

    /// Links that show every delivery or those of one status; the current one is marked for screen readers too.
    private func filter() -> HTML {
        let path = "/console/webhooks/\(endpoint.id)"
        let choices: [(WebhookDelivery.Status?, String)] = [(nil, messages[.deliveriesAll])]
            + WebhookDelivery.Status.allCases.map { ($0, WebhookWords.statusWord($0, messages)) }
        let items = choices.map { choice, label -> HTML in
            let href = choice.map { "\(path)?status=\($0.rawValue)" } ?? path
            let current: HTML = choice == status ? " aria-current=\"page\"" : .empty
            return "<li><a href=\"\(href)\"\(current)>\(label)<span class=\"visually-hidden\"> \(messages[.deliveriesHidden])</span></a></li>"
        }
        return "<nav aria-label=\"\(messages[.deliveriesByStatus])\"><ul class=\"list\">\(items)</ul></nav>"
    }

    private func lastAttempt(_ delivery: WebhookDelivery) -> HTML {
        guard delivery.attempts > 0 else {
            return delivery.nextAttemptAt.map { messages.html(.deliveriesNotTriedYet, ["date": messages.staffTimeElement($0)]) } ?? "\(messages[.deliveriesNotTried])"
        }
        let answer = delivery.lastStatusCode.map { messages(.deliveriesAnswered, ["code": String($0)]) }
            ?? (delivery.lastError.map { messages(.deliveriesNoAnswerError, ["error": $0]) } ?? messages[.deliveriesNoAnswer])
        let tries = messages.count(delivery.attempts, one: .deliveriesAttemptsOne, other: .deliveriesAttemptsOther)
        var cell = messages.html(.deliveriesLast, ["tries": "\(tries)", "date": messages.staffTimeElement(delivery.updatedAt), "answer": "\(answer)"])
        if delivery.status == .pending, let next = delivery.nextAttemptAt {
            cell = cell + " " + messages.html(.deliveriesNextTry, ["date": messages.staffTimeElement(next)])
        }
        return cell
    }

    /// A failed or cancelled delivery may be sent again while the webhook is enabled (the API's own rule).
    private func action(_ delivery: WebhookDelivery) -> HTML {
        switch delivery.status {
        case .succeeded: return "\(messages[.deliveriesNoneNeeded])"
        case .pending: return "\(messages[.deliveriesRetriesItself])"
        case .dead, .cancelled: break
        }
        guard endpoint.enabled else { return "\(messages[.deliveriesEnableFirst])" }
        let hidden = messages(.deliveriesRedeliverHidden, ["delivery": messages.shortID(delivery.id),
                                                           "event": WebhookWords.event(delivery.eventType, messages).lowercased()])
        let button: HTML = """
        <button type="submit" class="button button--secondary">\(messages[.deliveriesRedeliver])<span class="visually-hidden"> \(hidden)</span></button>
        """
        return Form(action: "/console/webhooks/\(endpoint.id)/deliveries/\(delivery.id)/redeliver", csrf: csrf, content: button).render()
    }
}
