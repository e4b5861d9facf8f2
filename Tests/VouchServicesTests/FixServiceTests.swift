import Foundation
import Testing
import VouchDomain
import VouchServices
import VouchStore

@Suite struct FixServiceTests {
    @Test func aTesterCannotCreateAFix() throws {
        let world = try ServiceWorld()
        let ana = try world.tester("ana")
        #expect(throws: AccessDenied.self) {
            try world.services.fixes.create(FixDraft(key: ServiceWorld.fixKey, title: "Label channel logos", uiArea: "TV", platforms: ["ios"]), by: ana)
        }
        #expect(try world.store.fix(ServiceWorld.fixKey) == nil)
    }

    @Test func aMaintainerMayStartButNotPause() throws {
        let world = try ServiceWorld()
        let maria = try world.staff("maria", .maintainer)
        let started = try world.fixInTesting(by: maria, enrolling: [])
        #expect(started.state == .testing && started.author == "maria")
        let error = #expect(throws: AccessDenied.self) { try world.services.fixes.perform(.pause, on: ServiceWorld.fixKey, by: maria) }
        #expect(error?.description.hasPrefix("the role maintainer may not pause a fix; it needs a role that can pause, resume") == true)
        #expect(try world.services.fixes.perform(.pause, on: ServiceWorld.fixKey, by: try world.staff("rita", .releaseManager)).after.state == .paused)
    }

    @Test func aTesterSeesOnlyTheFixesSheIsEnrolledIn() throws {
        let world = try ServiceWorld()
        let (ana, ben) = (try world.tester("ana"), try world.tester("ben"))
        try world.fixInTesting(by: try world.staff("maria", .maintainer), enrolling: [ana])
        #expect(try world.services.fixes.fixes(state: nil, after: nil, limit: 10, for: ana).map(\.key.rawValue) == [ServiceWorld.fixKey])
        #expect(try world.services.fixes.fixes(state: nil, after: nil, limit: 10, for: ben).isEmpty)
        #expect(throws: AccessDenied.self) { try world.services.fixes.fix(ServiceWorld.fixKey, for: ben) }
    }

    @Test func aRevisionNoteIsAtMostAThousandCharacters() throws {
        let world = try ServiceWorld()
        let maria = try world.staff("maria", .maintainer)
        try world.fixInTesting(by: maria, enrolling: [])
        let failure = #expect(throws: ValidationFailure.self) {
            try world.services.fixes.perform(.revise, on: ServiceWorld.fixKey, note: String(repeating: "a", count: 1_001), by: maria)
        }
        #expect(failure?.errors.map(\.field) == ["note"])
        #expect(try world.services.fixes.perform(.revise, on: ServiceWorld.fixKey, note: "build 413", by: maria).after.revision == 2)
    }
}
