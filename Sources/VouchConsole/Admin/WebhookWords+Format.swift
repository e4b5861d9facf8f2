import VouchConsoleKit
import VouchDomain

extension WebhookWords {
    /// "Standard Webhooks, signed", "GitHub repository dispatch" or "Slack message", for the form and the list.
    static func format(_ format: WebhookFormat, _ messages: Messages = .english) -> String {
        switch format {
        case .standard: messages[.webhookFormatsStandard]
        case .githubDispatch: messages[.webhookFormatsGithubDispatch]
        case .slack: messages[.webhookFormatsSlack]
        }
    }
}
