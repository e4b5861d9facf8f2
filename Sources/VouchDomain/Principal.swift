/// Who is behind a request: the token's principal (a normalised name; see docs/decisions.md, "Principals, not tokens"), its role and,
/// for a tester token, the tester.
public struct Principal: Sendable, Equatable {
    public var name: String
    public var role: Role
    public var testerID: String?
    public var tokenID: String

    public init(name: String, role: Role, testerID: String? = nil, tokenID: String) {
        self.name = name
        self.role = role
        self.testerID = testerID
        self.tokenID = tokenID
    }

    public func allows(_ permission: Permission) -> Bool { role.allows(permission) }
}

extension Principal {
    /// Whether two principal names are one person for the four-eyes rule. Names are stored NFKC case-folded and no
    /// two principals share a confusable skeleton (the store refuses the second), so equality decides; lowercasing and
    /// Swift's canonical equivalence also cover names written before principals were normalised.
    public static func sameIdentity(_ first: String, _ second: String) -> Bool {
        first.lowercased() == second.lowercased()
    }
}
