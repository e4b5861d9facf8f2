import Foundation
import VouchCodec
import VouchDomain
import VouchHTTP
import VouchJSON
import VouchStore

/// `/v1/fixes/{key}/enrollments`: while a fix is in testing its flag is on for enrolled testers' keys.
struct EnrollmentController {
    let store: any Store
    let clock: @Sendable () -> Date

    func register(in router: inout APIRouter) {
        router.add("GET", "/v1/fixes/{key}/enrollments", .readAll, list)
        router.add("POST", "/v1/fixes/{key}/enrollments", .manageTesters, enroll)
        router.add("DELETE", "/v1/fixes/{key}/enrollments/{tester}", .manageTesters, unenroll)
    }

    func list(_ request: HTTPRequest, _ context: RequestContext) throws -> HTTPResponse {
        let key = context.parameters["key"]
        return .json(EnrollmentController.json(key, try store.enrollments(of: key)))
    }

    func enroll(_ request: HTTPRequest, _ context: RequestContext) throws -> HTTPResponse {
        var reader = JSONFieldReader(object: try RequestBody.object(request))
        let testers = reader.stringList("testers")
        if let testers, testers.isEmpty || testers.count > 500 {
            reader.addError(FieldError(field: "testers", message: "must list 1 to 500 tester ids (t_…)"))
        } else if testers == nil, reader.errors.isEmpty {
            reader.addError(FieldError(field: "testers", message: "is required: the tester ids (t_…) to enroll"))
        }
        try reader.finish()
        let key = context.parameters["key"]
        let change = try store.enroll(testers ?? [], in: key, by: context.requester, at: clock())
        var body = EnrollmentController.json(key, change.enrollments)
        if case .object(var object) = body {
            object["added"] = .strings(change.added)
            body = .object(object)
        }
        return .json(body)
    }

    func unenroll(_ request: HTTPRequest, _ context: RequestContext) throws -> HTTPResponse {
        let key = context.parameters["key"]
        let tester = context.parameters["tester"]
        let change = try store.unenroll([tester], from: key, by: context.requester, at: clock())
        guard !change.removed.isEmpty else { throw Problem(status: 404, detail: "tester \(tester) is not enrolled in fix \(key)") }
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
