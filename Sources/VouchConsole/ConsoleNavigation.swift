import VouchConsoleKit
import VouchDomain
import VouchStore

/// The header's sections for each role: a tester sees her fixes, feedback and data; staff see what their role reaches.
enum ConsoleNavigation {
    /// In the page's language, as every page is (docs/console.md, "Languages").
    static func make(for principal: Principal, csrf: String, path: String, messages: Messages = .english) -> Navigation {
        var items: [(href: String, label: String)] = []
        let signedInAs: String
        if principal.role == .tester {
            items = [("/console/", messages[.homeTitle]), ("/console/my-feedback", messages[.myFeedbackTitle]),
                     ("/console/my-data", messages[.myDataTitle])]
            signedInAs = messages[.navigationTester]
        } else {
            items.append(("/console/fixes", messages[.staffNavigationFixes]))
            if principal.allows(.readAll) { items.append((ConformanceReportPage.path, messages[.acrNavigation])) }
            if principal.allows(.manageTesters) {
                items += [("/console/testers", messages[.staffNavigationTesters]), ("/console/invitations", messages[.staffNavigationInvitations]),
                          ("/console/panels", messages[.staffNavigationPanels]), ("/console/notifications", messages[.staffNavigationNotifications])]
            }
            if principal.allows(.manageWebhooks) { items.append(("/console/webhooks", messages[.staffNavigationWebhooks])) }
            if principal.allows(.manageTokens) { items.append(("/console/tokens", messages[.staffNavigationTokens])) }
            items.append(("/console/audit", messages[.staffNavigationAudit]))
            signedInAs = messages(.staffNavigationSignedInAs, ["name": principal.name, "role": messages.role(principal.role)])
        }
        return Navigation(signedInAs: signedInAs, wordsLanguage: messages.language, items: items.map { item in
            Navigation.Item(href: item.href, label: item.label,
                            isCurrent: path == item.href || (item.href != "/console/" && path.hasPrefix(item.href + "/")))
        }, csrf: csrf)
    }

    /// The navigation of a resolved session, or none for nobody signed in.
    static func make(for resolved: (session: ConsoleSession, principal: Principal)?, path: String, messages: Messages = .english) -> Navigation? {
        resolved.map { make(for: $0.principal, csrf: $0.session.csrf, path: path, messages: messages) }
    }
}
