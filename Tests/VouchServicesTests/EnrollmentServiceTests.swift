import Foundation
import Testing
import VouchDomain
import VouchServices
import VouchStore

@Suite struct EnrollmentServiceTests {
    @Test func enrollingNamesTheTestersAndRemovingOneNotEnrolledIsNotFound() throws {
        let world = try ServiceWorld()
        let maria = try world.staff("maria", .maintainer)
        let (ana, ben) = (try world.tester("ana"), try world.tester("ben"))
        try world.fixInTesting(by: maria, enrolling: [ana])
        let error = #expect(throws: NotFound.self) { try world.services.enrollments.unenroll(ben.testerID ?? "", from: ServiceWorld.fixKey, by: maria) }
        #expect(error?.description == "tester \(ben.testerID ?? "") is not enrolled in fix \(ServiceWorld.fixKey)")
        #expect(try world.services.enrollments.unenroll(ana.testerID ?? "", from: ServiceWorld.fixKey, by: maria).removed == [ana.testerID])
    }

    @Test func aListIsRequiredAndAReleaseManagerMayNotEnroll() throws {
        let world = try ServiceWorld()
        let maria = try world.staff("maria", .maintainer)
        try world.fixInTesting(by: maria, enrolling: [])
        let failure = #expect(throws: ValidationFailure.self) { try world.services.enrollments.enroll(nil, in: ServiceWorld.fixKey, by: maria) }
        #expect(failure?.errors == [FieldError(field: "testers", message: "is required: the tester ids (t_…) to enroll (or panels: the panel ids, p_…)")])
        #expect(throws: AccessDenied.self) {
            try world.services.enrollments.enroll(["t_x"], in: ServiceWorld.fixKey, by: try world.staff("rita", .releaseManager))
        }
    }
}
