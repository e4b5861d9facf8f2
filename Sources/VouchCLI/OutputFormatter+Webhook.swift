import VouchJSON

extension OutputFormatter {
    /// "https://hooks.example.org/vouch; events: all; required for promotion: yes; enabled: yes"
    static func webhookSummary(_ webhook: JSONValue) -> String {
        "\(text(webhook, "url")); events: \(spokenList(webhook["events"], .eventType, empty: "all")); required for promotion: \(yesNo(webhook["required"])); "
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
            "Events: \(spokenList(webhook["events"], .eventType, empty: "all"))",
            "Required for promotion: \(yesNo(webhook["required"]))",
            "Enabled: \(enabled(webhook))",
            "Created: \(time(webhook, "created_at")) by \(text(webhook, "created_by"))",
            "Updated: \(time(webhook, "updated_at"))",
        ]
    }

    /// The answer to `webhook add`: the one time the signing secret is printed.
    static func addedWebhook(_ webhook: JSONValue) -> [String] {
        [
            "Webhook \(text(webhook, "id")) is added: \(webhookSummary(webhook)).",
            "Secret: \(text(webhook, "secret"))",
            "The secret will not be shown again; store it now. Receivers verify every delivery's webhook-signature header with it (Standard Webhooks).",
        ]
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
