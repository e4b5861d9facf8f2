import Foundation
import Testing
import VouchDomain
import VouchServices
import VouchStore

@Suite struct EvidenceServiceTests {
    static let scope = EvidenceService.ReportScope(fixes: [ServiceWorld.fixKey], productName: "Example TV")

    /// A report names its author; without the operator configured there is nobody to name.
    @Test func aReportWaitsForTheOperator() throws {
        let world = try ServiceWorld()
        try world.fixInTesting(by: try world.staff("maria", .maintainer), enrolling: [])
        let error = #expect(throws: StoreConflict.self) { try world.services.evidence.openACR(Self.scope, for: world.admin) }
        #expect(error?.description == "a report names its author: set operator.name and operator.contact in vouchd's configuration")
    }

    @Test func onlyThoseWhoReadEverythingExportEvidence() throws {
        let world = try ServiceWorld()
        let ana = try world.tester("ana")
        try world.fixInTesting(by: try world.staff("maria", .maintainer), enrolling: [ana])
        #expect(throws: AccessDenied.self) { try world.services.evidence.earl(of: ServiceWorld.fixKey, revision: nil, for: ana) }
        #expect(throws: AccessDenied.self) { try world.services.evidence.openACR(Self.scope, for: ana) }
        let release = try world.staff("rita", .releaseManager)
        #expect(try world.services.evidence.earl(of: ServiceWorld.fixKey, revision: nil, for: release)["@graph"] == .array([]))
    }
}
