import Testing
import VouchDomain

/// docs/contracts.md "Tokens and roles", written out by hand.
private let grants: [Role: Set<Permission>] = [
    .admin: Set(Permission.allCases),
    .releaseManager: [.evaluateFlags, .readFlagDefinitions, .readAll, .decideRelease, .approve],
    .maintainer: [.evaluateFlags, .readFlagDefinitions, .readAll, .editFixes, .manageTesters, .submitOwnFeedback],
    .tester: [.evaluateFlags, .readEnrolledFixes, .submitOwnFeedback],
    .sdk: [.evaluateFlags, .readFlagDefinitions],
]

@Suite struct RoleTests {
    @Test func tableCoversEveryRole() {
        #expect(Set(grants.keys) == Set(Role.allCases))
    }

    @Test(arguments: Role.allCases, Permission.allCases)
    func allows(role: Role, permission: Permission) throws {
        let granted = try #require(grants[role])
        #expect(role.allows(permission) == granted.contains(permission))
    }

    @Test(arguments: Role.allCases)
    func everyRoleMayEvaluateFlags(role: Role) {
        #expect(role.allows(.evaluateFlags))
    }

    @Test func onlyAdminManagesTokensAndWebhooks() {
        #expect(Role.allCases.filter { $0.allows(.manageTokens) } == [.admin])
        #expect(Role.allCases.filter { $0.allows(.manageWebhooks) } == [.admin])
    }

    @Test func rawValuesAreTheAPINames() {
        #expect(Role.allCases.map(\.rawValue) == ["admin", "release_manager", "maintainer", "tester", "sdk"])
        #expect(Role.allowedList == "admin, release_manager, maintainer, tester, sdk")
    }
}
