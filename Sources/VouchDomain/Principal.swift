/// Who is behind a request: the token's principal name, its role and, for a tester token, the tester.
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
    /// Whether two principal names are one person for the four-eyes rule: case does not count, and Swift's string
    /// comparison treats canonically equivalent forms (NFC "Zoë" and NFD "Zoe\u{308}") as equal.
    public static func sameIdentity(_ first: String, _ second: String) -> Bool {
        first.lowercased() == second.lowercased()
    }
}
