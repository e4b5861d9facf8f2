import VouchConsoleKit
import VouchDomain
import VouchStore

/// The header's sections for each role: a tester sees her fixes, feedback and data; staff see what their role reaches.
enum ConsoleNavigation {
    static func make(for principal: Principal, csrf: String, path: String) -> Navigation {
        var items: [(href: String, label: String)] = []
        let signedInAs: String
        if principal.role == .tester {
            items = [("/console/", "Your fixes"), ("/console/my-feedback", "Your feedback"), ("/console/my-data", "Your data")]
            signedInAs = "Signed in as a tester"
        } else {
            items.append(("/console/fixes", "Fixes"))
            if principal.allows(.manageTesters) { items.append(("/console/testers", "Testers")) }
            if principal.allows(.manageWebhooks) { items.append(("/console/webhooks", "Webhooks")) }
            if principal.allows(.manageTokens) { items.append(("/console/tokens", "Tokens")) }
            signedInAs = "Signed in as \(principal.name), \(Words.role(principal.role))"
        }
        return Navigation(signedInAs: signedInAs, items: items.map { item in
            Navigation.Item(href: item.href, label: item.label,
                            isCurrent: path == item.href || (item.href != "/console/" && path.hasPrefix(item.href + "/")))
        }, csrf: csrf)
    }

    /// The navigation of a resolved session, or none for nobody signed in.
    static func make(for resolved: (session: ConsoleSession, principal: Principal)?, path: String) -> Navigation? {
        resolved.map { make(for: $0.principal, csrf: $0.session.csrf, path: path) }
    }
}
