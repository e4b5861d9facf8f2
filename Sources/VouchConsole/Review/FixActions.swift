import VouchConsoleKit
import VouchDomain
import VouchServices

/// The fix page's "Actions": a link for each thing this person's role may do to the fix and its lifecycle allows
/// now, and, where a release manager may not decide, the reason in words.
struct FixActions {
    struct Link: Equatable {
        var path: String
        var text: String
    }

    let fix: Fix
    let principal: Principal
    let report: CriteriaReport
    var messages: Messages = .english

    /// States in which the API records approvals.
    static let decidableStates: [FixState] = [.testing, .promotionFailed]

    var links: [Link] {
        let base = ReviewPages.path(of: fix)
        let allowed = Lifecycle.allowedActions(from: fix.state, pausedFrom: fix.pausedFrom)
        let lifecycleLinks = { (actions: [(FixAction, String)]) -> [Link] in
            actions.filter { principal.allows($0.0.requiredPermission) && allowed.contains($0.0) }.map { Link(path: base + "/" + $0.0.rawValue, text: $0.1) }
        }
        let editsDetails = principal.allows(.editFixes) && fix.state != .abandoned
        var links: [Link] = editsDetails ? [Link(path: base + "/edit", text: messages[.actionsEdit])] : []
        links += lifecycleLinks([(.start, messages[.actionsStart]), (.revise, messages[.actionsRevise]), (.abandon, messages[.actionsAbandon])])
        if editsDetails {
            links += [Link(path: base + "/targets", text: messages[.actionsTargets]), Link(path: base + "/enrollments", text: messages[.actionsEnrollments])]
        } else if principal.allows(.readAll) {
            // Every staff role reads the direct targets, as in the API.
            links.append(Link(path: base + "/targets", text: messages[.targetsCurrent]))
        }
        if mayDecide { links.append(Link(path: base + "/decision", text: messages[.actionsDecide])) }
        if principal.allows(.decideRelease) { links.append(Link(path: base + "/criteria", text: messages[.criteriaFormLink])) }
        links += lifecycleLinks(ReleaseAction.allCases.map { ($0.fixAction, messages[$0.linkKey]) })
        return links
    }

    /// Whether this person may approve or reject the fix now, as the API would let them.
    var mayDecide: Bool {
        principal.allows(.approve) && FixActions.decidableStates.contains(fix.state) && decisionRefusal == nil
    }

    /// Why this person, whose role approves, cannot decide on this fix while it awaits decisions; nil otherwise.
    var decisionRefusal: String? {
        guard principal.allows(.approve), FixActions.decidableStates.contains(fix.state) else { return nil }
        if Principal.sameIdentity(fix.author, principal.name) {
            return messages[.actionsOwnFix]
        }
        do {
            _ = try ApprovalService.replaceableVote(of: principal.name, in: report, revision: fix.revision)
            return nil
        } catch {
            return messages(.actionsDecided, ["revision": messages.number(fix.revision)])
        }
    }

    func render() -> HTML {
        let items = links.map { link -> HTML in
            "<li><a href=\"\(link.path)\">\(link.text)<span class=\"visually-hidden\"> \(messages.html(.actionsForFix, ["title": messages.title(of: fix)]))</span></a></li>"
        }
        let list: HTML = items.isEmpty ? "<p class=\"body\">\(messages[.actionsNone])</p>"
            : "<ul class=\"list\">\(items)</ul>"
        let refusal: HTML = decisionRefusal.map { "<p class=\"body\">\($0)</p>" } ?? .empty
        return """
        <h2 class="heading-m">\(messages[.actionsTitle])</h2>
        \(list)
        \(refusal)
        """
    }
}
