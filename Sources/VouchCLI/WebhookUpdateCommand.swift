import VouchJSON

/// `vouch webhook update ID [--url] [--events] [--required true|false] [--format] [--token-file] [--enable|--disable]`.
enum WebhookUpdateCommand {
    static let optionNames = ["url", "events", "required", "format", "token-file", "enable", "disable"]

    static func command() -> Command {
        Command(
            name: "update", abstract: "Change a webhook's URL, events or whether promotions wait for it; enable or disable it.",
            discussion: "Only the options given change. A disabled webhook gets no new events, and a promotion does not wait for it.",
            arguments: [WebhookCommands.idArgument],
            options: [
                .single("url", "url", help: "The receiver's new http:// or https:// URL."),
                WebhookCommands.events("An event the webhook receives, in place of those it received; give \"\" for every event."),
                .single("required", "true-or-false", help: "Whether a promotion waits for this webhook's success.", allowed: ["true", "false"]),
            ] + WebhookCommands.formatOptions("What the requests look like from now on: standard, github-dispatch or slack.") + [
                .flag("enable", help: "Enable the webhook again, such as after its receiver answered 410 Gone."),
                .flag("disable", help: "Stop sending events to the webhook."),
            ]
        ) { context in
            let invocation = context.invocation
            if invocation.flag("enable") && invocation.flag("disable") {
                throw UsageError("Give either --enable or --disable, not both.", commandPath: invocation.path)
            }
            var body = JSONObject()
            if let url = invocation.value("url") { body["url"] = .string(url) }
            if let events = invocation.list("events") { body["events"] = .strings(events) }
            if let required = invocation.value("required") { body["required"] = .bool(required == "true") }
            if let format = invocation.value("format") { body["format"] = .string(format) }
            if let tokenFile = invocation.value("token-file") { body["token_file"] = .string(tokenFile) }
            if invocation.flag("enable") { body["enabled"] = .bool(true) }
            if invocation.flag("disable") { body["enabled"] = .bool(false) }
            guard !body.members.isEmpty else { throw UsageError.nothingToChange(optionNames, commandPath: invocation.path) }
            let webhook = try context.api.patch(APIClient.path("/v1/webhooks", invocation.argument("id")), body: body)
            context.output.emit(webhook) { webhook in
                ["Webhook \(OutputFormatter.short(webhook, "id")) is updated: \(OutputFormatter.webhookSummary(webhook))."]
            }
        }
    }
}
