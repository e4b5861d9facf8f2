import Foundation
import Testing
import VouchDomain
import VouchServices
import VouchStore

@Suite struct TesterServiceTests {
    @Test func aTesterReachesHerOwnDataOnly() throws {
        let world = try ServiceWorld()
        let (ana, ben) = (try world.tester("ana"), try world.tester("ben"))
        #expect(try world.services.testers.export(ana.testerID ?? "", for: ana).tester.name == "ana")
        #expect(throws: AccessDenied.self) { try world.services.testers.export(ben.testerID ?? "", for: ana) }
        #expect(throws: AccessDenied.self) { try world.services.testers.withdraw(ben.testerID ?? "", purgeFeedback: false, by: ana) }
        #expect(try world.store.tester(ben.testerID ?? "")?.isActive == true)
    }

    @Test func aTesterWithdrawsHerselfAndHerDataIsErased() throws {
        let world = try ServiceWorld()
        let ana = try world.tester("ana")
        let withdrawal = try world.services.testers.withdraw(ana.testerID ?? "", purgeFeedback: false, by: ana)
        #expect(!withdrawal.tester.isActive && withdrawal.tester.name == nil)
        #expect(throws: StoreConflict.self) { try world.services.testers.update(ana.testerID ?? "", with: TesterDraft(name: "Ana"), by: world.admin) }
    }

    @Test func consentIsRequired() throws {
        let world = try ServiceWorld()
        let draft = TesterDraft(name: "ana", assistiveTech: [AssistiveTechProfile(technology: .voiceover, platform: .ios)], targetingKeys: ["user-1"])
        let failure = #expect(throws: ValidationFailure.self) { try world.services.testers.create(draft, by: world.admin) }
        #expect(failure?.errors.contains { $0.field.hasPrefix("consent") } == true)
        #expect(throws: AccessDenied.self) { try world.services.testers.create(draft, by: try world.staff("rita", .releaseManager)) }
    }
}
