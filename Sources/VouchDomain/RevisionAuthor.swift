/// Someone who shaped a fix's current revision, and may therefore not approve or reject it (four-eyes).
///
/// Not only the fix's creator: whoever changed its content (title, UI area, expected announcement…) at any time,
/// whoever made a new revision, and whoever changed its targets, criteria or rollout since the current revision
/// began (docs/decisions.md, "Who may not approve").
public struct RevisionAuthor: Sendable, Equatable {
    public var principal: String
    /// What they did, in words: "created the fix", "changed the fix's content", "made a new revision"…
    public var reasons: [String]

    public init(principal: String, reasons: [String]) {
        self.principal = principal
        self.reasons = reasons
    }

    /// The audit actions that make someone an author.
    public static let authoringActions: [AuditAction] = [.fixCreate, .fixUpdate, .fixRevise, .fixTargets, .fixCriteria, .fixRollout]

    /// The authors of `fix`'s current revision, from its audit events of `authoringActions` in the order they
    /// happened. The fix's recorded author always counts, as its creator.
    public static func authors(of fix: Fix, from events: [AuditEvent]) -> [RevisionAuthor] {
        var authors = [RevisionAuthor(principal: fix.author, reasons: ["created the fix"])]
        func add(_ principal: String, _ reason: String) {
            if let index = authors.firstIndex(where: { Principal.sameIdentity($0.principal, principal) }) {
                if !authors[index].reasons.contains(reason) { authors[index].reasons.append(reason) }
            } else {
                authors.append(RevisionAuthor(principal: principal, reasons: [reason]))
            }
        }
        // Targets, criteria and rollout count from the start of the current revision; content and revisions always.
        let revisionStart = events.lastIndex { $0.action == .fixRevise } ?? -1
        for (index, event) in events.enumerated() {
            switch event.action {
            case .fixCreate: add(event.principal, "created the fix")
            case .fixUpdate: add(event.principal, "changed the fix's content")
            case .fixRevise: add(event.principal, index == revisionStart ? "made revision \(fix.revision)" : "made an earlier revision")
            case .fixTargets where index > revisionStart: add(event.principal, "changed its targeting keys")
            case .fixCriteria where index > revisionStart: add(event.principal, "changed its criteria")
            case .fixRollout where index > revisionStart: add(event.principal, "changed its rollout")
            default: break
            }
        }
        return authors
    }

    /// Why this author may not decide, in words for a refusal.
    public func refusal(fix key: String, revision: Int) -> String {
        "\(principal) may not approve or reject revision \(revision) of fix \(key), having shaped it (\(Self.joined(reasons))); "
            + "another release manager must decide"
    }

    /// "maria (created the fix), eve (changed the fix's content and made revision 2)".
    public static func describe(_ authors: [RevisionAuthor]) -> String {
        authors.map { "\($0.principal) (\(Self.joined($0.reasons)))" }.joined(separator: ", ")
    }

    public static func joined(_ words: [String]) -> String {
        words.count <= 1 ? words.joined() : words.dropLast().joined(separator: ", ") + " and " + words.last!
    }
}
