import VouchJSON

extension OutputFormatter {
    /// "https://hooks.example.org/vouch; events: all; required for promotion: yes; enabled: yes", with "format: Slack
    /// message; " after the URL for a format other than Standard Webhooks.
    static func webhookSummary(_ webhook: JSONValue) -> String {
        let format = (webhook["format"]?.stringValue ?? "standard") == "standard" ? "" : "; format: \(formatWords(webhook))"
        return "\(text(webhook, "url"))\(format); events: \(spokenList(webhook["events"], .eventType, empty: "all")); required for promotion: \(yesNo(webhook["required"])); "
            + "enabled: \(enabled(webhook))"
    }

    /// One line per webhook in a list.
    static func webhookLine(_ webhook: JSONValue) -> String {
        "\(text(webhook, "id")): \(webhookSummary(webhook))."
    }

    /// Every field of one webhook, one labelled line each; never the secret, which the server shows only at creation.
    static func webhookDetails(_ webhook: JSONValue) -> [String] {
        [
            "Id: \(text(webhook, "id"))",
            "URL: \(text(webhook, "url"))",
            "Format: \(formatWords(webhook))",
            "Events: \(spokenList(webhook["events"], .eventType, empty: "all"))",
            "Required for promotion: \(yesNo(webhook["required"]))",
            "Enabled: \(enabled(webhook))",
        ] + (webhook["token_file"]?.stringValue.map { ["Token file: \($0), in webhooks.token_directory"] } ?? []) + [
            "Created: \(time(webhook, "created_at")) by \(text(webhook, "created_by"))",
            "Updated: \(time(webhook, "updated_at"))",
        ]
    }

    /// The answer to `webhook add`: the one time the signing secret is printed.
    static func addedWebhook(_ webhook: JSONValue) -> [String] {
        let added = "Webhook \(text(webhook, "id")) is added: \(webhookSummary(webhook))."
        // Only Standard Webhooks requests are signed; the other formats' receivers never see the secret.
        guard (webhook["format"]?.stringValue ?? "standard") == "standard" else { return [added] }
        return [
            added,
            "Secret: \(text(webhook, "secret"))",
            "The secret will not be shown again; store it now. Receivers verify every delivery's webhook-signature header with it (Standard Webhooks).",
        ]
    }

    /// "Standard Webhooks, signed", "GitHub repository dispatch" or "Slack message".
    static func formatWords(_ webhook: JSONValue) -> String {
        switch webhook["format"]?.stringValue ?? "standard" {
        case "standard": "Standard Webhooks, signed"
        case "github-dispatch": "GitHub repository dispatch"
        case "slack": "Slack message"
        case let other: SpokenWords.say(other, .field)
        }
    }

    /// One line per delivery: which event to which webhook, where it stands, and its last answer.
    static func deliveryLine(_ delivery: JSONValue) -> String {
        var line = "\(text(delivery, "id")): \(spoken(delivery, "type", .eventType)) event for webhook \(text(delivery, "webhook"))"
        if delivery["required"]?.boolValue == true { line += ", required for promotion" }
        let attempts = delivery["attempts"]?.intValue ?? 0
        let tries = attempts == 0 ? "no attempt yet" : attempts == 1 ? "1 attempt" : "\(attempts) attempts"
        let status = text(delivery, "status")
        line += "; \(SpokenWords.say(status, .deliveryStatus)), \(tries)"
        if let code = delivery["last_status_code"]?.intValue { line += ", last answer status \(code)" }
        if let error = delivery["last_error"]?.stringValue { line += ", last error: \(error)" }
        if status == "pending", delivery["next_attempt_at"]?.stringValue != nil { line += ", next attempt on \(time(delivery, "next_attempt_at"))" }
        return line + "; created on \(time(delivery, "created_at"))."
    }

    private static func yesNo(_ value: JSONValue?) -> String {
        value?.boolValue == true ? "yes" : "no"
    }

    /// "yes", or "no" with the reason the server disabled it, such as a receiver that answered 410 Gone.
    private static func enabled(_ webhook: JSONValue) -> String {
        guard webhook["enabled"]?.boolValue != true else { return "yes" }
        return webhook["disabled_reason"]?.stringValue.map { "no (\($0))" } ?? "no"
    }
}
