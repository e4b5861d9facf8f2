import VouchDomain

/// Who may open a console route.
enum ConsoleAccess: Sendable {
    /// Anyone: the sign-in page, a personal link, the stylesheet, the accessibility statement.
    case anyone
    /// Anyone signed in, staff or tester; the handler shows what their role reaches.
    case signedIn
    /// A signed-in person whose role grants one of these permissions.
    case anyOf([Permission])
    /// A tester, through her link or a tester token: her own fixes, feedback and data.
    case tester

    static func permission(_ permission: Permission) -> ConsoleAccess { .anyOf([permission]) }

    func admits(_ principal: Principal) -> Bool {
        switch self {
        case .anyone, .signedIn: true
        case .anyOf(let permissions): permissions.contains(where: principal.allows)
        case .tester: principal.role == .tester && principal.testerID != nil
        }
    }
}
