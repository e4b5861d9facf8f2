import VouchDomain

/// `vouch webhook deliveries [ID]` and `vouch webhook redeliver DELIVERY_ID`: each event sent to each webhook, and a second chance.
enum WebhookDeliveryCommands {
    static func all() -> [Command] { [deliveries(), redeliver()] }

    static func deliveries() -> Command {
        Command(
            name: "deliveries", abstract: "List deliveries, of one webhook or of all: each event sent to a webhook, its attempts and where it stands.",
            discussion: "A delivery is pending until it succeeds (2xx) or runs out of retries and is dead; the ones still pending are cancelled when their webhook answers 410 Gone.",
            arguments: [WebhookCommands.idArgument(name: "id", help: "Only this webhook's deliveries; without it, every webhook's.", example: "we_4w9tedpdf8fce6h6",
                                                   optional: true)],
            options: [.single("status", "status", help: "Only deliveries in this status.", allowed: WebhookDelivery.Status.allCases.map(\.rawValue))]
                + ListPager.options("deliveries")
        ) { context in
            let invocation = context.invocation
            let webhook = invocation.optionalArgument("id")
            let path = webhook.map { APIClient.path("/v1/webhooks", $0, "/deliveries") } ?? "/v1/deliveries"
            let page = try ListPager(api: context.api, path: path, itemsKey: "deliveries").fetch(query: [("status", invocation.value("status"))], invocation: invocation)
            context.output.emit(page.answer) { _ in OutputFormatter.listLines((page.items, page.next), OutputFormatter.deliveryLine, "delivery", "deliveries") }
        }
    }

    static func redeliver() -> Command {
        Command(
            name: "redeliver", abstract: "Send a dead or cancelled delivery again, the same event with the same id, with its retries anew.",
            arguments: [WebhookCommands.idArgument(name: "delivery", help: "The delivery's id, from 'vouch webhook deliveries'.", example: "dlv_4w9tedpdf8fce6h6")]
        ) { context in
            let delivery = try context.api.post(APIClient.path("/v1/deliveries", context.invocation.argument("delivery"), "/redeliver"))
            context.output.emit(delivery) { delivery in
                ["Delivery \(OutputFormatter.short(delivery, "id")) of the \(OutputFormatter.spoken(delivery, "type", .eventType)) event to webhook "
                 + "\(OutputFormatter.short(delivery, "webhook")) is queued again: \(OutputFormatter.spoken(delivery, "status", .deliveryStatus))."]
            }
        }
    }
}
