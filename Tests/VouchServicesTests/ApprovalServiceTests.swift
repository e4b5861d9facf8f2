import Foundation
import Testing
import VouchDomain
import VouchServices
import VouchStore

@Suite struct ApprovalServiceTests {
    @Test func aMaintainerCannotApprove() throws {
        let world = try ServiceWorld()
        let maria = try world.staff("maria", .maintainer)
        try world.fixInTesting(by: maria, enrolling: [])
        let other = try world.staff("mo", .maintainer)
        let error = #expect(throws: AccessDenied.self) {
            try world.services.approvals.decide(.approve, comment: nil, on: ServiceWorld.fixKey, by: other)
        }
        #expect(error?.description == "the role maintainer may not do this; it needs a role that can approve or reject fixes (admin or release_manager)")
        #expect(try world.store.approvals(of: ServiceWorld.fixKey).isEmpty)
    }

    @Test func aReleaseManagerApprovesAndTheApprovalIsAudited() throws {
        let world = try ServiceWorld()
        try world.fixInTesting(by: try world.staff("maria", .maintainer), enrolling: [])
        let rita = try world.staff("rita", .releaseManager)
        let entry = try world.services.approvals.decide(.approve, comment: "  Works with VoiceOver ", on: ServiceWorld.fixKey, by: rita)
        #expect(entry.approval.principal == "rita" && entry.approval.comment == "Works with VoiceOver")
        #expect(try world.services.approvals.approvals(of: ServiceWorld.fixKey, for: rita).map(\.approval.id) == [entry.approval.id])
        let audit = try world.store.auditEvents(fix: ServiceWorld.fixKey, after: nil, limit: 50)
        #expect(audit.contains { $0.action == .approvalApprove && $0.principal == "rita" })
    }

    @Test func whoeverShapedTheRevisionMayNotDecideOnIt() throws {
        let world = try ServiceWorld()
        try world.fixInTesting(by: world.admin, enrolling: [])
        #expect(throws: DecisionRefused.self) {
            try world.services.approvals.decide(.approve, comment: nil, on: ServiceWorld.fixKey, by: world.admin)
        }
        #expect(try world.store.approvals(of: ServiceWorld.fixKey).isEmpty)
    }

    @Test func aRejectionNeedsAComment() throws {
        let world = try ServiceWorld()
        try world.fixInTesting(by: try world.staff("maria", .maintainer), enrolling: [])
        let failure = #expect(throws: ValidationFailure.self) {
            try world.services.approvals.decide(.reject, comment: " ", on: ServiceWorld.fixKey, by: try world.staff("rita", .releaseManager))
        }
        #expect(failure?.errors.map(\.field) == ["comment"])
    }
}
