import Foundation
import VouchCodec
import VouchDomain
import VouchHTTP
import VouchJSON
import VouchServerKit
import VouchServices

/// `/v1/fixes/{key}/targets`: keys the flag is on for directly, such as a QA device.
struct TargetController {
    let targets: TargetService

    package func register(in router: inout APIRouter) {
        router.add("GET", "/v1/fixes/{key}/targets", .readAll, list)
        router.add("POST", "/v1/fixes/{key}/targets", .editFixes, change)
    }

    func list(_ request: HTTPRequest, _ context: RequestContext) throws -> HTTPResponse {
        let key = context.parameters["key"]
        return .json(.object(["fix": .string(key), "targets": .strings(try targets.targets(of: key, for: context.principal))]))
    }

    func change(_ request: HTTPRequest, _ context: RequestContext) throws -> HTTPResponse {
        var reader = JSONFieldReader(object: try RequestBody.object(request))
        let add = reader.stringList("add") ?? []
        let remove = reader.stringList("remove") ?? []
        let key = context.parameters["key"]
        let result = try targets.change(key, adding: add, removing: remove, readErrors: reader.problems, by: context.principal)
        return .json(.object([
            "fix": .string(key), "targets": .strings(result.targets), "added": .strings(result.added), "removed": .strings(result.removed),
        ]))
    }
}
