/// A tester acting through one of her personal console links rather than a token of her own: which link, who made
/// it, and which staff member, if any, was signed in in the browser that opened it (docs/console.md, "Personal links").
///
/// What is entered on a link that staff opened is not the tester's own act, so feedback and audit events keep this.
public struct LinkUse: Sendable, Equatable {
    public var id: String
    /// The principal who created the link.
    public var createdBy: String
    /// The staff principal whose console session was in the same browser when the link was opened; nil when none was.
    public var openedBy: String?

    public init(id: String, createdBy: String, openedBy: String? = nil) {
        self.id = id
        self.createdBy = createdBy
        self.openedBy = openedBy
    }

    /// Whether someone other than the tester opened the link, as far as the server can tell.
    public var wasOpenedByStaff: Bool { openedBy != nil }
}
