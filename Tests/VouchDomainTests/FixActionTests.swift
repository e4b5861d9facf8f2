import Testing
import VouchDomain

@Suite struct FixActionTests {
    @Test func commandsAreTheAPIActions() {
        #expect(FixAction.commands.map(\.rawValue) == ["start", "revise", "pause", "resume", "abandon", "rollback", "promote", "retry-promotion"])
    }

    @Test(arguments: [FixAction.promotionSucceeded, .promotionSucceededPhased, .promotionFailed, .rolloutCompleted])
    func daemonEventsAreNotCommands(action: FixAction) {
        #expect(!action.isCommand)
    }

    @Test(arguments: [
        (FixAction.start, Permission.editFixes), (.revise, .editFixes), (.abandon, .editFixes),
        (.pause, .decideRelease), (.resume, .decideRelease), (.rollback, .decideRelease),
        (.promote, .decideRelease), (.retryPromotion, .decideRelease),
    ])
    func requiredPermission(action: FixAction, permission: Permission) {
        #expect(action.requiredPermission == permission)
    }
}
