/// What an endpoint's requests look like. The event stored in the outbox is always the Standard Webhooks body; the
/// format shapes each attempt from it (docs/contracts.md, "Formats").
public enum WebhookFormat: String, Sendable, CaseIterable {
    /// Standard Webhooks: the stored body as it is, signed with the endpoint's secret.
    case standard
    /// A GitHub repository dispatch: `{"event_type": "vouch.<type>", "client_payload": …}` with a bearer token read
    /// from a file, to start a workflow.
    case githubDispatch = "github-dispatch"
    /// A Slack incoming-webhook message that says in words what happened and links to the fix's console page.
    case slack

    public static let allowedList = allCases.map(\.rawValue).joined(separator: ", ")

    /// Whether a promotion may wait for this format's 2xx. Only a Standard Webhooks receiver answers for itself:
    /// GitHub's 204 says a dispatch was queued, not that a workflow ran or succeeded, and Slack's 200 says a message
    /// was posted, which approves nothing (docs/decisions.md, "Only a Standard Webhooks receiver can be required").
    public var mayBeRequired: Bool { self == .standard }

    /// Whether requests carry the Standard Webhooks signature headers.
    public var isSigned: Bool { self == .standard }
}
