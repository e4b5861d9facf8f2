import VouchDomain
import VouchJSON

/// `vouch webhook add|list|show|update|delete|test|deliveries|redeliver`: the receivers of Vouch's events (admin only).
enum WebhookCommands {
    static let idArgument = idArgument(name: "id", help: "The webhook's id, such as we_4w9tedpdf8fce6h6, from 'vouch webhook list'.", example: "we_4w9tedpdf8fce6h6")

    /// Ids are checked here because the server routes on the decoded path, where a '/' would reach another route.
    static func idArgument(name: String, help: String, example: String, optional: Bool = false) -> CommandArgument {
        CommandArgument(name: name, help: help, optional: optional) { id in
            !id.isEmpty && id.count <= 100 && id.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") })
                ? nil : "an id is letters, digits and '_', such as \(example)"
        }
    }

    /// `--format` and `--token-file`, the same for adding and changing a webhook.
    static func formatOptions(_ formatHelp: String) -> [CommandOption] {
        [
            .single("format", "format", help: formatHelp, allowed: WebhookFormat.allCases.map(\.rawValue)),
            .single("token-file", "name", help: "For --format github-dispatch: the name of the file in vouchd's webhooks.token_directory whose first line "
                + "is the GitHub token, such as github-deploy.token. The token itself is never sent to or stored by Vouch's API."),
        ]
    }

    /// `--events`, whose help says what leaving it out means.
    static func events(_ help: String) -> CommandOption {
        .list("events", "event", help: help, allowed: WebhookEvent.types)
    }

    static func group() -> Command {
        Command(
            name: "webhook", abstract: "Add, list, change and test the webhooks that receive Vouch's events, and follow their deliveries.",
            discussion: """
                A webhook is an HTTP endpoint that receives Vouch's events as signed POST requests (Standard Webhooks). When a fix is promoted, \
                it is released once every webhook marked required has answered with success (2xx). A failed delivery is retried on a schedule; \
                one that runs out of retries is dead, and can be sent again with 'redeliver'. Only an admin manages webhooks. Two other formats \
                reach what teams already run: github-dispatch starts a GitHub Actions workflow (a repository dispatch), slack posts a message \
                in words to a channel; neither can be required.
                """,
            subcommands: [add(), list(), show(), WebhookUpdateCommand.command(), delete(), test()] + WebhookDeliveryCommands.all())
    }

    static func add() -> Command {
        Command(
            name: "add", abstract: "Add a webhook; its signing secret is shown once.",
            discussion: """
                Example: vouch webhook add https://hooks.example.org/vouch --events fix.promoted,fix.released --required

                Example: vouch webhook add https://api.github.com/repos/example/app/dispatches --format github-dispatch --token-file github-deploy.token --events fix.released

                Example: vouch webhook add https://hooks.slack.com/services/T000/B000/XXXX --format slack --events fix.promoted,fix.released,fix.rolled_back
                """,
            arguments: [CommandArgument(name: "url", help: "The receiver's http:// or https:// URL.")],
            options: [events("An event the webhook receives; without it, every event."), .flag("required", help: "A promotion waits for this webhook: the fix is released only once it answers with success.")]
                + formatOptions("What the requests look like: standard (Standard Webhooks, signed; the default), github-dispatch (a GitHub repository "
                    + "dispatch, event type vouch. and the event's type) or slack (an incoming-webhook message in words, linking to the fix's console page).")
        ) { context in
            let invocation = context.invocation
            var body: JSONObject = ["url": .string(invocation.argument("url"))]
            if let events = invocation.list("events") { body["events"] = .strings(events) }
            if invocation.flag("required") { body["required"] = .bool(true) }
            if let format = invocation.value("format") { body["format"] = .string(format) }
            if let tokenFile = invocation.value("token-file") { body["token_file"] = .string(tokenFile) }
            let webhook = try context.api.post("/v1/webhooks", body: body)
            context.output.emit(webhook, OutputFormatter.addedWebhook)
        }
    }

    static func list() -> Command {
        Command(name: "list", abstract: "List webhooks; never their secrets.", options: ListPager.options("webhooks")) { context in
            let page = try ListPager(api: context.api, path: "/v1/webhooks", itemsKey: "webhooks").fetch(query: [], invocation: context.invocation)
            context.output.emit(page.answer) { _ in OutputFormatter.listLines((page.items, page.next), OutputFormatter.webhookLine, "webhook", "webhooks") }
        }
    }

    static func show() -> Command {
        Command(name: "show", abstract: "Show every field of one webhook, but its secret.", arguments: [idArgument]) { context in
            let webhook = try context.api.get(APIClient.path("/v1/webhooks", context.invocation.argument("id")))
            context.output.emit(webhook, OutputFormatter.webhookDetails)
        }
    }

    static func delete() -> Command {
        Command(name: "delete", abstract: "Delete a webhook and its deliveries: it receives no more events.", arguments: [idArgument]) { context in
            let id = context.invocation.argument("id")
            let answer = try context.api.delete(APIClient.path("/v1/webhooks", id))
            context.output.emit(answer) { _ in ["Webhook \(ShortID.say(id)) is deleted."] }
        }
    }

    static func test() -> Command {
        Command(
            name: "test", abstract: "Send a webhook.test event to one webhook, signed and retried like any other.",
            arguments: [idArgument]
        ) { context in
            let id = context.invocation.argument("id")
            let answer = try context.api.post(APIClient.path("/v1/webhooks", id, "/test"))
            context.output.emit(answer) { answer in
                ["A test event is queued for webhook \(ShortID.say(id)): delivery "
                 + ((answer["deliveries"]?.arrayValue ?? []).compactMap(\.stringValue).map(ShortID.say).joined(separator: ", ")) + ".",
                 "See how it went with 'vouch webhook deliveries \(id)'."]
            }
        }
    }
}
