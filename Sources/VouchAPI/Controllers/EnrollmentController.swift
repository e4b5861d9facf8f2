import Foundation
import VouchCodec
import VouchDomain
import VouchHTTP
import VouchJSON
import VouchServerKit
import VouchServices
import VouchStore

/// `/v1/fixes/{key}/enrollments`: while a fix is in testing its flag is on for enrolled testers' keys.
struct EnrollmentController {
    let enrollments: EnrollmentService

    package func register(in router: inout APIRouter) {
        router.add("GET", "/v1/fixes/{key}/enrollments", .readAll, list)
        router.add("POST", "/v1/fixes/{key}/enrollments", .manageTesters, enroll)
        router.add("DELETE", "/v1/fixes/{key}/enrollments/{tester}", .manageTesters, unenroll)
    }

    func list(_ request: HTTPRequest, _ context: RequestContext) throws -> HTTPResponse {
        let key = context.parameters["key"]
        return .json(EnrollmentController.json(key, try enrollments.enrollments(of: key, for: context.principal)))
    }

    func enroll(_ request: HTTPRequest, _ context: RequestContext) throws -> HTTPResponse {
        var reader = JSONFieldReader(object: try RequestBody.object(request))
        let testers = reader.stringList("testers")
        let panels = reader.stringList("panels")
        let key = context.parameters["key"]
        let change = try enrollments.enroll(testers, panels: panels, in: key, readErrors: reader.problems, by: context.principal)
        var body = EnrollmentController.json(key, change.enrollments)
        if case .object(var object) = body {
            object["added"] = .strings(change.added)
            body = .object(object)
        }
        return .json(body)
    }

    func unenroll(_ request: HTTPRequest, _ context: RequestContext) throws -> HTTPResponse {
        let key = context.parameters["key"]
        let change = try enrollments.unenroll(context.parameters["tester"], from: key, by: context.principal)
        return .json(EnrollmentController.json(key, change.enrollments))
    }

    static func json(_ key: String, _ enrollments: [Enrollment]) -> JSONValue {
        .object([
            "fix": .string(key),
            "enrollments": .array(enrollments.map {
                .object(["tester": .string($0.testerID), "enrolled_by": .string($0.enrolledBy), "enrolled_at": .string(Timestamp.string($0.enrolledAt))])
            }),
        ])
    }
}
