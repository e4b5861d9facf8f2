/// Who is behind a request: the token's principal (a normalised name; see docs/decisions.md, "Principals, not tokens"), its role and,
/// for a tester token, the tester.
public struct Principal: Sendable, Equatable {
    public var name: String
    public var role: Role
    public var testerID: String?
    /// The token's id, or the personal link's for a tester signed in through one (then `link` is set).
    public var tokenID: String
    /// Set when the tester acts through a personal link rather than a token.
    public var link: LinkUse?
    /// True for staff signed in to the console through the organisation's identity provider: then `tokenID` is their
    /// console session's own credential id (`oidc_…`), which ends with the session (docs/sign-in.md).
    public var viaIdentityProvider: Bool
    /// Whether OFREP bulk answers offer this token push; false for a token made without (`TokenRecord.eventStreams`).
    public var eventStreams: Bool
    /// Whether an sdk principal's token was made for flag definitions (`TokenRecord.flagDefinitions`); other roles
    /// ignore it, their role alone decides.
    public var flagDefinitions: Bool

    public init(
        name: String, role: Role, testerID: String? = nil, tokenID: String, link: LinkUse? = nil,
        viaIdentityProvider: Bool = false, eventStreams: Bool = true, flagDefinitions: Bool = false
    ) {
        self.eventStreams = eventStreams
        self.flagDefinitions = flagDefinitions
        self.name = name
        self.role = role
        self.testerID = testerID
        self.tokenID = tokenID
        self.link = link
        self.viaIdentityProvider = viaIdentityProvider
    }

    /// The role's permissions, narrowed by the token: an sdk token reads flag definitions only when made for them, for
    /// every sdk token built into an app can be extracted, and the definitions list every targeted key.
    public func allows(_ permission: Permission) -> Bool {
        !lacksFlagDefinitionsOption(for: permission) && role.allows(permission)
    }

    /// True for an sdk principal refused flag definitions only because its token was made without them.
    public func lacksFlagDefinitionsOption(for permission: Permission) -> Bool {
        permission == .readFlagDefinitions && role == .sdk && !flagDefinitions
    }
}

extension Principal {
    /// Whether two principal names are one person for the four-eyes rule. Names are stored NFKC case-folded and no
    /// two principals share a confusable skeleton (the store refuses the second), so equality decides; lowercasing and
    /// Swift's canonical equivalence also cover names written before principals were normalised.
    public static func sameIdentity(_ first: String, _ second: String) -> Bool {
        first.lowercased() == second.lowercased()
    }
}
